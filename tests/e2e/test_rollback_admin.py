"""Issue 26 item 2 in a real browser: the umpire hands a seat over on the console, then
rolls the campaign back through the confirmation page, which lists in sentences what will
be undone and what stays; the seat stays with its new player. At 1366x800 and 390x844."""

from __future__ import annotations

import pytest

from tests.e2e.test_two_player_turn import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width,height", [(1366, 800), (390, 844)])
def test_a_seat_handed_over_stays_through_a_rollback_confirmed_on_its_page(
        browser, live_server, shoot, settings, make_campaign, uma, alice, bob, charlie,
        width, height) -> None:
    from campaign.models import Campaign, Player
    from campaign.services import clock
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    settings.DICE_SECRETS = "random"
    league = make_campaign(uma, map_spec={"generator": "hex", "territories": 4, "seed": 4},
                           seed=4, name="Handed league")
    for user in (alice, bob):
        campaign_join(campaign_id=league.pk, user=user, invite=league.invite_code)
    campaign_start(campaign_id=league.pk)
    start_credits = Player.objects.get(campaign=league, user=alice).credits
    clock.advance(campaign_id=league.pk, by="umpire")  # commercial -> activity
    seat = Player.objects.get(campaign=league, user=alice)
    Player.objects.filter(pk=seat.pk).update(credits=start_credits + 25)  # game state
    base, cid = live_server.url, league.pk

    u = _login(browser, base, "uma", width=width)
    u.set_viewport_size({"width": width, "height": height})
    # --- hand alice's seat to charlie on the console (the confirm dialog is accepted)
    u.goto(f"{base}/campaigns/{cid}/umpire/seats/")
    u.get_by_label("Replace alice with").fill("charlie")
    u.locator("form", has=u.get_by_label("Replace alice with")) \
        .get_by_role("button", name="Hand the seat over").click()
    u.wait_for_load_state()
    assert Player.objects.get(pk=seat.pk).user_id == charlie.pk
    assert "charlie" in u.locator("section[aria-labelledby=seats-h]").inner_text()

    # --- roll back: the console's corrections section links to the confirmation page
    u.goto(f"{base}/campaigns/{cid}/umpire/correct/")
    u.get_by_label("Back to").select_option("1:commercial")
    u.get_by_role("button", name="Roll back…").click()
    u.wait_for_url(f"{base}/campaigns/{cid}/umpire/rollback/?point=1%3Acommercial")
    undone = u.locator("#rollback-undone").inner_text()
    kept = u.locator("#rollback-kept").inner_text()
    assert "The credits of 1 player (charlie): back to what they held then." in undone
    assert "Charlie keeps the seat alice held then." in kept
    assert "The settings" in kept
    assert u.evaluate("document.documentElement.scrollWidth") <= width
    button = u.get_by_role("button", name="Roll back", exact=True)
    box = button.bounding_box()
    assert box is not None and box["height"] >= 24 and box["width"] >= 24
    shoot(u, f"34-rollback-confirmation-{width}")
    assert Campaign.objects.get(pk=cid).phase == "activity"  # nothing happened yet
    u.get_by_label("Why (the journal says it)").fill("production ran too early")
    u.get_by_label("I understand that everything listed above is undone").check()
    button.click()
    u.wait_for_url(f"{base}/campaigns/{cid}/umpire/")
    assert "Rolled back" in u.locator("main").inner_text()
    league.refresh_from_db()
    assert (league.turn, league.phase) == (1, "commercial")
    seat.refresh_from_db()
    assert seat.user_id == charlie.pk and seat.credits == start_credits
    u.goto(f"{base}/campaigns/{cid}/umpire/seats/")
    assert "charlie" in u.locator("section[aria-labelledby=seats-h]").inner_text()
    shoot(u, f"35-rolled-back-seat-kept-{width}")
