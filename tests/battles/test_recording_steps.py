"""Issue 31, item 6: a battle's recording runs its steps in one stated order, every effect
a ruleset declares has a handler, and each handler's rows are the owning app's."""

from __future__ import annotations

import inspect
import re

from battles.rulesets.registry import all_rulesets
from battles.services import recording, unlimit3d8_effects
from battles.services.effects import handled_kinds


def test_the_steps_run_in_the_order_stated_once():
    names = [step.__name__ for step in recording.STEPS]
    assert names == ["_lock_the_field", "_take_the_field", "_settle_the_units",
                     "_retreat_the_unpiloted", "_explore", "_save_units_and_pilots",
                     "_ruleset_effects", "_buildings"]
    # `_apply` runs STEPS and nothing else changes rows: no step is called by name there.
    source = inspect.getsource(recording._apply)
    assert "for step in STEPS" in source
    assert not any(f"{name}(" in source for name in names)


def test_every_declared_effect_kind_has_a_handler():
    kinds = set(handled_kinds())
    for ruleset in all_rulesets():
        missing = set(ruleset.effects) - kinds
        assert not missing, (ruleset.name, missing)


def test_recording_writes_no_unit_field_itself():
    """The economy owns the units' and pilots' rows: recording calls its functions."""
    source = inspect.getsource(recording)
    writes = re.findall(r"\b(?:unit|pilot)\.\w+ = ", source)
    assert not writes, writes
    handlers = inspect.getsource(unlimit3d8_effects)
    assert ".save(" not in handlers and "select_for_update" not in handlers \
        and ".objects" not in handlers
