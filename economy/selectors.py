"""Reads of the economy: the player's own view, units, operatives (fixed query counts)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import Count, Prefetch

from campaign import sql
from campaign.models import Player
from campaign.rules.tables import VEHICLES, weapon_size
from economy.labels import (
    pilot_label,
    pilot_phrase,
    unit_label,
    unit_phrase,
    weapon_label,
    weapon_model_label,
    weapon_phrase,
)
from economy.models import Building, Operative, Stock, Unit, Weapon
from territories.models import Territory
from territories.selectors import Contents


def _unit_dict(unit: Unit) -> dict[str, Any]:
    spec = VEHICLES.get(unit.model)
    max_hp = spec.hit_points if spec else 0
    weapons = list(unit.weapons.all())
    return {
        "id": unit.pk,
        "territory": unit.territory_id,
        "model": unit.model,
        "name": unit_label(unit),
        "pilot": unit.pilot_id,
        "weapons": [w.pk for w in weapons],
        "loadout": [{"id": w.pk, "weapon": w.weapon, "templates": w.templates,
                     "size": weapon_size(w.weapon, w.templates), "slot": w.slot}
                    for w in weapons],
        "extension": unit.extension,
        "hit_points": max(0, max_hp - unit.damage_repairable - unit.damage_unrepairable),
        "max_hit_points": max_hp,
        "status": unit.status,
        "state": unit.state or {},
    }


def units_of(player: Player) -> list[dict[str, Any]]:
    """The player's units (two queries whatever their number)."""
    units = Unit.objects.filter(player=player).prefetch_related(
        Prefetch("weapons", queryset=Weapon.objects.order_by("slot", "pk")))
    return [_unit_dict(u) for u in units]


def pilots_of(player: Player) -> list[dict[str, Any]]:
    """The player's operatives (one query)."""
    ops = Operative.objects.filter(player=player).select_related("unit")
    result = []
    for op in ops:
        try:
            unit_id = op.unit.pk
        except Unit.DoesNotExist:
            unit_id = None
        result.append({"id": op.pk, "class": op.klass, "name": pilot_label(op), "level": op.level,
                       "xp": op.xp, "unit": unit_id, "territory": op.territory_id,
                       "alive": op.alive})
    return result


def weapons_of(player: Player) -> list[dict[str, Any]]:
    """The player's weapons and equipment (one query): `name` is the name its owner gave
    it, or its model ("Cannon"); `label` how pages show it."""
    return [{"id": w.pk, "weapon": w.weapon, "name": w.name or weapon_model_label(
                 w.weapon, w.templates), "label": weapon_label(w), "templates": w.templates,
             "size": weapon_size(w.weapon, w.templates), "territory": w.territory_id,
             "unit": w.unit_id, "slot": w.slot}
            for w in Weapon.objects.filter(player=player)]


def me(player: Player) -> dict[str, Any]:
    """API.md `GET /me/`: player, credits, research_points, territories, units, stock.
    A fixed number of queries: player, territories, units, weapons, stock."""
    fresh = Player.objects.only("pk", "credits", "research_points").get(pk=player.pk)
    territories = list(Territory.objects.filter(owner=player).values_list("pk", flat=True))
    stock = [
        {"territory": t, "resource": r, "refined": refined, "pure": pure, "units": u}
        for t, r, refined, pure, u in Stock.objects.filter(
            territory__owner=player, units__gt=0).order_by("territory", "resource", "refined",
                                                          "pure").values_list(
            "territory", "resource", "refined", "pure", "units")
    ]
    return {"player": fresh.pk, "credits": fresh.credits,
            "research_points": fresh.research_points, "territories": territories,
            "units": units_of(player), "stock": stock}


def territories_with_station(campaign_id: int,
                             among: tuple[str, Sequence[Any]] | None = None) -> set[int]:
    """Territories of the campaign where a station stands (R-MAP-9: units travel through
    them), of the whole map or only among `among`: `(sql, params)`, a `SELECT` of
    territory ids (a player's passable territories: `movement.passable_sql`), so the
    question stays as small as what the player holds. One query; with `among`, sent as
    text (every order POST asks it: `campaign.sql`)."""
    if among is None:
        return set(Building.objects.filter(kind="station", territory__campaign_id=campaign_id)
                   .values_list("territory_id", flat=True))
    subquery, params = among
    return sql.fetch_ids(f"SELECT territory_id FROM {sql.table(Building)} "
                         f"WHERE kind = %s AND territory_id IN ({subquery})",
                         ["station", *params])


def units_standing(campaign: Any) -> dict[int, int]:
    """{player id: units not destroyed} (one query; the history charts' snapshot count)."""
    return dict(Unit.objects.filter(player__campaign=campaign)
                .exclude(status=Unit.Status.DESTROYED)
                .values("player").annotate(n=Count("id")).values_list("player", "n"))


def territory_contents(campaign: Any, player: Player | None, sees_all: bool,
                       only: int | None) -> Contents:
    """What stands on the territories of a listing (`territories.selectors.territories_for`):
    the buildings on the player's territories and the player's units standing, or every
    owner's when `sees_all`; of one territory when `only`. Two queries."""
    buildings: dict[int, list[dict[str, Any]]] = defaultdict(list)
    building_qs = Building.objects.filter(territory__campaign=campaign).order_by("pk")
    if not sees_all:
        building_qs = (building_qs.filter(territory__owner=player) if player is not None
                       else building_qs.none())
    if only is not None:
        building_qs = building_qs.filter(territory_id=only)
    for pk, territory_id, kind, x, y, active, hit_points in building_qs.values_list(
            "pk", "territory_id", "kind", "x", "y", "active", "hit_points"):
        buildings[territory_id].append({"id": pk, "kind": kind, "x": x, "y": y,
                                        "active": active, "hit_points": hit_points})
    unit_qs = Unit.objects.filter(territory__campaign=campaign).exclude(
        status=Unit.Status.DESTROYED)
    if not sees_all:
        unit_qs = unit_qs.filter(player=player) if player is not None else unit_qs.none()
    if only is not None:
        unit_qs = unit_qs.filter(territory_id=only)
    units = dict(unit_qs.values("territory_id").annotate(n=Count("pk"))
                 .values_list("territory_id", "n"))
    return Contents(buildings=dict(buildings), units=units)


# --------------------------------------------------------------------------- trades


def trade_phrases(trades: Sequence[Any]) -> dict[tuple[str, int], str]:
    """What the units, weapons and operatives of `trades` are called ("a Cannon", "Golem
    'Iron Wolf'", "Sgt. Mara Voss"), by (kind, id): three queries whatever the number of
    trades (issue 26: trades say what they carry, never ids)."""
    wanted: dict[str, set[int]] = defaultdict(set)
    for trade in trades:
        for side in (trade.give or {}, trade.receive or {}):
            for kind in ("units", "weapons", "operatives"):
                wanted[kind].update(int(i) for i in side.get(kind) or ())
    phrases: dict[tuple[str, int], str] = {}
    for kind, model, phrase in (("units", Unit, unit_phrase),
                                ("weapons", Weapon, weapon_phrase),
                                ("operatives", Operative, pilot_phrase)):
        if wanted[kind]:
            for row in model.objects.filter(pk__in=wanted[kind]):
                phrases[(kind, row.pk)] = phrase(row)
    return phrases


def _and(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def side_words(side: dict[str, Any], phrases: dict[tuple[str, int], str]) -> str:
    """One side of a trade in words: "a Cannon, Golem 'Iron Wolf' and 200 SC" ("" for
    an empty side)."""
    gone = {"units": "a unit no longer in play", "weapons": "a weapon no longer in play",
            "operatives": "an operative no longer in play"}
    parts = [phrases.get((kind, int(i)), gone[kind])
             for kind in ("units", "weapons", "operatives") for i in side.get(kind) or ()]
    for r in side.get("resources") or ():
        quality = "refined " if r.get("refined") else "pure " if r.get("pure") else ""
        parts.append(f"{r.get('units')} {quality}"
                     f"{str(r.get('resource', '')).replace('_', ' ')}")
    if side.get("credits"):
        parts.append(f"{side['credits']} SC")
    return _and(parts)


def trade_sentence(trade: Any, phrases: dict[tuple[str, int], str]) -> str:
    """"alice offers a Cannon and 200 SC for bob's Golem 'Iron Wolf'" (the trade's players
    with their users loaded)."""
    giver = trade.from_player.user.get_username()
    taker = trade.to_player.user.get_username()
    give = side_words(trade.give or {}, phrases)
    receive = side_words(trade.receive or {}, phrases)
    if not receive:
        return f"{giver} offers {give or 'nothing'} to {taker}"
    if not give:
        return f"{giver} asks {taker} for {receive}"
    return f"{giver} offers {give} for {taker}'s {receive}"


def trade_sentences(trades: Sequence[Any]) -> dict[Any, str]:
    """trade id -> `trade_sentence`, three queries for all of them."""
    phrases = trade_phrases(trades)
    return {t.pk: trade_sentence(t, phrases) for t in trades}
