"""Issue 16, the battle report: who fought where and why, each side's units with their
names, pilots, fates and retreats, and a narrative, in names a player knows."""

from __future__ import annotations

import pytest

from battles.models import Battle
from battles.services.report import battle_report
from economy.models import Operative
from tests.battles.test_recording import open_one, run_with, side

pytestmark = pytest.mark.django_db


def test_an_unlimit3d8_report_names_pilots_losses_and_retreats(world):
    w = world(owners={"Alpha": "alice", "Beta": "bob", "Gamma": "bob"})
    attacker = w.unit("alice", "Beta", klass="bandit", level=3)
    Operative.objects.filter(pk=attacker.pilot_id).update(name="Vex")
    defender = w.unit("bob", "Beta")
    battle = open_one(w)
    assert battle_report(battle) is None  # not before it is recorded
    run_with(battle, winner=side(w, "alice"), fates={defender.pk: ("destroyed", 20, 0)})
    battle = Battle.objects.get(pk=battle.pk)
    report = battle_report(battle)
    assert report is not None
    sides = {s["username"]: s for s in report["sides"]}
    (mine,) = sides["alice"]["units"]
    assert mine["pilot"] == {"id": attacker.pilot_id, "name": "Vex", "class": "bandit",
                             "level": mine["pilot"]["level"]}
    assert mine["fate"] == "intact" and mine["hit_points_left"] > 0
    (theirs,) = sides["bob"]["units"]
    assert theirs["fate"] == "destroyed"
    assert report["owner_changed"] and report["winner"]["username"] == "alice"
    text = report["narrative"]
    assert "alice attacked Beta, defended by bob (its owner)." in text
    assert "alice won and took the territory" in text
    assert f"bob lost {theirs['name']}" in text
    from battles.services.report import report_markdown

    markdown = report_markdown(battle, report)
    assert markdown.startswith("## Battle of Beta, turn 1\n\n" + text)
    assert "pilot Vex (bandit, level" in markdown
