"""`query` steps: read a rule or a derived value without changing state.

Pure look-ups go to `campaign.rules` and the engine's unit card (the same functions the
services and the engine use); campaign look-ups (legal destinations, energy budget,
warehouse room) go to the services. The answer is what `then: result:` checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import campaign.rules as rules
from campaign.access import membership
from campaign.rules.notation import plain
from casebook.actions import ServiceMissing, StepError, _fresh_player, service
from casebook.battle import probe_default
from casebook.given import Ctx, _user, weapon_spec
from territories.models import Territory

Query = Callable[[Ctx, dict[str, Any]], Any]
QUERIES: dict[str, Query] = {}


def query(name: str) -> Callable[[Query], Query]:
    def register(fn: Query) -> Query:
        QUERIES[name] = fn
        return fn
    return register


def run_query(ctx: Ctx, params: dict[str, Any]) -> Any:
    name = params.get("name") or params.get("rule")
    if name not in QUERIES:
        raise StepError(f"unknown query {name!r}; known: {', '.join(sorted(QUERIES))}")
    return QUERIES[str(name)](ctx, params)


def _rules() -> Any:
    return rules


def _options(ctx: Ctx) -> Any:
    ctx.campaign.refresh_from_db()
    return ctx.campaign.settings


@query("exploration_table")
def q_exploration_table(ctx: Ctx, p: dict[str, Any]) -> Any:
    """What an exploration roll of these three dice finds (no state)."""
    r = _rules()
    active, passive, nemesis = (int(d) for d in p["dice"])
    spec = r.resource_for_score(active + passive + nemesis)
    return {"resource": spec.key, "raw_value": spec.raw_value,
            "refined_value": spec.refined_value, "refined_with": list(spec.refined_with),
            "units_per_shaft": r.MINE_YIELD[active], "pure": passive >= r.PURE_PASSIVE_MIN,
            "unstable": nemesis <= r.UNSTABLE_NEMESIS_MAX,
            "discovery_roll": nemesis >= r.DISCOVERY_NEMESIS_MIN}


@query("discovery")
def q_discovery(ctx: Ctx, p: dict[str, Any]) -> Any:
    spec = _rules().discovery_for_face(int(p["face"]))
    return plain(spec)


@query("unit_value")
def q_unit_value(ctx: Ctx, p: dict[str, Any]) -> Any:
    r = _rules()
    return r.shipping_value(p["resource"], int(p.get("units", 1)),
                            bool(p.get("refined", False)), bool(p.get("pure", False)))


@query("skill_line")
def q_skill_line(ctx: Ctx, p: dict[str, Any]) -> Any:
    r = _rules()
    line = r.skill_line(p["class"], int(p["level"]),
                        bandit_level8_row=_options(ctx).bandit_level8_row)
    return plain(line)


@query("hiring_cost")
def q_hiring_cost(ctx: Ctx, p: dict[str, Any]) -> Any:
    return _rules().pilot_class(p["class"]).hiring_cost


@query("level_for_xp")
def q_level_for_xp(ctx: Ctx, p: dict[str, Any]) -> Any:
    return _rules().level_for_xp(int(p["xp"]), reading=_options(ctx).xp_table_reading)


@query("skill_score")
def q_skill_score(ctx: Ctx, p: dict[str, Any]) -> Any:
    """The unit card's result for a skill score and a 3d8 sum (J row, R-TAB-4)."""
    return probe_default("skill_score", {"skill": int(p["skill"]), "sum": int(p["sum"])},
                         ctx)["score"]


@query("weapon")
def q_weapon(ctx: Ctx, p: dict[str, Any]) -> Any:
    """A weapon's stat line after its templates, with its price."""
    key, templates = weapon_spec(p.get("weapon"))
    templates += list(p.get("templates") or [])
    data = plain(_rules().effective_weapon(key, templates))
    if "level" in p:
        eff = _rules().effective_weapon(key, templates)
        data["cooldown"] = eff.cooldown_for(int(p["level"]))
    return data


@query("unit_card")
def q_unit_card(ctx: Ctx, p: dict[str, Any]) -> Any:
    """The unit card the battle engine computes for a vehicle, pilot and weapons (the
    default ruleset's `unit_card` probe)."""
    return probe_default("unit_card", {**p, "bandit_level8_row":
                                       _options(ctx).bandit_level8_row}, ctx)


@query("loadout")
def q_loadout(ctx: Ctx, p: dict[str, Any]) -> Any:
    """Whether these weapon sizes fit the vehicle's slots (error: rule_violation if not)."""
    r = _rules()
    sizes = []
    for raw in p.get("weapons") or []:
        key, templates = weapon_spec(raw)
        sizes.append(r.weapon_size(key, templates))
    sizes += list(p.get("sizes") or [])
    r.validate_loadout(p["vehicle"], sizes, extension=bool(p.get("extension", False)),
                       light_shield=bool(p.get("light_shield", False)))
    return {"slots": list(r.vehicle_slots(p["vehicle"],
                                          extension=bool(p.get("extension", False)))),
            "weight": r.total_weight(p["vehicle"], sizes, bool(p.get("extension", False)))}


@query("building")
def q_building(ctx: Ctx, p: dict[str, Any]) -> Any:
    spec = _rules().BUILDINGS[p["kind"]]
    data = plain(spec)
    data["energy_after_upgrades"] = _rules().building_energy(p["kind"], p.get("upgrades") or [])
    return data


@query("power_output")
def q_power_output(ctx: Ctx, p: dict[str, Any]) -> Any:
    return _rules().power_output(int(p["plants"]), enhanced=bool(p.get("enhanced", False)))


@query("factory_limit")
def q_factory_limit(ctx: Ctx, p: dict[str, Any]) -> Any:
    return _rules().factory_limit(p.get("upgrades") or [])


# --- campaign look-ups (services) ---------------------------------------------------


@query("legal_destinations")
def q_legal_destinations(ctx: Ctx, p: dict[str, Any]) -> Any:
    """Names of the territories a unit of `player` at `from` may end its move on."""
    fn = service("territories.services.movement.legal_destinations")
    player = _fresh_player(ctx, p["player"])
    origin = ctx.territory(p["from"])
    ids = fn(player=player, origin=origin)
    names = dict(Territory.objects.filter(pk__in=list(ids)).values_list("pk", "name"))
    return sorted(names[i] for i in ids)


@query("energy")
def q_energy(ctx: Ctx, p: dict[str, Any]) -> Any:
    """The energy pool of a territory: supply, demand (active buildings) and balance."""
    fn = service("economy.services.energy.player_pools")
    pool_of = service("economy.services.energy.pool_of")
    player = _fresh_player(ctx, p["player"])
    pool = pool_of(fn(player), ctx.territory(p["territory"]).pk)
    return {"supply": pool.supply, "demand": pool.demand, "balance": pool.balance,
            "grid": pool.grid}


@query("storage")
def q_storage(ctx: Ctx, p: dict[str, Any]) -> Any:
    """Warehouse containers of a territory: capacity and used."""
    load = service("economy.services.storage.load_holdings")
    holdings = load(ctx.territory(p["territory"]).pk)
    data = {}
    for attr in ("containers", "used", "free"):
        value = getattr(holdings, attr, None)
        data[attr] = value() if callable(value) else value
    return data


__all__ = ["QUERIES", "ServiceMissing", "plain", "run_query"]


@query("orders_visible")
def q_orders_visible(ctx: Ctx, p: dict[str, Any]) -> Any:
    """What `viewer` (a user name: the umpire `uma` or a player) may read of the orders:
    `{total, full}` (rows shown, and rows shown with every field)."""
    select = service("orders.selectors.orders_visible_to")
    member = membership(_user(str(p["viewer"])), ctx.campaign.pk)
    rows = list(select(member))
    return {"total": len(rows), "full": sum(1 for r in rows if r.full)}


@query("private_visible")
def q_private_visible(ctx: Ctx, p: dict[str, Any]) -> Any:
    """What `viewer` (a user name) may read of the players' private business (R-ORD-10),
    through the same selectors the API uses: `{trades, passages}` (how many rows) and
    `journal` (the kinds of the entries written during the case that the viewer may read,
    in order)."""
    trades = service("economy.services.trades.visible_trades")
    passages = service("territories.services.passages.passages_visible_to")
    events = service("campaign.selectors.events_visible_to")
    member = membership(_user(str(p["viewer"])), ctx.campaign.pk)
    since = ctx.results.get("__first_event__", 0)
    return {"trades": trades(member).count(),
            "passages": passages(member.campaign, member.player,
                                 member.sees_private).count(),
            "journal": [e.kind for e in events(member).filter(pk__gt=since)]}
