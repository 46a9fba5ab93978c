"""Issue 11, "every rule table once": the kinds a building, building kit, operative or
weapon row may hold are the keys of the seed's tables (campaign/rules/), not a copy."""

from __future__ import annotations

from campaign.rules.tables import BUILDINGS, PILOT_CLASSES, WEAPONS
from economy.models import Building, BuildingKit, Operative, Weapon


def _keys(model, field: str) -> list[str]:
    return [key for key, _label in model._meta.get_field(field).choices]


def test_model_choices_are_the_keys_of_the_rule_tables() -> None:
    assert _keys(Building, "kind") == list(BUILDINGS) == _keys(BuildingKit, "kind")
    assert _keys(Operative, "klass") == list(PILOT_CLASSES)
    assert _keys(Weapon, "weapon") == list(WEAPONS)
    # the seed's 16 buildings (003 "Buildings") and four pilot classes, by their names
    assert len(BUILDINGS) == 16 and dict(Building._meta.get_field("kind").choices)[
        "mine_shaft"] == "Mine Shaft"
    assert set(PILOT_CLASSES) == {"bandit", "scientist", "soldier", "worker"}
