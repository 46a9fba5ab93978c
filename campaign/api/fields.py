"""Serializer fields as strict as the services they feed: JSON text is a string and a
whole number is a JSON integer (DRF's own fields would turn 42 into "42" and "5" into 5,
which the game has always refused)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class TextField(serializers.CharField):
    """A JSON string (a number or a boolean is refused, not turned into text)."""

    default_error_messages = {"invalid": "Must be text."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class WholeNumberField(serializers.IntegerField):
    """A JSON integer (true, 1.0 and "1" are refused)."""

    default_error_messages = {"invalid": "Must be a whole number."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class YesNoField(serializers.BooleanField):
    """A JSON true or false ("yes", 1 and "true" are refused)."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
