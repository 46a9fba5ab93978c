"""A battle's mode is one of the campaign option `battle_mode`'s choices (Battle.Mode)."""

from __future__ import annotations

from battles.models import Battle
from campaign.options import OPTIONS


def test_battle_modes_are_the_options_choices():
    option = OPTIONS["battle_mode"]
    assert set(Battle.Mode.values) == set(option.choices)
    assert option.default == Battle.Mode.ENGINE
    assert Battle._meta.get_field("mode").choices == Battle.Mode.choices


def test_an_unknown_mode_fails_model_validation():
    field = Battle._meta.get_field("mode")
    try:
        field.clean("skirmish", None)
    except Exception as exc:  # django.core.exceptions.ValidationError
        assert "skirmish" in str(exc)
    else:
        raise AssertionError("a mode outside Battle.Mode was accepted")
