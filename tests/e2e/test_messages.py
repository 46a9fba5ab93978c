"""Issue 26.5, played in a browser at 1366x800 and 390x844: alice writes to bob, bob sees
an unread badge, reads the thread and answers; a message to the whole table reaches
charlie, who never sees what alice and bob wrote to each other."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [(1366, 800), (390, 844)]


def login(browser: Any, base: str, username: str, size: tuple[int, int]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    return page


def fits(page: Any, size: tuple[int, int]) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


def tall_enough(locator: Any) -> None:
    box = locator.bounding_box()
    assert box is not None and box["height"] >= 24 and box["width"] >= 24


def nav_messages(page: Any) -> Any:
    return page.get_by_role("navigation", name="Campaign").get_by_role("link",
                                                                       name="Messages")


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_players_write_read_and_answer_and_secrets_stay_between_two(
        size, browser, live_server, shoot, make_campaign, uma, alice, bob, charlie) -> None:
    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma, name="Iron Coast")
    for user in (alice, bob, charlie):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    base, home = live_server.url, f"{live_server.url}/campaigns/{campaign.pk}/"
    tag = f"{size[0]}x{size[1]}"

    # alice opens her messages from the navigation and writes to bob (htmx, in place)
    a = login(browser, base, "alice", size)
    a.goto(home)
    nav_messages(a).click()
    a.wait_for_url(f"{home}messages/")
    a.get_by_role("link", name="bob").click()
    a.get_by_label("Write to bob").fill("   ")
    a.get_by_role("button", name="Send").click()
    a.get_by_role("alert").filter(has_text="A message needs some text.").wait_for()
    assert a.locator(".bubble").count() == 0
    a.get_by_label("Write to bob").fill("Shall we share the river, bob?")
    tall_enough(a.get_by_role("button", name="Send"))
    a.get_by_role("button", name="Send").click()
    a.locator(".bubble.mine", has_text="Shall we share the river").wait_for()
    assert a.get_by_label("Write to bob").input_value() == ""
    fits(a, size)
    shoot(a, f"60-messages-alice-to-bob-{tag}")

    # bob sees the badge, the unread thread, reads it and answers
    b = login(browser, base, "bob", size)
    b.goto(home)
    link = nav_messages(b)
    assert "1" in link.locator(".nav-badge").inner_text()
    tall_enough(link)
    link.click()
    assert "1 unread" in b.locator("main").inner_text()
    fits(b, size)
    shoot(b, f"61-messages-bob-inbox-{tag}")
    b.get_by_role("link", name="alice").click()
    assert "Shall we share the river, bob?" in b.locator(".conversation").inner_text()
    assert b.locator(".bubble.new").count() == 1
    assert b.locator("#latest").is_visible()
    assert nav_messages(b).locator(".nav-badge").count() == 0
    b.get_by_label("Write to alice").fill("Yes, the east bank is yours.")
    b.get_by_role("button", name="Send").click()
    b.locator(".bubble.mine", has_text="east bank").wait_for()
    fits(b, size)
    shoot(b, f"62-messages-bob-answers-{tag}")

    # alice's answer arrives; she writes to the whole table
    a.goto(home)
    assert "1" in nav_messages(a).locator(".nav-badge").inner_text()
    a.goto(f"{home}messages/")
    a.get_by_role("link", name="Everyone at the table").click()
    a.get_by_label("Write to everyone").fill("Good luck, all of you.")
    a.get_by_role("button", name="Send").click()
    a.locator(".bubble.mine", has_text="Good luck").wait_for()

    # charlie reads the table's message and nothing of alice and bob's
    c = login(browser, base, "charlie", size)
    c.goto(home)
    assert "1" in nav_messages(c).locator(".nav-badge").inner_text()
    nav_messages(c).click()
    inbox_text = c.locator("main").inner_text()
    assert "Good luck, all of you." in inbox_text and "1 unread" in inbox_text
    assert "river" not in inbox_text and "east bank" not in inbox_text
    fits(c, size)
    shoot(c, f"63-messages-charlie-inbox-{tag}")
    c.get_by_role("link", name="Everyone at the table").click()
    assert "Good luck, all of you." in c.locator(".conversation").inner_text()
    for who in ("alice", "bob"):
        c.goto(f"{home}messages/")
        c.get_by_role("link", name=who).click()
        text = c.locator("main").inner_text()
        assert "river" not in text and "east bank" not in text
        assert "Nothing written here yet." in text
    for page in (a, b, c):
        page.context.close()


def in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_long_conversation_opens_at_its_newest_message(
        size, browser, live_server, make_campaign, uma, alice, bob) -> None:
    from campaign.models import Message
    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma, name="Iron Coast")
    a_seat, b_seat = (campaign_join(campaign_id=campaign.pk, user=u,
                                    invite=campaign.invite_code) for u in (alice, bob))
    import datetime as dt

    from django.utils import timezone

    rows = Message.objects.bulk_create([
        Message(campaign=campaign, sender=b_seat if i % 2 else a_seat,
                recipient=a_seat if i % 2 else b_seat,
                text="The newest word" if i == 39 else f"Line {i} of a long talk")
        for i in range(40)])
    start = timezone.now() - dt.timedelta(hours=1)
    for i, row in enumerate(rows):  # a minute apart, in the order written
        Message.objects.filter(pk=row.pk).update(created_at=start + dt.timedelta(minutes=i))
    base, home = live_server.url, f"{live_server.url}/campaigns/{campaign.pk}/"
    a = login(browser, base, "alice", size)
    a.goto(f"{home}messages/")
    a.get_by_role("link", name="bob").click()
    newest = a.locator(".bubble", has_text="The newest word")
    newest.wait_for()
    assert in_view(a, newest)
    a.get_by_label("Write to bob").fill("And one more from me.")
    a.get_by_role("button", name="Send").click()
    sent = a.locator(".bubble.mine", has_text="And one more from me.")
    sent.wait_for()
    a.wait_for_timeout(300)  # htmx's scroll after the swap
    assert in_view(a, sent)
    fits(a, size)
    a.context.close()
