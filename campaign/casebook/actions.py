"""Running `when`: each step is one action through the real service (or the engine).

A step is a mapping with one action key (`build: {...}`) and optional `as: name` (keep
the result under that name), `error: code` (this step must be refused with that code;
the case goes on) and `dice: [...]` (faces for this step only). The service functions
called are the ones the API views call; a service the project does not have yet raises
`ServiceMissing`, which the runner reports as pending, never as passed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from campaign.casebook.given import Ctx, GivenError

Action = Callable[[Ctx, dict[str, Any]], Any]
ACTIONS: dict[str, Action] = {}
STEP_KEYS = frozenset({"as", "error", "dice", "note"})


class ServiceMissing(RuntimeError):
    """The service an action needs is not in the project (yet)."""


class StepError(ValueError):
    """A step that does not follow the format."""


def service(dotted: str) -> Callable[..., Any]:
    """Import `package.module.function`, or raise ServiceMissing naming it."""
    module_name, _, attr = dotted.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise ServiceMissing(f"needs {dotted} (module {exc.name} is not in the project "
                                 "yet)") from None
        raise
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ServiceMissing(f"needs {dotted} (not in the project yet)") from None


def action(name: str) -> Callable[[Action], Action]:
    def register(fn: Action) -> Action:
        ACTIONS[name] = fn
        return fn
    return register


def split_step(step: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(action name, its parameters, the step options)."""
    names = [k for k in step if k not in STEP_KEYS]
    if len(names) != 1:
        raise StepError(f"a step needs exactly one action, got {names or 'none'}; "
                        f"known actions: {', '.join(sorted(ACTIONS))}")
    name = names[0]
    if name not in ACTIONS:
        raise StepError(f"unknown action {name!r}; known: {', '.join(sorted(ACTIONS))}")
    params = step[name]
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise StepError(f"the parameters of {name!r} must be a mapping")
    return name, params, {k: step[k] for k in step if k in STEP_KEYS}


def _need(params: dict[str, Any], *keys: str) -> None:
    missing = [k for k in keys if k not in params]
    if missing:
        raise StepError(f"missing parameter(s): {', '.join(missing)}")


def _territory_id(ctx: Ctx, value: Any) -> Any:
    """A territory named in the case, or a raw value passed through (to test refusals)."""
    if isinstance(value, str) and value in ctx.territories:
        return ctx.territories[value].pk
    return value


def _building_id(ctx: Ctx, value: Any) -> Any:
    if isinstance(value, str) and value in ctx.buildings:
        return ctx.buildings[value].pk
    return value


def _unit_id(ctx: Ctx, value: Any) -> Any:
    if isinstance(value, str) and value in ctx.units:
        return ctx.units[value].pk
    return value


def _fresh_player(ctx: Ctx, name: Any) -> Any:
    player = ctx.player(name)
    player.refresh_from_db()
    ctx.campaign.refresh_from_db()
    player.campaign = ctx.campaign
    return player


# ---------------------------------------------------------------------------
# Territories: exploration, movement
# ---------------------------------------------------------------------------


@action("explore")
def do_explore(ctx: Ctx, params: dict[str, Any]) -> Any:
    """The exploration roll of a territory taken by `player` (3d8, then the discovery d8
    and its value d8 when the nemesis die is 8)."""
    _need(params, "territory", "player")
    explore = service("territories.services.exploration.explore")
    territory = ctx.territory(params["territory"])
    return explore(territory=territory, player=_fresh_player(ctx, params["player"]))


@action("take")
def do_take(ctx: Ctx, params: dict[str, Any]) -> Any:
    """A player takes possession of a territory (tactical phase, no enemy present)."""
    _need(params, "territory", "player")
    take = service("territories.services.ownership.take_possession")
    return take(territory=ctx.territory(params["territory"]),
                player=_fresh_player(ctx, params["player"]))


@action("grant_passage")
def do_grant_passage(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "grantor", "grantee", "territories")
    grant = service("territories.services.passage.passage_grant")
    return grant(grantor=_fresh_player(ctx, params["grantor"]),
                 grantee=_fresh_player(ctx, params["grantee"]),
                 territory_ids=[_territory_id(ctx, t) for t in params["territories"]])


# ---------------------------------------------------------------------------
# Economy
# ---------------------------------------------------------------------------


@action("build")
def do_build(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "territory", "kind")
    create = service("economy.services.buildings.building_create")
    building = create(player=_fresh_player(ctx, params["player"]),
                      territory_id=_territory_id(ctx, params["territory"]),
                      kind=params["kind"], x=params.get("x", 0), y=params.get("y", 0))
    if params.get("name"):
        ctx.buildings[str(params["name"])] = building
    return building


@action("upgrade")
def do_upgrade(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "building", "upgrade")
    upgrade = service("economy.services.buildings.building_upgrade")
    return upgrade(player=_fresh_player(ctx, params["player"]),
                   building_id=_building_id(ctx, params["building"]),
                   upgrade=params["upgrade"])


@action("activate")
def do_activate(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Activity phase: exactly these buildings of the territory are active."""
    _need(params, "player", "territory", "active")
    activate = service("economy.services.energy.activation_set")
    return activate(player=_fresh_player(ctx, params["player"]),
                    territory_id=_territory_id(ctx, params["territory"]),
                    active=[_building_id(ctx, b) for b in params["active"]])


@action("ship")
def do_ship(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "territory", "containers")
    ship = service("economy.services.commerce.shipment_create")
    return ship(player=_fresh_player(ctx, params["player"]),
                territory_id=_territory_id(ctx, params["territory"]),
                containers=params["containers"])


@action("purchase")
def do_purchase(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "territory", "item")
    purchase = service("economy.services.commerce.purchase")
    result = purchase(player=_fresh_player(ctx, params["player"]),
                      territory_id=_territory_id(ctx, params["territory"]),
                      item=params["item"])
    if params.get("name"):
        _remember_purchase(ctx, str(params["name"]), result)
    return result


def _remember_purchase(ctx: Ctx, name: str, result: Any) -> None:
    from economy.models import Operative, Unit, Weapon

    if isinstance(result, Unit):
        ctx.units[name] = result
    elif isinstance(result, Operative):
        ctx.operatives[name] = result
    elif isinstance(result, Weapon):
        ctx.weapons[name] = result
    elif isinstance(result, dict):
        for key, model, store in (("unit", Unit, ctx.units), ("pilot", Operative, ctx.operatives),
                                  ("weapon", Weapon, ctx.weapons)):
            if result.get(key) is not None:
                store[name] = model.objects.get(pk=result[key])


@action("fit")
def do_fit(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Activity phase: the unit carries exactly these weapons (by name or id)."""
    _need(params, "player", "unit", "weapons")
    update = service("economy.services.units.unit_update")
    ids = [ctx.weapons[w].pk if isinstance(w, str) and w in ctx.weapons else w
           for w in params["weapons"]]
    return update(player=_fresh_player(ctx, params["player"]),
                  unit_id=_unit_id(ctx, params["unit"]), weapons=ids)


@action("crew")
def do_crew(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "unit", "pilot")
    update = service("economy.services.units.unit_update")
    pilot = params["pilot"]
    if isinstance(pilot, str):
        pilot = ctx.operative(pilot).pk
    return update(player=_fresh_player(ctx, params["player"]),
                  unit_id=_unit_id(ctx, params["unit"]), pilot=pilot)


@action("trade")
def do_trade(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "to", "give", "receive")
    offer = service("economy.services.trades.trade_create")
    return offer(player=_fresh_player(ctx, params["player"]), to_player=ctx.player(params["to"]).pk,
                 give=resolve_refs(ctx, params["give"]),
                 receive=resolve_refs(ctx, params["receive"]))


@action("accept")
def do_accept(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "trade")
    accept = service("economy.services.trades.trade_accept")
    trade = params["trade"]
    if isinstance(trade, str):
        trade = ctx.results[trade].pk
    return accept(player=_fresh_player(ctx, params["player"]), trade_id=trade)


@action("produce")
def do_produce(ctx: Ctx, params: dict[str, Any]) -> Any:
    """The activity phase's production (the hook the clock runs when it ends)."""
    run = service("economy.services.production.production_run")
    ctx.campaign.refresh_from_db()
    return run(campaign=ctx.campaign, dice=ctx.dice)


@action("grant")
def do_grant(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Umpire: give (or with a negative amount take) credits."""
    _need(params, "player", "amount")
    grant = service("economy.services.umpire.umpire_grant")
    return grant(player=_fresh_player(ctx, params["player"]), amount=int(params["amount"]),
                 detail=str(params.get("detail", "casebook")))


# ---------------------------------------------------------------------------
# Clock and orders
# ---------------------------------------------------------------------------


@action("advance")
def do_advance(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Umpire: move the clock on by `times` phases (default 1)."""
    advance = service("campaign.services.clock.advance")
    result = None
    for _ in range(int(params.get("times", 1))):
        ctx.campaign.refresh_from_db()
        result = advance(campaign_id=ctx.campaign.pk, by="umpire")
    ctx.campaign.refresh_from_db()
    return result


@action("ready")
def do_ready(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player")
    ready = service("campaign.services.clock.mark_ready")
    return ready(player=_fresh_player(ctx, params["player"]))


@action("order")
def do_order(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Move phase: a sealed order moving `unit` to `destination`."""
    _need(params, "player", "unit", "destination")
    submit = service("campaign.services.orders.order_submit")
    return submit(player=_fresh_player(ctx, params["player"]),
                  unit_id=_unit_id(ctx, params["unit"]),
                  destination_id=_territory_id(ctx, params["destination"]))


@action("reveal")
def do_reveal(ctx: Ctx, params: dict[str, Any]) -> Any:
    reveal = service("campaign.services.reveal.reveal_orders")
    ctx.campaign.refresh_from_db()
    return reveal(campaign=ctx.campaign)


@action("start")
def do_start(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Umpire: start a campaign in set-up (starting territories, credits, buildings)."""
    start = service("campaign.services.setup.campaign_start")
    return start(campaign_id=ctx.campaign.pk)


# ---------------------------------------------------------------------------
# Generic
# ---------------------------------------------------------------------------


def resolve_refs(ctx: Ctx, value: Any) -> Any:
    """`$player:alice`, `$territory:Alpha`, `$building:pp`, `$unit:g1`, `$campaign`,
    `$result:name` inside any parameter of `call`."""
    if isinstance(value, dict):
        return {k: resolve_refs(ctx, v) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_refs(ctx, v) for v in value]
    if not isinstance(value, str) or not value.startswith("$"):
        return value
    kind, _, name = value[1:].partition(":")
    if kind == "campaign":
        ctx.campaign.refresh_from_db()
        return ctx.campaign
    lookups: dict[str, Callable[[str], Any]] = {
        "player": lambda n: _fresh_player(ctx, n), "territory": ctx.territory,
        "building": ctx.building, "unit": ctx.unit, "operative": ctx.operative,
        "result": lambda n: ctx.results[n],
        "id": lambda n: resolve_refs(ctx, "$" + n).pk,
    }
    if kind not in lookups:
        raise GivenError(f"unknown reference {value!r}")
    return lookups[kind](name)


@action("call")
def do_call(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Any service by its dotted name, with `$`-references resolved in `args`."""
    _need(params, "service")
    fn = service(str(params["service"]))
    return fn(**resolve_refs(ctx, params.get("args") or {}))


@action("query")
def do_query(ctx: Ctx, params: dict[str, Any]) -> Any:
    from campaign.casebook.queries import run_query

    return run_query(ctx, params)


@action("battle")
def do_battle(ctx: Ctx, params: dict[str, Any]) -> Any:
    from campaign.casebook.battle import run_battle

    return run_battle(ctx, params)
