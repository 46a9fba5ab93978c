"""Opening the tactical phase: territories taken, battles formed, order of play."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from battles.models import Battle, BattleParticipant
from battles.services.opening import open_battles
from campaign.models import Event
from campaign.services import clock
from orders.models import Order
from territories.models import Exploration


def enter_tactical(w, capture, *, execute: bool = False):
    with capture(execute=execute):
        clock.advance(campaign_id=w.campaign.pk, by="umpire")
    return w.refresh()


def test_a_lone_force_takes_a_never_owned_territory_and_explores_it(
        world, django_capture_on_commit_callbacks):
    """Seed, "Tactical phase": "If a unit or a group of units move to a territory where no
    enemy unit is present, they take possession of said territory." Exploration: "When you
    take control of a territory no-one owned before, you make an exploration roll"."""
    w = world()
    w.unit("alice", "Beta")
    enter_tactical(w, django_capture_on_commit_callbacks)
    assert w.t["Beta"].owner_id == w.players["alice"].pk
    assert w.t["Beta"].ever_owned
    assert Exploration.objects.filter(territory=w.t["Beta"]).count() == 1
    assert not Battle.objects.exists()
    assert Event.objects.filter(kind="territory_taken", data__territory=w.t["Beta"].pk).exists()


def test_units_on_an_undefended_enemy_territory_take_it_without_exploring(
        world, django_capture_on_commit_callbacks):
    """No enemy unit present: possession changes hands; it was owned before, so no roll."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    w.unit("alice", "Beta")
    enter_tactical(w, django_capture_on_commit_callbacks)
    assert w.t["Beta"].owner_id == w.players["alice"].pk
    assert not Exploration.objects.filter(territory=w.t["Beta"]).exists()
    assert not Battle.objects.exists()


def test_units_of_two_players_on_one_territory_make_one_battle_defended_by_its_owner(
        world, django_capture_on_commit_callbacks):
    """Seed: "If a unit or a group of units move to a territory where there are enemy units,
    they engage into battle"; defenders are placed on the territorial map (the owner's)."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    a = w.unit("alice", "Beta")
    b = w.unit("bob", "Beta")
    cc = w.building("Beta", "command_center", x=3, y=3, active=False)
    enter_tactical(w, django_capture_on_commit_callbacks)
    battle = Battle.objects.get()
    assert battle.status == Battle.Status.QUEUED
    assert battle.defender_id == w.players["bob"].pk
    assert [s["role"] for s in battle.sides] == ["defender", "attacker"]
    assert battle.input["defender"] == str(w.players["bob"].pk)
    assert {u["id"] for units in battle.input["sides"].values() for u in units} == {a.pk, b.pk}
    assert [bl["id"] for bl in battle.input["buildings"]] == [cc.pk]
    assert battle.seed == battle.input["seed"] != 0
    assert set(BattleParticipant.objects.values_list("unit_id", flat=True)) == {a.pk, b.pk}
    assert w.t["Beta"].owner_id == w.players["bob"].pk  # nothing taken before the battle
    opened = Event.objects.get(kind="battle_opened")
    assert opened.visibility == Event.Visibility.PUBLIC
    assert opened.data["sides"][1]["units"][0]["id"] == a.pk  # the units are revealed


def test_the_battle_seed_is_derived_from_the_campaign_seed(world):
    seeds = []
    for seed in (11, 11, 12):
        w = world(seed=seed, owners={"Beta": "bob"})
        w.unit("alice", "Beta")
        w.unit("bob", "Beta")
        w.campaign.phase = "tactical"
        open_battles(campaign=w.campaign)
        seeds.append(Battle.objects.get(campaign=w.campaign).seed)
    assert seeds[0] == seeds[1] != seeds[2]


def test_an_active_command_center_brings_the_defenders_adjacent_units(
        world, django_capture_on_commit_callbacks):
    """Seed, "Command center": "When a territory is attacked, if a Command center has been
    built on it and is activated, it allows the player to move units from an adjacent
    territory to the attacked territory." (R-BJ-3: automatically, every such unit.)"""
    w = world(owners={"Beta": "bob", "Gamma": "bob", "Alpha": "alice"})
    w.building("Beta", "command_center", active=True)
    w.unit("alice", "Beta")
    helper = w.unit("bob", "Gamma")
    enter_tactical(w, django_capture_on_commit_callbacks)
    battle = Battle.objects.get()
    assert battle.defender_id == w.players["bob"].pk
    joined = BattleParticipant.objects.get(unit=helper)
    assert joined.reinforcement and joined.origin_id == w.t["Gamma"].pk


def test_an_inactive_command_center_brings_no_one_and_the_attacker_takes_the_territory(
        world, django_capture_on_commit_callbacks):
    w = world(owners={"Beta": "bob", "Gamma": "bob", "Alpha": "alice"})
    w.building("Beta", "command_center", active=False)
    w.unit("alice", "Beta")
    w.unit("bob", "Gamma")
    enter_tactical(w, django_capture_on_commit_callbacks)
    assert not Battle.objects.exists()
    assert w.t["Beta"].owner_id == w.players["alice"].pk


def test_reinforcement_can_be_switched_off(world, django_capture_on_commit_callbacks):
    w = world(owners={"Beta": "bob", "Gamma": "bob"},
              options={"command_center_reinforcements": "off"})
    w.building("Beta", "command_center", active=True)
    w.unit("alice", "Beta")
    w.unit("bob", "Gamma")
    enter_tactical(w, django_capture_on_commit_callbacks)
    assert not Battle.objects.exists()


def test_without_the_owner_the_player_already_there_defends(
        world, django_capture_on_commit_callbacks):
    """R-BJ-2: on a territory whose owner has no unit there, the player whose units were
    there before the moves defends; buildings fight only for their owner."""
    w = world(owners={"Alpha": "alice", "Epsilon": "bob", "Gamma": "charlie"})
    w.building("Gamma", "turret", active=True)
    stayer = w.unit("bob", "Gamma")
    mover = w.unit("alice", "Gamma")
    Order.objects.create(campaign=w.campaign, turn=1, player=w.players["alice"], unit=mover,
                         origin=w.t["Beta"], destination=w.t["Gamma"],
                         status=Order.Status.EXECUTED)
    enter_tactical(w, django_capture_on_commit_callbacks)
    battle = Battle.objects.get()
    assert battle.defender_id == w.players["bob"].pk
    assert battle.input["buildings"] == []
    assert stayer.pk in [u["id"] for u in battle.input["sides"][str(w.players["bob"].pk)]]


def test_battles_are_ordered_by_a_seeded_lot_then_players_in_turn(
        world, django_capture_on_commit_callbacks):
    """Seed: "the players choose randomly one of them, and this player will decide which
    battle will be played first. Then the next players chooses the next battle" (R-BJ-4)."""
    w = world(owners={"Beta": "bob", "Delta": "charlie"})
    for where in ("Beta", "Delta"):
        w.unit("alice", where)
    w.unit("bob", "Beta")
    w.unit("charlie", "Delta")
    enter_tactical(w, django_capture_on_commit_callbacks)
    battles = list(Battle.objects.order_by("order"))
    assert [b.order for b in battles] == [1, 2]
    event = Event.objects.get(kind="battle_order")
    assert [p["territory"] for p in event.data["picks"]] == [b.territory_id for b in battles]
    first = event.data["first_picker"]
    assert first in {p.pk for p in w.players.values()}
    assert event.data["picks"][0]["player"] == first


def test_a_character_fights_at_most_one_battle_per_turn(world):
    """Seed: "one character can only participate in one battle each strategic turn" — a
    database invariant, and a reinforcement wanted by two battles joins only the first."""
    w = world(owners={"Beta": "bob", "Gamma": "bob", "Delta": "bob"})
    for where in ("Beta", "Delta"):
        w.building(where, "command_center", active=True)
        w.unit("alice", where)
    w.unit("bob", "Delta")
    shared = w.unit("bob", "Gamma")
    w.campaign.phase = "tactical"
    open_battles(campaign=w.campaign)
    assert BattleParticipant.objects.filter(unit=shared).count() == 1
    other = Battle.objects.exclude(pk=BattleParticipant.objects.get(unit=shared).battle_id)
    with pytest.raises(IntegrityError):
        BattleParticipant.objects.create(battle=other.get(), turn=1, unit=shared,
                                         player=w.players["bob"])


def test_opening_twice_opens_nothing_more(world):
    w = world(owners={"Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    w.campaign.phase = "tactical"
    assert len(open_battles(campaign=w.campaign)) == 1
    assert open_battles(campaign=w.campaign) == []
    assert Battle.objects.count() == 1


def test_unpiloted_vehicles_do_not_make_a_battle(world, django_capture_on_commit_callbacks):
    """R-BJ-1: a vehicle without a pilot does not fight."""
    w = world(owners={"Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta", klass=None)
    enter_tactical(w, django_capture_on_commit_callbacks)
    assert not Battle.objects.exists()
    assert w.t["Beta"].owner_id == w.players["alice"].pk


def test_the_campaign_settings_choose_the_engine_options(world):
    """R-BAT-3, R-BAT-4, R-BAT-32 are per-campaign settings: the battle's engine input
    carries the campaign's round limit, stalemate rounds and first player."""
    w = world(owners={"Beta": "bob"}, options={"battle_max_rounds": 50,
                                               "battle_stalemate_rounds": 0,
                                               "battle_first_player": "attacker"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    w.campaign.phase = "tactical"
    open_battles(campaign=w.campaign)
    battle = Battle.objects.get(campaign=w.campaign)
    assert battle.input["options"] == {"max_rounds": 50, "stalemate_rounds": 0,
                                       "first_player": "attacker",
                                       "force_field_projectile": "refused"}


def test_a_campaign_refuses_an_engine_setting_out_of_range(uma, make_campaign):
    from campaign.errors import InvalidInput

    with pytest.raises(InvalidInput, match="battle_max_rounds' must be at least 10"):
        make_campaign(uma, options={"battle_max_rounds": 1})
