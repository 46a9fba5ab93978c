"""Chat and push channels in a browser (issue 27, item 2), at 1366x800 and 390x844: a
player adds a chat address, sees it masked, sends a test that reaches a receiver on
127.0.0.1, removes it; the site's manifest and service worker are served and the worker
registers for the whole site; the push button is there. The umpire's campaign channel
page likewise."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_two_player_turn import _login
from tests.orders.test_channels import Receiver

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _sized(browser, base, who, width, height):
    page = _login(browser, base, who, width=width)
    page.set_viewport_size({"width": width, "height": height})
    return page


@pytest.mark.parametrize("size", [(1366, 800), (390, 844)])
def test_a_player_adds_tests_and_removes_a_chat_channel(browser, live_server, alice,
                                                        settings, size, shoot) -> None:
    settings.CHANNELS_ALLOW_LOCAL = True
    width, height = size
    base = live_server.url
    page = _sized(browser, base, "alice", width, height)
    with Receiver() as receiver:
        address = f"json://127.0.0.1:{receiver.port}/hook-secret-token"
        page.goto(f"{base}/accounts/channels/")
        page.get_by_label("Address of a chat channel").fill(address)
        page.get_by_role("button", name="Add this channel").click()
        page.wait_for_load_state()
        main = page.locator("main").inner_text()
        assert "Channel saved" in main
        assert "JSON web hook address ending …oken" in main
        assert "hook-secret" not in page.content()
        page.get_by_role("button", name="Send a test").click()
        page.wait_for_load_state()
        assert "The test message was delivered." in page.locator("main").inner_text()
    assert len(receiver.requests) == 1
    assert json.loads(receiver.requests[0]["body"])["title"] == "Unlimit3d 8: a test message"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    push_button = page.get_by_role("button", name="Enable push on this device")
    assert push_button.is_visible()
    box = push_button.bounding_box()
    assert box and box["height"] >= 24 and box["width"] >= 24
    shoot(page, f"channels-{width}")
    page.get_by_role("button", name="Remove").click()
    page.wait_for_load_state()
    assert "No channel yet." in page.locator("main").inner_text()
    page.context.close()


@pytest.mark.parametrize("size", [(1366, 800), (390, 844)])
def test_the_site_is_installable_and_its_worker_covers_the_site(browser, live_server, alice,
                                                                size) -> None:
    width, height = size
    base = live_server.url
    page = _sized(browser, base, "alice", width, height)
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    icon = page.request.get(base + manifest["icons"][0]["src"])
    assert icon.ok and icon.headers["content-type"] == "image/png"
    page.goto(f"{base}/accounts/channels/")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{base}/"
    page.context.close()


@pytest.mark.parametrize("size", [(1366, 800), (390, 844)])
def test_the_umpire_adds_a_campaign_channel(browser, live_server, uma, make_campaign,
                                            size) -> None:
    width, height = size
    campaign = make_campaign(uma, name="Autumn league")
    base = live_server.url
    page = _sized(browser, base, "uma", width, height)
    page.goto(f"{base}/campaigns/{campaign.pk}/umpire/channels/")
    field = page.get_by_label("Address of the campaign's chat channel")
    field.fill("json://10.0.0.7/hook")
    page.get_by_role("button", name="Add this channel").click()
    page.wait_for_load_state()
    assert "is not a public address" in page.locator("main").inner_text()
    page.get_by_label("Address of the campaign's chat channel").fill(
        "discord://1234567890/secret-token-abcd")
    page.get_by_role("button", name="Add this channel").click()
    page.wait_for_load_state()
    main = page.locator("main").inner_text()
    assert "Discord address ending …abcd" in main and "secret-token" not in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.context.close()


#: Headless Chromium has no push service: the browser's subscription is stood in for
#: (the keys are a real P-256 point and secret, as a browser makes them); the page's
#: script, the permission prompt, the CSRF-protected save and remove are the real ones.
FAKE_PUSH = """(() => {
  const sub = {endpoint: 'http://127.0.0.1:9/push/e2e-device',
    keys: {p256dh: '%s', auth: '%s'},
    toJSON() { return {endpoint: this.endpoint, keys: this.keys}; },
    unsubscribe() { window.__subscribed = false; return Promise.resolve(true); }};
  PushManager.prototype.subscribe = function () {
    window.__subscribed = true; return Promise.resolve(sub); };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(window.__subscribed === false ? null : sub); };
})();"""


@pytest.mark.parametrize("size", [(1366, 800), (390, 844)])
def test_a_player_turns_push_on_and_off_on_this_device(browser, live_server, alice, settings,
                                                       size) -> None:
    from campaign.models import PushSubscription
    from tests.orders.test_push import Browser

    settings.CHANNELS_ALLOW_LOCAL = True
    width, height = size
    base = live_server.url
    page = _sized(browser, base, "alice", width, height)
    keys = Browser()
    page.context.grant_permissions(["notifications"], origin=base)
    page.context.add_init_script(FAKE_PUSH % (keys.p256dh, keys.auth))
    page.goto(f"{base}/accounts/channels/")
    assert PushSubscription.objects.count() == 0
    page.get_by_role("button", name="Enable push on this device").click()
    status = page.locator("[data-push-status]")
    status.filter(has_text="Push is on for this device").wait_for()
    saved = PushSubscription.objects.get()
    assert saved.user_id == alice.pk and saved.p256dh == keys.p256dh
    page.get_by_role("button", name="Turn push off on this device").click()
    status.filter(has_text="Push is off on this device").wait_for()
    assert PushSubscription.objects.count() == 0
    page.context.close()
