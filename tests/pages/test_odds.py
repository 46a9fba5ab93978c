"""The odds section of the orders page: ask for a Monte Carlo estimate of a battle,
then watch the job (htmx polling) until the result shows."""

from __future__ import annotations

import pytest

from battles.models import OddsRequest
from economy.models import Operative, Unit
from territories.models import Territory

pytestmark = pytest.mark.django_db


def _piloted_unit(campaign, user) -> Unit:
    seat = campaign.players.get(user=user)
    home = Territory.objects.get(campaign=campaign, owner=seat)
    pilot = Operative.objects.create(player=seat, territory=home, klass="soldier", name="Vex")
    return Unit.objects.create(player=seat, territory=home, model="golem", pilot=pilot)


def test_request_odds_then_poll_until_the_result_shows(web_client, running_campaign, alice,
                                                       bob) -> None:
    """R-BJ-8: the estimate is a background job over the player's own units and the
    enemy they describe."""
    from battles.services.odds import run_odds_job

    unit = _piloted_unit(running_campaign, alice)
    target = Territory.objects.get(campaign=running_campaign, owner__user=bob)
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}"
    page = client.post(base + "/odds/", {
        "units": [unit.pk], "territory": target.pk, "simulations": 5,
        "enemy_model": "golem", "enemy_class": "soldier", "enemy_level": 1,
        "enemy_weapon": "machine_gun"}, follow=True)
    assert b"Odds requested" in page.content
    item = OddsRequest.objects.get()
    assert (item.units, item.simulations, item.territory_id) == ([unit.pk], 5, target.pk)
    assert b'hx-get="' + f"{base}/odds/{item.pk}/".encode() in page.content
    assert run_odds_job(odds_id=item.pk) == "finished"
    done = client.get(f"{base}/odds/{item.pk}/", HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and b"<html" not in done.content
    assert b"You win:" in done.content and b"hx-get" not in done.content


def test_odds_without_a_known_enemy_are_refused(web_client, running_campaign, alice, bob
                                                ) -> None:
    unit = _piloted_unit(running_campaign, alice)
    target = Territory.objects.get(campaign=running_campaign, owner__user=bob)
    page = web_client(alice).post(f"/campaigns/{running_campaign.pk}/odds/", {
        "units": [unit.pk], "territory": target.pk, "simulations": 5}, follow=True)
    assert b'class="error"' in page.content and b"No enemy is known" in page.content
    assert not OddsRequest.objects.exists()


def test_another_players_odds_are_a_404(web_client, running_campaign, alice, bob) -> None:
    from battles.services.odds import request_odds

    unit = _piloted_unit(running_campaign, alice)
    seat = running_campaign.players.get(user=alice)
    seat.campaign = running_campaign
    item = request_odds(player=seat, territory_id=unit.territory_id, unit_ids=[unit.pk],
                        enemy=[{"model": "golem"}], simulations=3)
    assert web_client(bob).get(
        f"/campaigns/{running_campaign.pk}/odds/{item.pk}/").status_code == 404


def test_orders_page_with_odds_has_bounded_queries(web_client, running_campaign, alice,
                                                   django_assert_max_num_queries) -> None:
    from battles.services.odds import request_odds, run_odds_job

    seat = running_campaign.players.get(user=alice)
    seat.campaign = running_campaign
    units = [_piloted_unit(running_campaign, alice) for _ in range(3)]
    for _ in range(3):
        item = request_odds(player=seat, territory_id=units[0].territory_id,
                            unit_ids=[u.pk for u in units], enemy=[{"model": "golem"}],
                            simulations=2)
        run_odds_job(odds_id=item.pk)
    client = web_client(alice)
    with django_assert_max_num_queries(20):
        page = client.get(f"/campaigns/{running_campaign.pk}/orders/")
    assert page.status_code == 200 and b"Estimate the odds" in page.content
