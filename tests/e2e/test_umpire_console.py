"""Issue 26 (items 1, 10, 13) in a real browser, on a laptop (1366x800) and a phone
(390x844): the umpire console's sections, the settings saved in hours and days, a bad
value refused with nothing saved, the ruleset's own options, a player removed (who then
sees a page saying so, DEBUG on) and the seat handed to someone else, the campaign
exported and the file imported as a new campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [pytest.param((1366, 800), id="laptop"), pytest.param((390, 844), id="phone")]


def _login(browser: Any, base: str, username: str, size: tuple[int, int]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())  # data-confirm: the person says yes
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    return page


def _fits(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def _section(page: Any, label: str) -> None:
    nav = page.get_by_role("navigation", name="Umpire console sections")
    link = nav.get_by_role("link", name=label)
    box = link.bounding_box()
    assert box is not None and box["height"] >= 24 and box["width"] >= 24  # a finger's size
    link.click()
    page.wait_for_load_state()
    assert nav.get_by_role("link", name=label).get_attribute("aria-current") == "page"


def _main(page: Any) -> str:
    return page.locator("main").inner_text()


@pytest.mark.parametrize("size", SIZES)
def test_the_umpire_console_in_sections(browser, live_server, make_campaign, uma, alice, bob,
                                        charlie, settings, shoot, tmp_path: Path,
                                        size) -> None:
    from campaign.models import Campaign, Event, Player
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    settings.DEBUG = True  # `make run`: the removed player still sees the site's page
    league = make_campaign(uma, name="Phone league")
    for user in (alice, bob):
        campaign_join(campaign_id=league.pk, user=user, invite=league.invite_code)
    campaign_start(campaign_id=league.pk)
    base, cid, width = live_server.url, league.pk, size[0]
    tag = "phone" if width < 500 else "laptop"

    u = _login(browser, base, "uma", size)
    u.goto(f"{base}/campaigns/{cid}/umpire/")
    assert "Advance to the next phase" in _main(u)
    _fits(u, width)

    # --- settings: the unchanged form saves (it never did: issue 26, item 1) ----------
    _section(u, "Settings")
    _fits(u, width)
    shoot(u, f"60-umpire-settings-{tag}")
    u.get_by_role("button", name="Save settings").click()
    u.wait_for_load_state()
    assert "Nothing changed" in _main(u)
    # the move phase in days, the reminder in hours, a public league
    u.get_by_label("Move phase length", exact=True).fill("3")
    u.get_by_label("Move phase length: unit").select_option("days")
    u.get_by_label("Reminder before a deadline", exact=True).fill("12")
    u.get_by_label("Public league").check()
    u.get_by_role("button", name="Save settings").click()
    u.wait_for_load_state()
    assert "Settings saved" in _main(u)
    league.refresh_from_db()
    assert league.settings.move_seconds == 3 * 86400
    assert league.settings.reminder_seconds == 12 * 3600
    assert league.settings.public is True
    assert u.get_by_label("Move phase length: unit").input_value() == "days"
    # too long: a sentence on the field, nothing saved
    u.get_by_label("Tactical phase length", exact=True).fill("90")
    u.get_by_label("Tactical phase length: unit").select_option("days")
    u.get_by_role("button", name="Save settings").click()
    u.wait_for_load_state()
    assert "At most 60 days." in _main(u) and "nothing was saved" in _main(u)
    _fits(u, width)
    league.refresh_from_db()
    assert league.settings.tactical_seconds == 0

    # --- seats: remove bob; bob reads why; the seat goes to charlie ------------------
    _section(u, "Seats")
    _fits(u, width)
    u.get_by_role("button", name="Remove bob").click()
    u.wait_for_load_state()
    assert "bob no longer plays this campaign" in _main(u)
    assert "bob's former seat" in _main(u)
    shoot(u, f"61-umpire-seats-{tag}")
    b = _login(browser, base, "bob", size)
    b.goto(f"{base}/campaigns/{cid}/economy/")  # (the map: a public league, anyone reads)
    assert b.get_by_role("heading", level=1).inner_text() == \
        "You no longer play this campaign"
    assert "The umpire removed you from Phone league" in _main(b)
    assert "Traceback" not in b.content()
    _fits(b, width)
    shoot(b, f"62-removed-player-{tag}")
    b.goto(f"{base}/campaigns/99999999/")
    assert b.get_by_role("heading", level=1).inner_text() == "Nothing here"
    assert "Page not found" not in b.content()  # not Django's technical page
    u.get_by_label("Hand the seat to").fill("charlie")
    u.get_by_role("button", name="Hand the seat over").last.click()
    u.wait_for_load_state()
    assert "The seat now belongs to charlie" in _main(u)
    assert Player.objects.get(campaign=league, user=charlie).removed_at is None
    assert Event.objects.filter(campaign=league, kind="seat_removed").count() == 1
    assert Event.objects.filter(campaign=league, kind="seat_handed_over").count() == 1

    # --- corrections live in their own section ---------------------------------------
    _section(u, "Corrections")
    _fits(u, width)
    assert "Record correction" in _main(u) and "Roll back" in _main(u)

    # --- export downloads the document; import lands on the copy ---------------------
    _section(u, "Export and import")
    _fits(u, width)
    with u.expect_download() as info:
        u.get_by_role("link", name="Download Phone league (JSON)").click()
    saved = tmp_path / "league.json"
    info.value.save_as(saved)
    assert '"format": "unlimit3d-campaign"' in saved.read_text()
    u.get_by_label("Exported file (.json)").set_input_files(str(saved))
    u.get_by_role("button", name="Import as a new campaign").click()
    u.wait_for_load_state()
    copy = Campaign.objects.exclude(pk=league.pk).get()
    assert u.url == f"{base}/campaigns/{copy.pk}/"
    assert "Imported as a new campaign" in _main(u)
    shoot(u, f"63-imported-{tag}")


@pytest.mark.parametrize("size", SIZES)
def test_the_rulesets_own_options_in_the_settings(browser, live_server, make_campaign, uma,
                                                  size) -> None:
    from campaign import rulesets

    info = next(r for r in rulesets.all_rulesets()
                if any(isinstance(s.default, int) and not isinstance(s.default, bool)
                       and s.maximum is not None for s in r.option_specs))
    spec = next(s for s in info.option_specs if isinstance(s.default, int)
                and not isinstance(s.default, bool) and s.maximum is not None)
    league = make_campaign(uma, options={"ruleset": info.name})
    u = _login(browser, live_server.url, "uma", size)
    u.goto(f"{live_server.url}/campaigns/{league.pk}/umpire/settings/")
    assert f"{info.title}: its own options" in _main(u)
    assert spec.help in _main(u)
    field = u.get_by_label(spec.label, exact=True)
    assert field.input_value() == str(spec.default)
    value = spec.default + 1 if spec.default < spec.maximum else spec.default - 1
    field.fill(str(value))
    u.get_by_role("button", name="Save settings").click()
    u.wait_for_load_state()
    assert "Settings saved: the ruleset's options." in _main(u)
    league.refresh_from_db()
    assert league.settings.ruleset_options == {spec.key: value}
    assert u.get_by_label(spec.label, exact=True).input_value() == str(value)
    _fits(u, size[0])
