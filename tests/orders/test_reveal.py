"""The reveal at the start of the tactical phase (seed, "Move Phase" and "Tactical
phase")."""

from __future__ import annotations

import pytest

from campaign.models import Event, Phase
from orders.models import Order
from orders.services import sealing as orders
from tests.orders.conftest import advance_to, make_unit

pytestmark = pytest.mark.django_db


def announcements(world) -> list[dict]:
    event = Event.objects.filter(campaign=world.campaign, kind="moves_revealed").last()
    return event.data["announcements"]


def test_moves_onto_land_not_owned_are_announced_by_territory_and_player(world):
    """"You only have to announce which territories you move if your units finish their
    move on a territory that isn't yours" -- the entry names territory and player,
    "and don't have to reveal which of the units was moved": no unit, no count."""
    orders.order_submit(player=world.alice, unit_id=world.a1.pk,
                        destination_id=world.t["Gamma"].pk)
    orders.order_submit(player=world.alice, unit_id=world.a2.pk,
                        destination_id=world.t["Gamma"].pk)
    advance_to(world, Phase.TACTICAL)
    assert announcements(world) == [{"territory": world.t["Gamma"].pk,
                                     "territory_name": "Gamma", "player": world.alice.pk}]
    event = Event.objects.get(kind="moves_revealed")
    assert event.visibility == "public" and not event.sealed


def test_moves_inside_own_territories_are_never_announced(world):
    """Moving Beta -> Alpha stays inside alice's land: no announcement."""
    orders.order_submit(player=world.alice, unit_id=world.a2.pk,
                        destination_id=world.t["Alpha"].pk)
    advance_to(world, Phase.TACTICAL)
    assert announcements(world) == []
    world.a2.refresh_from_db()
    assert world.a2.territory_id == world.t["Alpha"].pk


def test_a_move_onto_enemy_land_is_announced_and_units_are_relocated(world):
    """Both players move onto land they do not own; every unit ends where ordered
    (moves are simultaneous: ownership is read before anything moves)."""
    orders.order_submit(player=world.alice, unit_id=world.a2.pk,
                        destination_id=world.t["Gamma"].pk)
    orders.order_submit(player=world.bob, unit_id=world.b1.pk,
                        destination_id=world.t["Gamma"].pk)
    advance_to(world, Phase.TACTICAL)
    assert {(a["territory"], a["player"]) for a in announcements(world)} == {
        (world.t["Gamma"].pk, world.alice.pk), (world.t["Gamma"].pk, world.bob.pk)}
    world.refresh()
    assert world.a2.territory_id == world.b1.territory_id == world.t["Gamma"].pk
    assert set(Order.objects.values_list("status", "announced")) == {("executed", True)}


def test_orders_are_closed_by_the_reveal(world):
    orders.order_submit(player=world.alice, unit_id=world.a1.pk,
                        destination_id=world.t["Beta"].pk)
    advance_to(world, Phase.TACTICAL)
    assert Order.objects.get().status == Order.Status.EXECUTED


def test_an_order_for_a_unit_destroyed_meanwhile_is_void(world):
    orders.order_submit(player=world.alice, unit_id=world.a1.pk,
                        destination_id=world.t["Gamma"].pk)
    world.a1.status = "destroyed"
    world.a1.save()
    advance_to(world, Phase.TACTICAL)
    assert Order.objects.get().status == Order.Status.VOID
    assert announcements(world) == []


def test_the_reveal_runs_before_the_battles_hook():
    """The battles app finds the units already relocated: the apps register their clock
    hooks in their connections.py with an explicit order (the core imports none of them)."""
    from campaign.services.clock import phase_entered, phase_left

    names = [c.name for c in phase_entered.connections(Phase.TACTICAL)]
    assert names == ["orders.services.reveal.reveal_and_move",
                     "battles.services.opening.open_battles",
                     "campaign.services.absence.stand_in_plays"]
    assert [c.name for c in phase_left.connections(Phase.ACTIVITY)] == [
        "economy.services.production.production_run",
        "campaign.services.absence.record_deadlines"]
    assert [c.name for c in phase_left.connections(Phase.TACTICAL)] == [
        "battles.services.jobs.refuse_while_battles_unfinished",
        "campaign.services.notifications.results_in",
        "campaign.services.snapshots.snapshot_turn",
        "campaign.services.absence.record_deadlines"]


def test_off_map_unit_with_no_territory_left_stays_off_the_map(world):
    for name in ("Alpha", "Beta"):
        world.t[name].owner = None
        world.t[name].save()
    lost = make_unit(world.alice, None, status="off_map")
    advance_to(world, Phase.TACTICAL)
    lost.refresh_from_db()
    assert lost.status == "off_map" and lost.territory_id is None
