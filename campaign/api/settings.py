"""The settings body (`PATCH /api/campaigns/{id}/settings/`) as a serializer: one field per
campaign option, built from the one option table (`campaign.options.OPTIONS`), each
cleaned by its own option. So a wrong value is a 400 naming its field, an unknown setting
is refused, and the schema lists every setting with its help text."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaign.options import OPTIONS, Option


class OptionField(serializers.Field):
    """One campaign option, cleaned by `Option.clean` (its type, range, choices and
    validator); the refusal is the option's own sentence."""

    def __init__(self, option: Option, **kwargs: Any) -> None:
        self.option = option
        super().__init__(required=False, help_text=option.help, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        try:
            return self.option.clean(data)
        except ValueError as exc:
            # The option's sentence names it ("'max_players' must be at least 2."); the
            # field already does.
            text = str(exc).removeprefix(f"'{self.option.key}' ")
            raise serializers.ValidationError(text[:1].upper() + text[1:]) from None

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(OpenApiTypes.BOOL)
class YesNoOption(OptionField):
    pass


@extend_schema_field(OpenApiTypes.INT)
class WholeNumberOption(OptionField):
    pass


@extend_schema_field(OpenApiTypes.STR)
class TextOption(OptionField):
    pass


@extend_schema_field(OpenApiTypes.OBJECT)
class ObjectOption(OptionField):
    pass


_KINDS: dict[type, type[OptionField]] = {bool: YesNoOption, int: WholeNumberOption,
                                         str: TextOption, dict: ObjectOption}


class _SettingsBase(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {key: ["No such setting (GET /api/rulesets/ and the campaign's settings "
                           "list them)."] for key in unknown})
        return super().to_internal_value(data)


def _settings_serializer() -> type[serializers.Serializer]:
    fields = {key: _KINDS.get(type(option.default), OptionField)(option)
              for key, option in OPTIONS.items()}
    return type("SettingsIn", (_SettingsBase,), {
        "__doc__": "Any of the campaign's settings, each with its own value type.",
        "__module__": __name__, **fields})


#: The settings a PATCH may change (all optional).
SettingsIn = _settings_serializer()
