"""The input of an umpire correction, validated once by DRF serializers (API, web page and
case book alike) and handed to `economy.services.corrections` as small frozen dataclasses.

A correction is `{"player", "reason", "credits"?, "goods"?, "unit"?, "weapon"?, "pilot"?,
"building"?, "request_id"?}`; each of unit, weapon, pilot and building is either a grant
(its own fields) or a take (`{"take": id}`), never both. What needs no database is checked
here (types, bounds, known keys of the rules tables, a weapon's templates); what does (the
player, the territory, room in the warehouses, the square) stays in the service.

`correction_input(data)` answers a `Correction` or raises `InvalidInput` (a 400 whose
`fields` has the serializer's error shape, e.g. `{"goods": {"units": [...]}}`): the
same refusal on every path, so a page shows the sentence the API answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaign.errors import InvalidInput
from campaign.rules.tables import (
    BUILDINGS,
    RESOURCES_BY_KEY,
    RuleViolation,
    pilot_class,
    vehicle,
    weapon_price,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: the largest number of credits or resource units one correction grants or takes: more
#: is surely a slip of the keyboard (and would overflow the ledger's columns)
MAX_AMOUNT = 1_000_000
#: the largest id the database stores (a bigger one is not an id at all)
MAX_ID = 2**63 - 1
MAX_TEMPLATES_SENT = 10
#: error codes of the game kept on a refusal (any other serializer code answers "invalid")
_GAME_CODES = {"invalid_item", "invalid_square"}


# ---------------------------------------------------------------------------
# The typed input the service takes
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Take:
    """`{"take": id}`: the unit, weapon, operative or building is taken from the player."""

    id: int


@dataclass(frozen=True)
class GoodsGrant:
    """Resource units added (positive) to or taken (negative) from a territory's stock."""

    territory: int
    resource: str
    refined: bool
    pure: bool
    units: int


@dataclass(frozen=True)
class UnitGrant:
    model: str
    territory: int


@dataclass(frozen=True)
class WeaponGrant:
    weapon: str
    templates: tuple[str, ...]
    territory: int


@dataclass(frozen=True)
class PilotGrant:
    klass: str
    territory: int
    name: str


@dataclass(frozen=True)
class BuildingGrant:
    kind: str
    territory: int
    x: int
    y: int


@dataclass(frozen=True)
class Correction:
    player: int
    reason: str
    credits: int | None = None
    goods: GoodsGrant | None = None
    unit: UnitGrant | Take | None = None
    weapon: WeaponGrant | Take | None = None
    pilot: PilotGrant | Take | None = None
    building: BuildingGrant | Take | None = None
    #: as sent: `request_keys.claim` checks it (428 without, 400 malformed, 409 repeated)
    request_id: Any = None


# ---------------------------------------------------------------------------
# Strict fields (JSON types as sent; a form's text is parsed by the page before)
# ---------------------------------------------------------------------------


class Text(serializers.CharField):
    """A string, never a number or a boolean turned into one."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class WholeNumber(serializers.IntegerField):
    """A JSON integer: not a boolean, not a float, not a string of digits."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class Amount(WholeNumber):
    """A non-zero whole number within ±MAX_AMOUNT (negative to take)."""

    def __init__(self, *, path: str, **kwargs: Any) -> None:
        self.path = path
        sentence = f"'{path}' must be a non-zero whole number (negative to take)."
        bound = (f"'{path}' must be between -{MAX_AMOUNT:,} and {MAX_AMOUNT:,}: a "
                 "correction of more is surely a typo.")
        super().__init__(min_value=-MAX_AMOUNT, max_value=MAX_AMOUNT, error_messages={
            "required": sentence, "null": sentence, "invalid": sentence,
            "max_string_length": sentence, "min_value": bound, "max_value": bound}, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        value = super().to_internal_value(data)
        if value == 0:
            self.fail("invalid")
        return value


class Id(serializers.IntegerField):
    """An object's id: a positive integer, or its digits (a form's value)."""

    def __init__(self, *, path: str, what: str, **kwargs: Any) -> None:
        sentence = f"'{path}' must be {what} id (a positive whole number)."
        super().__init__(min_value=1, max_value=MAX_ID, error_messages={
            "required": f"Send '{path}': {what} id.", "null": sentence, "invalid": sentence,
            "max_string_length": sentence, "min_value": sentence, "max_value": sentence},
            **kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Flag(serializers.BooleanField):
    """true or false, nothing that merely looks like them."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class Square(serializers.IntegerField):
    """A square's coordinate (the grid's bounds are the building rules' to check)."""

    sentence = "A building needs its square: whole numbers x and y (0-15)."

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        value = super().to_internal_value(data)
        if abs(value) > MAX_AMOUNT:
            self.fail("invalid")
        return value

    def fail(self, key: str, **kwargs: Any) -> NoReturn:
        raise serializers.ValidationError(self.sentence, code="invalid_square")


@extend_schema_field(OpenApiTypes.STR)
class AsSent(serializers.Field):
    """Passed on untouched (the request key is checked by `request_keys.claim`)."""

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


def _key(value: str) -> str:
    return value.strip().lower().replace(" ", "_")


def _text(path: str, what: str, **kwargs: Any) -> Text:
    sentence = f"'{path}' must be {what}."
    return Text(error_messages={"required": f"Send '{path}': {what}.", "null": sentence,
                                "invalid": sentence, "blank": sentence},
                max_length=80, **kwargs)


def _object_messages(path: str, form: str) -> dict[str, StrOrPromise]:
    # DRF formats its messages: the braces of the form are doubled to stay as they are
    sentence = f"'{path}' must be an object: {form}.".replace("{", "{{").replace("}", "}}")
    return {"invalid": sentence, "null": sentence}


# ---------------------------------------------------------------------------
# Nested serializers
# ---------------------------------------------------------------------------


class CorrectionGoodsIn(serializers.Serializer):
    """Resource units added to (positive) or taken from (negative) a territory's stock."""

    default_error_messages = _object_messages(
        "goods", '{"territory", "resource", "refined"?, "pure"?, "units"}')

    territory = Id(path="goods.territory", what="a territory")
    resource = _text("goods.resource", "a resource")
    refined = Flag(default=False, error_messages={
        "invalid": "'goods.refined' is true or false.",
        "null": "'goods.refined' is true or false."})
    pure = Flag(default=False, error_messages={"invalid": "'goods.pure' is true or false.",
                                               "null": "'goods.pure' is true or false."})
    units = Amount(path="goods.units", help_text="Positive to grant, negative to take.")

    def validate_resource(self, value: str) -> str:
        key = _key(value)
        if key not in RESOURCES_BY_KEY:
            raise serializers.ValidationError(
                f"Unknown resource {value!r} (one of: {', '.join(sorted(RESOURCES_BY_KEY))}).")
        return key

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["refined"] and attrs["pure"]:
            raise serializers.ValidationError(
                {"pure": ["'refined' and 'pure' are true or false, never both true."]})
        return attrs


class _GrantOrTake(serializers.Serializer):
    """Either the grant form (`grant` names its required fields) or `{"take": id}`."""

    noun = ""
    grant_form = ""
    grant: tuple[str, ...] = ()

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict):
            sent = {key for key, value in data.items() if value is not None}
            granting = sorted(sent & (set(self.fields) - {"take"}))
            if "take" in sent and granting:
                raise serializers.ValidationError({"non_field_errors": [
                    f"A {self.noun} is granted ({self.grant_form}) or taken "
                    f'({{"take": id}}), not both: drop {", ".join(granting)} or "take".']})
            if "take" not in sent and not granting:
                raise serializers.ValidationError({"non_field_errors": [
                    f"Send the {self.noun} to grant ({self.grant_form}) or to take "
                    '({"take": id}).']})
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("take") is not None:
            return {"take": attrs["take"]}
        missing = [name for name in self.grant if attrs.get(name) is None]
        if missing:
            raise serializers.ValidationError(
                {name: [f"Send '{self.field_name}.{name}' to grant a {self.noun} "
                        f"({self.grant_form})."] for name in missing})
        return attrs


class CorrectionUnitIn(_GrantOrTake):
    """A vehicle granted empty on the player's territory, or a unit taken (destroyed)."""

    noun, grant_form, grant = "unit", '{"model", "territory"}', ("model", "territory")
    default_error_messages = _object_messages("unit", '{"model", "territory"} or {"take": id}')

    take = Id(path="unit.take", what="a unit", required=False, allow_null=True)
    model = _text("unit.model", "a vehicle model", required=False)
    territory = Id(path="unit.territory", what="a territory", required=False)

    def validate_model(self, value: str) -> str:
        try:
            return vehicle(value).key
        except RuleViolation as exc:
            raise serializers.ValidationError(str(exc), code="invalid_item") from None


class CorrectionWeaponIn(_GrantOrTake):
    """A loose weapon granted on the player's territory, or a weapon taken (removed)."""

    noun, grant_form, grant = ("weapon", '{"weapon", "templates"?, "territory"}',
                               ("weapon", "territory"))
    default_error_messages = _object_messages(
        "weapon", '{"weapon", "templates"?, "territory"} or {"take": id}')

    take = Id(path="weapon.take", what="a weapon", required=False, allow_null=True)
    weapon = _text("weapon.weapon", "a weapon", required=False)
    templates = serializers.ListField(
        child=_text("weapon.templates", "a list of template names"), required=False,
        allow_null=True, max_length=MAX_TEMPLATES_SENT, error_messages={
            "not_a_list": "'weapon.templates' must be a list of template names.",
            "max_length": f"'weapon.templates' has at most {MAX_TEMPLATES_SENT} names."})
    territory = Id(path="weapon.territory", what="a territory", required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if "take" in attrs:
            return attrs
        key = _key(attrs["weapon"])
        templates = [_key(t) for t in attrs.get("templates") or []]
        try:
            weapon_price(key, templates)
        except RuleViolation as exc:
            raise serializers.ValidationError({"weapon": [str(exc)]},
                                              code="invalid_item") from None
        return {**attrs, "weapon": key, "templates": templates}


class CorrectionPilotIn(_GrantOrTake):
    """A level-1 operative granted on the player's territory, or one taken (dies)."""

    noun, grant_form, grant = "pilot", '{"class", "territory", "name"?}', \
        ("class", "territory")
    default_error_messages = _object_messages(
        "pilot", '{"class", "territory", "name"?} or {"take": id}')

    take = Id(path="pilot.take", what="an operative", required=False, allow_null=True)
    territory = Id(path="pilot.territory", what="a territory", required=False)
    name = Text(required=False, allow_blank=True, max_length=60, error_messages={
        "invalid": "'pilot.name' must be text.",
        "max_length": "'pilot.name' is at most 60 characters."})

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # "class" is a keyword of Python: declared here rather than as an attribute
        fields["class"] = _text("pilot.class", "an operative class", required=False)
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        if "take" in attrs:
            return attrs
        try:
            klass = pilot_class(attrs["class"].strip()).key
        except RuleViolation as exc:
            raise serializers.ValidationError({"class": [str(exc)]},
                                              code="invalid_item") from None
        return {**attrs, "class": klass}


class CorrectionBuildingIn(_GrantOrTake):
    """A building granted on a free square of the player's territory, or one taken."""

    noun, grant_form, grant = "building", '{"kind", "territory", "x", "y"}', \
        ("kind", "territory", "x", "y")
    default_error_messages = _object_messages(
        "building", '{"kind", "territory", "x", "y"} or {"take": id}')

    take = Id(path="building.take", what="a building", required=False, allow_null=True)
    kind = _text("building.kind", "a building kind", required=False)
    territory = Id(path="building.territory", what="a territory", required=False)
    x = Square(required=False)
    y = Square(required=False)

    def validate_kind(self, value: str) -> str:
        key = _key(value)
        if key not in BUILDINGS:
            raise serializers.ValidationError(f"Unknown building {value!r}.",
                                              code="invalid_item")
        return key


# ---------------------------------------------------------------------------
# The correction
# ---------------------------------------------------------------------------


class CorrectionIn(serializers.Serializer):
    """An umpire correction of one player's holdings, with a reason."""

    default_error_messages = {"invalid": "Send a JSON object: the correction.",
                              "null": "Send a JSON object: the correction."}

    player = Id(path="player", what="a player")
    reason = Text(max_length=200, error_messages={
        "required": "A correction needs a reason.", "blank": "A correction needs a reason.",
        "null": "A correction needs a reason.", "invalid": "'reason' must be text.",
        "max_length": "'reason' is at most 200 characters."},
        help_text="Why: kept in the ledger and the player's journal.")
    credits = Amount(path="credits", required=False, allow_null=True,
                     help_text=f"Positive to grant, negative to take; at most {MAX_AMOUNT:,} "
                     "either way.")
    goods = CorrectionGoodsIn(required=False, allow_null=True)
    unit = CorrectionUnitIn(required=False, allow_null=True)
    weapon = CorrectionWeaponIn(required=False, allow_null=True)
    pilot = CorrectionPilotIn(required=False, allow_null=True)
    building = CorrectionBuildingIn(required=False, allow_null=True)
    request_id = AsSent(required=False, allow_null=True, help_text=(
        "Chosen for this correction (8 to 64 letters, digits or -_.:): 428 without it, 409 "
        "already_applied when repeated. Needed by the API only."))

    WHAT = ("credits", "goods", "unit", "weapon", "pilot", "building")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if all(attrs.get(name) is None for name in self.WHAT):
            raise serializers.ValidationError(
                "Send 'credits', 'goods', 'unit', 'weapon', 'pilot' and/or 'building'.")
        return attrs

    def correction(self) -> Correction:
        data = self.validated_data
        goods = data.get("goods")
        return Correction(
            player=data["player"], reason=data["reason"], credits=data.get("credits"),
            goods=GoodsGrant(**goods) if goods else None,
            unit=_either(data.get("unit"), lambda d: UnitGrant(model=d["model"],
                                                                territory=d["territory"])),
            weapon=_either(data.get("weapon"), lambda d: WeaponGrant(
                weapon=d["weapon"], templates=tuple(d["templates"]),
                territory=d["territory"])),
            pilot=_either(data.get("pilot"), lambda d: PilotGrant(
                klass=d["class"], territory=d["territory"], name=d.get("name", "").strip())),
            building=_either(data.get("building"), lambda d: BuildingGrant(
                kind=d["kind"], territory=d["territory"], x=d["x"], y=d["y"])),
            request_id=data.get("request_id"))


def _either(data: dict[str, Any] | None, grant: Any) -> Any:
    if data is None:
        return None
    if "take" in data:
        return Take(id=data["take"])
    return grant(data)


def correction_input(data: object) -> Correction:
    """The correction `data` asks for, or InvalidInput naming the first fault (its
    sentence as `detail`, every fault in `fields`); nothing is read from the database."""
    if not isinstance(data, dict):  # DRF would answer "No data provided" for null
        raise InvalidInput("Send a JSON object: the correction.")
    serializer = CorrectionIn(data=data)
    if not serializer.is_valid():
        errors = _plain(serializer.errors)
        message, code = _first(serializer.errors)
        fields = errors if isinstance(errors, dict) and set(errors) != {
            "non_field_errors"} else None
        raise InvalidInput(message or "Invalid correction.",
                           code=code if code in _GAME_CODES else "invalid", fields=fields)
    return serializer.correction()


def _first(errors: Any) -> tuple[str, str]:
    if isinstance(errors, dict):
        for value in errors.values():
            found = _first(value)
            if found[0]:
                return found
        return "", ""
    if isinstance(errors, list):
        return _first(errors[0]) if errors else ("", "")
    return str(errors), str(getattr(errors, "code", "") or "")


def _plain(errors: Any) -> Any:
    """JSON-ready copy (dict keys as strings: a list's faults are keyed by index)."""
    if isinstance(errors, dict):
        return {str(key): _plain(value) for key, value in errors.items()}
    if isinstance(errors, list):
        return [_plain(value) for value in errors]
    return str(errors)
