"""Selectors: how a unit, a pilot or a weapon is named wherever a person reads it (pages,
mails, the journal, battle reports, trades). Issue 26, item 4: the name its owner gave it,
or the readable default drawn at purchase; never an id.

`unit_label`, `pilot_label`, `weapon_label` take the economy's rows (or anything with the
same attributes: `name`, `model`/`profile` for a unit, `klass` for a pilot, `weapon`/
`templates` for a weapon) and need no query. `with_article` puts "a"/"an" before a
label that is a kind of thing ("a Cannon") and nothing before a name ("Golem 'Iron Wolf'").
"""

from __future__ import annotations

from typing import Any

from campaign.rules.tables import PILOT_CLASSES, TEMPLATES, VEHICLES, WEAPONS
from economy.models import Building, Operative, Unit


def model_label(model: str, profile: dict[str, Any] | None = None) -> str:
    """A unit model's name as the rules spell it: an Unlimit3d 8 vehicle ("Golem"), the
    catalogue name kept on a unit of another ruleset, or its key made readable."""
    spec = VEHICLES.get(model)
    if spec is not None:
        return spec.name
    named = (profile or {}).get("name")
    if isinstance(named, str) and named:
        return named
    return model.replace("_", " ").strip().title() or "Unit"


def unit_label(unit: Any) -> str:
    """'Golem 'Iron Wolf'' (its name), or its model ("Golem") when it has none."""
    name = (getattr(unit, "name", "") or "").strip()
    return name or model_label(str(unit.model), getattr(unit, "profile", None))


def pilot_class_label(klass: str) -> str:
    spec = PILOT_CLASSES.get(klass)
    return spec.name if spec is not None else klass.replace("_", " ")


def pilot_label(op: Any) -> str:
    """'Sgt. Mara Voss' (its name), or its class ("Soldier") when it has none."""
    name = (getattr(op, "name", "") or "").strip()
    return name or pilot_class_label(str(op.klass))


def weapon_model_label(weapon_key: str, templates: list[str] | tuple[str, ...] = ()) -> str:
    """A weapon as the rules name it, its templates first: "Cannon", "Heavy Machine Gun"."""
    spec = WEAPONS.get(weapon_key)
    names = [TEMPLATES[t].name for t in templates if t in TEMPLATES]
    return " ".join([*names, spec.name if spec else weapon_key.replace("_", " ")])


def weapon_label(weapon: Any) -> str:
    """A weapon's model ("Cannon"); a renamed one: its name and model ("Big Bertha
    (Cannon)")."""
    model = weapon_model_label(str(weapon.weapon), list(getattr(weapon, "templates", ()) or ()))
    name = (getattr(weapon, "name", "") or "").strip()
    return f"{name} ({model})" if name else model


def with_article(label: str, *, named: bool) -> str:
    """"a Cannon", "an Autocannon"; a name stands alone ("Golem 'Iron Wolf'")."""
    if named or not label:
        return label
    return f"{'an' if label[0].lower() in 'aeiou' else 'a'} {label}"


def unit_phrase(unit: Any) -> str:
    return with_article(unit_label(unit), named=bool((unit.name or "").strip()))


def pilot_phrase(op: Any) -> str:
    return with_article(pilot_label(op), named=bool((op.name or "").strip()))


def weapon_phrase(weapon: Any) -> str:
    return with_article(weapon_label(weapon), named=bool((weapon.name or "").strip()))


def operative_label(operative: Any) -> str:
    """The journal's name for a pilot (`pilot_label`)."""
    return pilot_label(operative)


def _words(key: Any) -> str:
    return str(key or "").replace("_", " ").strip()


def building_label(building: Any) -> str:
    return _words(getattr(building, "kind", "")) or "building"


def unit_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    """The journal's lookup: "alice's Golem" for each unit id (one query)."""
    return {u.pk: f"{u.player.user.get_username()}'s {unit_label(u)}"
            for u in Unit.objects.filter(player__campaign_id=campaign_id, pk__in=ids)
            .select_related("player__user").only("pk", "name", "model",
                                                  "player__user__username")}


def operative_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    return {o.pk: f"{o.player.user.get_username()}'s {operative_label(o)}"
            if not o.name else o.name
            for o in Operative.objects.filter(player__campaign_id=campaign_id, pk__in=ids)
            .select_related("player__user").only("pk", "name", "klass",
                                                  "player__user__username")}


def building_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    return {b.pk: f"the {building_label(b)} at {b.territory.name}"
            for b in Building.objects.filter(territory__campaign_id=campaign_id, pk__in=ids)
            .select_related("territory").only("pk", "kind", "territory__name")}
