"""Trust in a real browser (issue 18): a player verifies a finished phase's dice, clones
a private sandbox and plays a whole turn in it as every seat; the umpire rolls the
real campaign back a phase. Screenshots at 1280 and 390 px go to artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_two_player_turn import _advance, _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_verify_sandbox_and_rollback_in_the_browser(browser, live_server, shoot, settings,
                                                    make_campaign, uma, alice, bob) -> None:
    from campaign.models import Campaign
    from campaign.services import clock
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    settings.DICE_SECRETS = "random"
    league = make_campaign(uma, map_spec={"generator": "hex", "territories": 4, "seed": 4},
                           seed=4, name="Trusted league")
    for user in (alice, bob):
        campaign_join(campaign_id=league.pk, user=user, invite=league.invite_code)
    campaign_start(campaign_id=league.pk)
    clock.advance(campaign_id=league.pk, by="umpire")  # commercial -> activity
    base, cid = live_server.url, league.pk

    # --- alice checks the dice of the commercial phase that just ended
    a = _login(browser, base, "alice")
    a.goto(f"{base}/campaigns/{cid}/dice/")
    row = a.locator("tr", has_text="commercial").first
    row.get_by_role("link", name="verify").click()
    a.wait_for_load_state()
    assert "verified" in a.locator("tr", has_text="commercial").first.inner_text()
    shoot(a, "30-dice-verified")

    # --- alice clones a sandbox from the activity phase's start and plays every seat
    a.get_by_label("Start from").select_option("1:activity")
    a.get_by_role("button", name="Clone a sandbox").click()
    a.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    sandbox = Campaign.objects.get(sandbox_of_id=cid)
    assert a.url.endswith(f"/campaigns/{sandbox.pk}/")
    banner = a.locator(".sandbox-banner")
    assert "Sandbox" in banner.inner_text()
    banner.get_by_label("Playing as").select_option(label="bob")
    banner.get_by_role("button", name="Play this seat").click()
    a.wait_for_load_state()
    assert a.locator(".sandbox-banner select option:checked").inner_text() == "bob"
    for phase in ("Move", "Tactical", "Commercial"):
        _advance(a, base, sandbox.pk, phase)
    sandbox.refresh_from_db()
    assert (sandbox.turn, sandbox.phase) == (2, "commercial")
    shoot(a, "31-sandbox-turn-2")
    phone = _login(browser, base, "alice", width=390)
    phone.goto(f"{base}/campaigns/{sandbox.pk}/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone, "32-sandbox-phone")
    # the real league did not move
    league.refresh_from_db()
    assert (league.turn, league.phase) == (1, "activity")

    # --- the umpire rolls the real league back to the commercial phase
    u = _login(browser, base, "uma")
    u.goto(f"{base}/campaigns/{cid}/umpire/correct/")
    u.get_by_label("Back to").select_option("1:commercial")
    u.get_by_role("button", name="Roll back…").click()  # the confirmation page
    u.wait_for_load_state()
    u.get_by_label("Why (the journal says it)").fill("a purchase went to the wrong seat")
    u.get_by_label("I understand that everything listed above is undone").check()
    u.get_by_role("button", name="Roll back", exact=True).click()
    u.wait_for_load_state()
    assert "Rolled back" in u.locator("main").inner_text()
    league.refresh_from_db()
    assert (league.turn, league.phase) == (1, "commercial")
    shoot(u, "33-rolled-back")
