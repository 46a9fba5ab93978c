"""Sealed battle plans through the API (issue 29, API.md "Battle plans (wave 3)").

Seed, "Tactical phase": units fight "until all the units of one side are either destroyed
or retreat to an adjacent territory": when to retreat, and how to fight, is the player's
call, sealed before the battle like the orders.
"""

from __future__ import annotations

import pytest

from battles.models import Battle
from campaign.models import Event, Phase
from orders.models import BattlePlan
from tests.orders.conftest import advance_to, make_unit, set_phase

pytestmark = pytest.mark.django_db

WITHDRAW = {"stance": "withdraw", "retreat_at": 40, "focus": "weakest"}


def url(world, tail: str) -> str:
    return f"/api/campaigns/{world.campaign.pk}/{tail}"


def test_a_player_seals_a_plan_where_they_hold_and_reads_only_their_own(world, client_for):
    alice, bob = client_for(world.users["alice"]), client_for(world.users["bob"])
    r = alice.put(url(world, f"plans/{world.t['Alpha'].pk}/"), WITHDRAW, format="json")
    assert r.status_code == 200, r.json()
    assert r.json() == {"territory": world.t["Alpha"].pk, "turn": world.campaign.turn,
                        **WITHDRAW}
    assert alice.get(url(world, "plans/")).json() == [r.json()]
    assert bob.get(url(world, "plans/")).json() == []


def test_a_plan_needs_only_a_stance_and_replacing_it_keeps_one(world, client_for):
    alice = client_for(world.users["alice"])
    target = url(world, f"plans/{world.t['Beta'].pk}/")
    assert alice.put(target, {"stance": "hold"}, format="json").json()["retreat_at"] == 100
    assert alice.put(target, {"stance": "attack", "focus": "strongest"},
                     format="json").status_code == 200
    plan = BattlePlan.objects.get()
    assert (plan.stance, plan.focus, plan.retreat_at) == ("attack", "strongest", 100)


def test_a_plan_where_the_player_sent_an_order_is_accepted(world, client_for):
    alice = client_for(world.users["alice"])
    sent = alice.post(url(world, "orders/"), {"unit": world.a1.pk,
                                              "destination": world.t["Gamma"].pk},
                      format="json")
    assert sent.status_code == 201
    assert alice.put(url(world, f"plans/{world.t['Gamma'].pk}/"), WITHDRAW,
                     format="json").status_code == 200


@pytest.mark.parametrize("body, field", [
    ({"stance": "charge"}, "stance"),
    ({"stance": "hold", "retreat_at": 120}, "retreat_at"),
    ({"stance": "hold", "retreat_at": -5}, "retreat_at"),
    ({"stance": "hold", "focus": "tallest"}, "focus"),
    ({"retreat_at": 50}, "stance"),
    ({"stance": "hold", "retreat_at": "half"}, "retreat_at"),
])
def test_a_malformed_plan_is_refused_with_the_field_named_and_nothing_changes(
        world, client_for, body, field):
    alice = client_for(world.users["alice"])
    r = alice.put(url(world, f"plans/{world.t['Alpha'].pk}/"), body, format="json")
    assert r.status_code == 400
    assert field in r.json()["fields"]
    assert not BattlePlan.objects.exists()


def test_a_territory_where_the_player_has_nothing_is_refused(world, client_for):
    """Delta is bob's, alice has no unit there and no order to it."""
    alice = client_for(world.users["alice"])
    r = alice.put(url(world, f"plans/{world.t['Delta'].pk}/"), WITHDRAW, format="json")
    assert r.status_code == 400
    assert r.json()["code"] == "nothing_there"
    assert "You have nothing at Delta" in r.json()["detail"]
    assert not BattlePlan.objects.exists()


def test_an_unknown_territory_is_not_found(world, client_for):
    alice = client_for(world.users["alice"])
    r = alice.put(url(world, "plans/999999/"), WITHDRAW, format="json")
    assert r.status_code == 404
    assert not BattlePlan.objects.exists()


def test_plans_are_given_and_withdrawn_in_the_move_phase_only(world, client_for):
    alice = client_for(world.users["alice"])
    target = url(world, f"plans/{world.t['Alpha'].pk}/")
    assert alice.put(target, WITHDRAW, format="json").status_code == 200
    set_phase(world.campaign, Phase.ACTIVITY)
    r = alice.put(target, {"stance": "hold"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "wrong_phase"
    assert alice.delete(target).status_code == 409
    assert BattlePlan.objects.get().stance == "withdraw"


def test_withdrawing_a_plan(world, client_for):
    alice = client_for(world.users["alice"])
    target = url(world, f"plans/{world.t['Alpha'].pk}/")
    alice.put(target, WITHDRAW, format="json")
    assert alice.delete(target).status_code == 204
    assert not BattlePlan.objects.exists()
    again = alice.delete(target)
    assert again.status_code == 404


def test_the_standing_plan(world, client_for):
    alice = client_for(world.users["alice"])
    r = alice.put(url(world, "plans/default/"), {"stance": "hold", "retreat_at": 60},
                  format="json")
    assert r.status_code == 200
    assert r.json()["territory"] is None and r.json()["turn"] is None
    assert alice.get(url(world, "plans/")).json() == [r.json()]
    assert alice.delete(url(world, "plans/default/")).status_code == 204
    assert alice.delete(url(world, "plans/default/")).status_code == 404


def test_the_umpire_has_no_plans_to_give(world, client_for):
    uma = client_for(world.users["uma"])
    r = uma.put(url(world, f"plans/{world.t['Alpha'].pk}/"), WITHDRAW, format="json")
    assert r.status_code == 403
    assert uma.get(url(world, "plans/")).json() == []
    assert not BattlePlan.objects.exists()


def test_sealing_a_plan_writes_nothing_to_the_journal(world, client_for):
    before = Event.objects.count()
    alice = client_for(world.users["alice"])
    alice.put(url(world, f"plans/{world.t['Alpha'].pk}/"), WITHDRAW, format="json")
    alice.put(url(world, "plans/default/"), {"stance": "hold"}, format="json")
    assert Event.objects.count() == before


def _meet_at_gamma(world, client_for):
    """alice (Alpha) and bob (Epsilon) both order a unit to Gamma."""
    alice, bob = client_for(world.users["alice"]), client_for(world.users["bob"])
    b2 = make_unit(world.bob, world.t["Delta"])
    assert alice.post(url(world, "orders/"), {"unit": world.a1.pk,
                                              "destination": world.t["Gamma"].pk},
                      format="json").status_code == 201
    assert bob.post(url(world, "orders/"), {"unit": b2.pk,
                                            "destination": world.t["Gamma"].pk},
                    format="json").status_code == 201
    return alice, bob


def test_the_battle_is_fought_with_the_sealed_plans_and_shows_them_once_over(
        world, client_for):
    alice, bob = _meet_at_gamma(world, client_for)
    gamma = world.t["Gamma"].pk
    assert alice.put(url(world, f"plans/{gamma}/"), WITHDRAW, format="json").status_code == 200
    assert bob.put(url(world, "plans/default/"), {"stance": "hold"},
                   format="json").status_code == 200
    advance_to(world, Phase.TACTICAL)
    battle = Battle.objects.get(territory_id=gamma)
    assert battle.input["plans"] == {
        str(world.alice.pk): WITHDRAW,
        str(world.bob.pk): {"stance": "hold", "retreat_at": 100, "focus": "nearest"}}
    detail = alice.get(url(world, f"battles/{battle.pk}/")).json()
    if battle.status != Battle.Status.FINISHED:
        assert "plans" not in detail
        from battles.services.jobs import run_battle_job

        assert run_battle_job(battle_id=battle.pk) == "recorded"
        detail = alice.get(url(world, f"battles/{battle.pk}/")).json()
    assert {p["player"]: p["stance"] for p in detail["plans"]} == {
        world.alice.pk: "withdraw", world.bob.pk: "hold"}
    sentences = " ".join(p["sentence"] for p in detail["report"]["plans"])
    assert "alice planned to withdraw at once" in sentences
    assert "bob planned to hold its ground" in sentences


def test_a_battle_without_plans_carries_none(world, client_for):
    _meet_at_gamma(world, client_for)
    advance_to(world, Phase.TACTICAL)
    battle = Battle.objects.get(territory_id=world.t["Gamma"].pk)
    assert "plans" not in battle.input


# --- the orders page -------------------------------------------------------------------


def _plan(**fields: object) -> dict[str, object]:
    return {f"plan-{k}": v for k, v in fields.items()}


def _page_client(client, user):
    client.force_login(user)
    return client


def test_the_orders_page_seals_a_plan_and_shows_it_only_to_its_player(world, client):
    alice = _page_client(client, world.users["alice"])
    page = alice.get(f"/campaigns/{world.campaign.pk}/orders/").content.decode()
    assert "Battle plans" in page and "Seal this plan" in page
    section = page[page.index('id="plans-h"'):]
    section = section[:section.index("</section>")]
    assert ">Alpha<" in section and ">Delta<" not in section  # where alice may fight only
    r = alice.post(f"/campaigns/{world.campaign.pk}/orders/plans/",
                   _plan(where=world.t["Beta"].pk, stance="hold", retreat_at=50,
                         focus="weakest"))
    assert r.status_code == 302
    plan = BattlePlan.objects.get()
    assert (plan.territory_id, plan.stance, plan.retreat_at, plan.focus) == (
        world.t["Beta"].pk, "hold", 50, "weakest")
    page = alice.get(f"/campaigns/{world.campaign.pk}/orders/").content.decode()
    assert "withdraw after losing 50% of the force" in page
    alice.logout()
    bob = _page_client(client, world.users["bob"])
    page = bob.get(f"/campaigns/{world.campaign.pk}/orders/").content.decode()
    assert "You have no battle plans" in page
    assert "50% of the force" not in page


def test_a_bad_plan_on_the_page_says_why_and_seals_nothing(world, client):
    alice = _page_client(client, world.users["alice"])
    r = alice.post(f"/campaigns/{world.campaign.pk}/orders/plans/",
                   _plan(where=world.t["Delta"].pk, stance="hold", retreat_at=50,
                         focus="weakest"), follow=True)
    assert "For the battle at" in r.content.decode()
    r = alice.post(f"/campaigns/{world.campaign.pk}/orders/plans/",
                   _plan(where="standing", stance="hold", retreat_at=120, focus="weakest"),
                   follow=True)
    assert "Withdraw:" in r.content.decode()
    assert not BattlePlan.objects.exists()


def test_the_standing_plan_from_the_page_and_withdrawing_it(world, client):
    alice = _page_client(client, world.users["alice"])
    alice.post(f"/campaigns/{world.campaign.pk}/orders/plans/",
               _plan(where="standing", stance="withdraw", retreat_at=100, focus="nearest"))
    assert BattlePlan.objects.get().territory_id is None
    alice.post(f"/campaigns/{world.campaign.pk}/orders/plans/standing/withdraw/")
    assert not BattlePlan.objects.exists()
