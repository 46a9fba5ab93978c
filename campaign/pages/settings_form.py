"""The umpire's settings form, generated from the one declaration of each setting
(`campaign.options.OPTIONS`) and of each ruleset's own options (`RulesetInfo.option_specs`):
labels, help text, choices and bounds are read from there, never repeated here.

Durations are entered in hours or days and stored in seconds; the ruleset's options are
one field each instead of a JSON object. Every value still goes through `Option.clean`
and the ruleset's own check, so the form refuses exactly what the API refuses.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django import forms

from campaign import rulesets
from campaign.options import OPTIONS, Option

#: what a duration is entered in: (unit, label, seconds)
UNITS: tuple[tuple[str, str, int], ...] = (("hours", "hours", 3600), ("days", "days", 86400))
_SECONDS = {unit: seconds for unit, _, seconds in UNITS}
RULESET_PREFIX = "ro__"


def _label(key: str) -> str:
    text = key.replace("_", " ")
    return text[:1].upper() + text[1:]


def _as_amount(seconds: int) -> tuple[Decimal, str]:
    """The clearest way to show `seconds`: whole days if it is, else hours."""
    if seconds and seconds % 86400 == 0:
        return Decimal(seconds // 86400), "days"
    return (Decimal(seconds) / 3600).quantize(Decimal("0.01")).normalize(), "hours"


def is_duration(option: Option) -> bool:
    return option.key.endswith("_seconds")


class SettingsForm(forms.Form):
    """One field per campaign setting (two for a duration: amount and unit) and one per
    option of the campaign's ruleset. `changes()` gives what differs from `current`."""

    def __init__(self, *args: Any, current: dict[str, Any], running: bool, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.current = current
        self.running = running
        self.ruleset_info = rulesets.get(str(current.get("ruleset")))
        for key, option in OPTIONS.items():
            if key == "ruleset_options":
                continue
            self._add(key, option)
        for spec in self.ruleset_specs():
            self._add_ruleset_option(spec)

    # --- building the fields -----------------------------------------------------------

    def _add(self, key: str, option: Option) -> None:
        value = self.current[key]
        label = option.label or _label(key)
        if is_duration(option):
            amount, unit = _as_amount(int(value))
            bound = Decimal(option.maximum or 0) / 3600
            self.fields[key] = forms.DecimalField(
                label=label, help_text=option.help,
                min_value=Decimal(0), max_value=bound, decimal_places=2, initial=amount)
            self.fields[f"{key}__unit"] = forms.ChoiceField(
                label=f"{label}: unit",
                choices=[(u, text) for u, text, _ in UNITS], initial=unit)
            return
        if isinstance(option.default, bool):
            field: forms.Field = forms.BooleanField(required=False, initial=value)
        elif key == "ruleset":
            field = forms.ChoiceField(choices=[(r.name, r.title)
                                               for r in rulesets.all_rulesets()],
                                      initial=value, disabled=self.running)
        elif option.choices:
            field = forms.ChoiceField(choices=[(c, _label(str(c))) for c in option.choices],
                                      initial=value)
        elif isinstance(option.default, int):
            field = forms.IntegerField(min_value=option.minimum, max_value=option.maximum,
                                       initial=value)
        else:
            field = forms.CharField(required=False, initial=value, max_length=500)
        field.label = label
        field.help_text = option.help + (f" ({option.ruling})" if option.ruling else "")
        self.fields[key] = field

    def ruleset_specs(self) -> list[rulesets.OptionSpec]:
        """The campaign's ruleset's options a form can set (lists of imported data are
        set through the API)."""
        if self.ruleset_info is None:
            return []
        return [s for s in self.ruleset_info.option_specs if not isinstance(s.default, list)]

    def _add_ruleset_option(self, spec: rulesets.OptionSpec) -> None:
        stored = self.current.get("ruleset_options") or {}
        value = stored.get(spec.key, spec.default)
        help_text = spec.help + (f" ({spec.ruling})" if spec.ruling else "")
        field: forms.Field
        if isinstance(spec.default, bool):
            field = forms.BooleanField(required=False, initial=value)
        elif spec.choices:
            # a choice is read back as a value of its default's type
            kind: Callable[[str], Any] = type(spec.default)
            field = forms.TypedChoiceField(
                choices=[(str(c), _label(str(c))) for c in spec.choices], initial=str(value),
                coerce=kind)
        elif isinstance(spec.default, int):
            field = forms.IntegerField(min_value=spec.minimum, max_value=spec.maximum,
                                       initial=value)
        elif isinstance(spec.default, float):
            field = forms.FloatField(min_value=spec.minimum, max_value=spec.maximum,
                                     initial=value)
        else:
            field = forms.CharField(initial=value, max_length=200)
        field.label = spec.label
        field.help_text = help_text
        self.fields[RULESET_PREFIX + spec.key] = field

    # --- reading them back -------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        values: dict[str, Any] = {}
        for key, option in OPTIONS.items():
            if key == "ruleset_options" or key not in data:
                continue
            value = data[key]
            if is_duration(option):
                unit = data.get(f"{key}__unit", "hours")
                value = round(Decimal(value) * _SECONDS[unit])
                if option.maximum is not None and value > option.maximum:
                    self.add_error(key, f"At most {_words(option.maximum)}.")
                    continue
            elif key == "ruleset" and self.running:
                value = self.current[key]
            try:
                values[key] = option.clean(value)
            except ValueError as exc:
                self.add_error(key, _sentence(exc))
        mine = dict(self.current.get("ruleset_options") or {})
        for spec in self.ruleset_specs():
            name = RULESET_PREFIX + spec.key
            # a default left as it is stays unstored (the ruleset's default may change)
            if name in data and (spec.key in mine or data[name] != spec.default):
                mine[spec.key] = data[name]
        try:
            rulesets.check_ruleset_options(mine)
        except ValueError as exc:
            self.add_error(None, _sentence(exc))
        values["ruleset_options"] = mine
        self.values = values
        return data

    def changes(self) -> dict[str, Any]:
        """The settings whose value differs from the campaign's (after `is_valid()`)."""
        return {k: v for k, v in self.values.items() if v != self.current.get(k)}

    @staticmethod
    def label_of(key: str, current: dict[str, Any]) -> str:
        """The words for a setting in a sentence ("Settings saved: ...")."""
        if key == "ruleset_options":
            return "the ruleset's options"
        option = OPTIONS[key]
        return (option.label or _label(key)).lower()

    # --- rendering ---------------------------------------------------------------------

    def rows(self) -> list[dict[str, Any]]:
        """The fields in declaration order, a duration's amount and unit together."""
        out = []
        for name, field in self.fields.items():
            if name.endswith("__unit"):
                continue
            unit = self[f"{name}__unit"] if f"{name}__unit" in self.fields else None
            out.append({"field": self[name], "unit": unit,
                        "ruleset": name.startswith(RULESET_PREFIX),
                        "check": isinstance(field, forms.BooleanField)})
        return out

    def campaign_groups(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The campaign's settings under their headings (`Option.group`), in order."""
        groups: dict[str, list[dict[str, Any]]] = {}
        for row in self.rows():
            if not row["ruleset"]:
                groups.setdefault(OPTIONS[row["field"].name].group, []).append(row)
        return list(groups.items())

    def ruleset_rows(self) -> list[dict[str, Any]]:
        return [r for r in self.rows() if r["ruleset"]]

    def imported_specs(self) -> list[rulesets.OptionSpec]:
        """The ruleset's options that hold imported data (set through the API)."""
        if self.ruleset_info is None:
            return []
        return [s for s in self.ruleset_info.option_specs if isinstance(s.default, list)]


def _words(seconds: int) -> str:
    amount, unit = _as_amount(seconds)
    return f"{amount} {unit}"


def _sentence(exc: Exception) -> str:
    text = str(exc)
    return text[:1].upper() + text[1:]
