"""How a unit, a pilot or a building is named to a person: ONE helper each, used by the
journal, the pages and the mails (issue 26). A database id never stands in for a name;
a unit without one is called by its model ("Golem"), a pilot by its class."""

from __future__ import annotations

from typing import Any


def _words(key: Any) -> str:
    return str(key or "").replace("_", " ").strip()


def unit_label(unit: Any) -> str:
    """A unit's name: the one its player gave it, else its model ("Golem")."""
    name = str(getattr(unit, "name", "") or "")
    model = getattr(unit, "model", "")
    if name and not name.startswith(f"{model} #"):
        return name
    return _words(model).capitalize() or "Unit"


def operative_label(operative: Any) -> str:
    """A pilot's name, else its class ("Soldier")."""
    name = str(getattr(operative, "name", "") or "")
    return name or _words(getattr(operative, "klass", "")).capitalize() or "Pilot"


def weapon_label(weapon: Any) -> str:
    """A weapon's name from the seed's table ("Light cannon"), else its key in words."""
    from campaign.rules import tables as T

    key = str(getattr(weapon, "weapon", "") or "")
    spec = T.WEAPONS.get(key)
    return spec.name if spec is not None else _words(key).capitalize() or "Weapon"


def building_label(building: Any) -> str:
    return _words(getattr(building, "kind", "")) or "building"


def unit_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    """The journal's lookup: "alice's Golem" for each unit id (one query)."""
    from economy.models import Unit

    return {u.pk: f"{u.player.user.get_username()}'s {unit_label(u)}"
            for u in Unit.objects.filter(player__campaign_id=campaign_id, pk__in=ids)
            .select_related("player__user").only("pk", "name", "model",
                                                  "player__user__username")}


def operative_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    from economy.models import Operative

    return {o.pk: f"{o.player.user.get_username()}'s {operative_label(o)}"
            if not o.name else o.name
            for o in Operative.objects.filter(player__campaign_id=campaign_id, pk__in=ids)
            .select_related("player__user").only("pk", "name", "klass",
                                                  "player__user__username")}


def building_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    from economy.models import Building

    return {b.pk: f"the {building_label(b)} at {b.territory.name}"
            for b in Building.objects.filter(territory__campaign_id=campaign_id, pk__in=ids)
            .select_related("territory").only("pk", "kind", "territory__name")}
