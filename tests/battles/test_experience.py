"""XP and levels per class (seed, "Level and experience" and each class's bonus list)."""

from __future__ import annotations

import pytest

from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.services import jobs
from battles.services.experience import battle_xp_kinds, bonus_kinds
from battles.services.opening import open_battles
from campaign.models import Event
from tests.battles.conftest import fake_result


def fight(world, klass, events, *, xp=0, level=1, fate="intact"):
    w = world(owners={"Beta": "bob"})
    hero = w.unit("alice", "Beta", klass=klass, xp=xp, level=level)
    w.unit("bob", "Beta")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)

    def resolver(battle_input: BattleInput):
        return fake_result(battle_input, winner=str(w.players["alice"].pk),
                           fates={hero.pk: (fate, 0, 0)} if fate != "intact" else None,
                           events=[(hero.pk, k) for k in events])

    jobs.run_battle_job(battle_id=battle.pk, resolver=resolver)
    hero.pilot.refresh_from_db()
    return hero.pilot


def test_surviving_a_battle_earns_one_xp(world):
    """Seed: "After surviving a battle, a character is awarded one Experience Point (XP)"."""
    assert fight(world, "worker", []).xp == 1


@pytest.mark.parametrize(("klass", "events", "expected"), [
    # "A soldier gains one extra XP if: They destroyed an enemy unit during a battle (this XP
    # can only be earned once per battle); They destroyed an enemy building during a battle
    # (this XP can only be earned once per battle)"
    ("soldier", ["destroy_unit", "destroy_unit", "destroy_building"], 3),
    # "A Bandit gains one extra XP if: They manage to steal a cargo of any kind. They manage
    # to destroy one enemy unit."
    ("bandit", ["steal_cargo", "destroy_unit"], 3),
    # "A Worker gains one extra XP if: They manage to repair another unit"
    ("worker", ["repair_other_unit"], 2),
    # "A scientist gains one extra XP if: They manage to succeed in a piracy attempt"
    ("scientist", ["piracy_success"], 2),
    # Another class's deed earns nothing: a worker destroying a unit, a soldier repairing.
    ("worker", ["destroy_unit"], 1),
    ("soldier", ["repair_other_unit", "piracy_success"], 1),
])
def test_each_class_earns_its_own_bonus(world, klass, events, expected):
    assert fight(world, klass, events).xp == expected


def test_the_bonus_lists_come_from_the_rules_tables():
    assert bonus_kinds("soldier") == {"destroy_unit", "destroy_building"}
    assert bonus_kinds("bandit") == {"steal_cargo", "destroy_unit"}
    assert bonus_kinds("worker") >= {"repair_other_unit"}
    assert battle_xp_kinds(class_key="soldier", events=["destroy_unit"] * 3,
                           survived=False) == ["destroy_unit"]


def test_reaching_five_xp_raises_the_level_with_the_new_skills(world):
    """Seed: "Level 1 2 3 4 5 6 7 8 / XP 5 10 15 20 25 30 35 40" (R-TAB-2: 5 XP leave
    level 1) and the soldier's level-2 line "2 11 9 8 8 1"."""
    pilot = fight(world, "soldier", ["destroy_unit"], xp=3)
    assert (pilot.xp, pilot.level) == (5, 2)
    event = Event.objects.get(kind="xp_awarded", data__operative=pilot.pk)
    assert event.visibility == Event.Visibility.PRIVATE
    assert event.data["level_up"] == {"from": 1, "to": 2, "skills": {
        "pilot": 11, "fight": 9, "tech": 8, "will": 8, "init": 1}}


def test_just_below_a_threshold_no_level_is_gained(world):
    pilot = fight(world, "worker", [], xp=8, level=2)
    assert (pilot.xp, pilot.level) == (9, 2)
