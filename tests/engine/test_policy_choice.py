"""Policies plug in by name per side (`policies_by_side`): "default" or "hold"."""

from __future__ import annotations

import pytest

from battles.rulesets.unlimit3d8.engine.policy import DefaultPolicy, HoldPolicy, policies_by_side


def test_each_side_gets_the_named_policy_and_the_default_otherwise():
    factory = policies_by_side({"blue": "hold"})
    assert isinstance(factory("blue", {}), HoldPolicy)
    assert isinstance(factory("red", {}), DefaultPolicy)


def test_an_unknown_policy_is_refused_with_the_known_names():
    with pytest.raises(ValueError, match="unknown policy 'berserk'; known: default, hold"):
        policies_by_side({"red": "berserk"})
