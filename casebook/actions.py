"""Running `when`: each step is one action through the real service (or the engine).

A step is a mapping with one action key (`build: {...}`) and optional `as: name` (keep
the result under that name), `error: code` (this step must be refused with that code;
the case goes on) and `dice: [...]` (faces for this step only). The service functions
called are the ones the API views call; a service the project does not have yet raises
`ServiceMissing`, which the runner reports as pending, never as passed.
"""

from __future__ import annotations

import datetime as dt
import importlib
import logging
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from battles.models import Battle
from casebook.given import Ctx, GivenError, _user
from economy.models import BuildingKit, Operative, Unit, Weapon

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
    """A player takes possession of a territory (tactical phase, no enemy present; a
    never-owned territory gets its exploration roll)."""
    _need(params, "territory", "player")
    take = service("battles.services.opening.take_territory")
    territory = ctx.territory(params["territory"])
    territory.refresh_from_db()
    return take(territory=territory, player=_fresh_player(ctx, params["player"]),
                reason=str(params.get("reason", "casebook")))


@action("grant_passage")
def do_grant_passage(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "grantor", "grantee", "territories")
    grant = service("territories.services.passages.grant_passage")
    return grant(grantor=_fresh_player(ctx, params["grantor"]),
                 grantee=_fresh_player(ctx, params["grantee"]),
                 territories=[_territory_id(ctx, t) for t in params["territories"]])


@action("revoke_passage")
def do_revoke_passage(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Withdraw a right of passage (all of the grantee's when `territories` is left out)."""
    _need(params, "grantor", "grantee")
    revoke = service("territories.services.passages.revoke_passage")
    names = params.get("territories")
    return revoke(grantor=_fresh_player(ctx, params["grantor"]),
                  grantee=_fresh_player(ctx, params["grantee"]),
                  territories=None if names is None else [_territory_id(ctx, t) for t in names])


# ---------------------------------------------------------------------------
# Economy
# ---------------------------------------------------------------------------


@action("build")
def do_build(ctx: Ctx, params: dict[str, Any]) -> Any:
    _need(params, "player", "territory", "kind")
    create = service("economy.services.buildings.building_create")
    extra = {}
    if params.get("kit") is not None:
        extra["kit"] = _kit_id(ctx, params["player"], params["kit"])
    building = create(player=_fresh_player(ctx, params["player"]),
                      territory_id=_territory_id(ctx, params["territory"]),
                      kind=params["kind"], x=params.get("x", 0), y=params.get("y", 0),
                      **extra)
    if params.get("name"):
        ctx.buildings[str(params["name"])] = building
    return building


def _kit_id(ctx: Ctx, player: Any, value: Any) -> Any:
    """A building kit (R-ECO-18): a name from `given: kits`, else a building kind: the
    player's oldest unused kit of that kind (one a factory made during the case); any
    other value is passed through (to test refusals)."""
    if isinstance(value, str) and value in ctx.kits:
        return ctx.kits[value].pk
    if isinstance(value, str):
        kit = BuildingKit.objects.filter(player=ctx.player(player), kind=value,
                                         used_turn__isnull=True).order_by("pk").first()
        if kit is None:
            raise GivenError(f"{player} has no unused {value} kit (and no kit is named so)")
        return kit.pk
    return value


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
    correct = service("economy.services.corrections.correction_create")
    ctx.campaign.refresh_from_db()
    return correct(campaign=ctx.campaign, player_id=ctx.player(params["player"]).pk,
                   reason=str(params.get("reason", "casebook")), credits=int(params["amount"]))


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
    submit = service("orders.services.sealing.order_submit")
    return submit(player=_fresh_player(ctx, params["player"]),
                  unit_id=_unit_id(ctx, params["unit"]),
                  destination_id=_territory_id(ctx, params["destination"]))


@action("reveal")
def do_reveal(ctx: Ctx, params: dict[str, Any]) -> Any:
    """The reveal alone (the first hook of entering the tactical phase): sealed orders are
    announced and carried out, off-map units come back."""
    reveal = service("orders.services.reveal.reveal_and_move")
    ctx.campaign.refresh_from_db()
    return reveal(campaign=ctx.campaign)


@action("withdraw")
def do_withdraw(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Move phase: withdraw a sealed order kept with `as:` (or by its public id)."""
    _need(params, "player", "order")
    withdraw = service("orders.services.sealing.order_withdraw")
    order = params["order"]
    if isinstance(order, str) and order in ctx.results:
        order = ctx.results[order].public_id
    return withdraw(player=_fresh_player(ctx, params["player"]), order_id=order)


@action("exchange")
def do_exchange(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Move phase: one weapon passes from one pilot's unit to another's."""
    _need(params, "player", "from", "to", "weapon")
    exchange = service("economy.services.exchange.equipment_exchange")
    weapon = params["weapon"]
    if isinstance(weapon, str) and weapon in ctx.weapons:
        weapon = ctx.weapons[weapon].pk
    return exchange(player=_fresh_player(ctx, params["player"]),
                    from_unit_id=_unit_id(ctx, params["from"]),
                    to_unit_id=_unit_id(ctx, params["to"]), weapon_id=weapon)


@action("handover")
def do_handover(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Umpire: hand `player`'s seat to the user `to`."""
    _need(params, "player", "to")

    handover = service("campaign.services.seats.seat_handover")
    _user(str(params["to"]))
    ctx.campaign.refresh_from_db()
    player = handover(campaign=ctx.campaign, player_id=ctx.player(params["player"]).pk,
                      username=str(params["to"]))
    return player


@action("deadline")
def do_deadline(ctx: Ctx, params: dict[str, Any]) -> Any:
    """Umpire: set the phase deadline `in` seconds from now (negative: in the past) or
    clear it (`clear: true`); `pause: true` / `resume: true` stop and restart the clock."""
    clock = "campaign.services.clock."
    ctx.campaign.refresh_from_db()
    if params.get("pause"):
        return service(clock + "pause")(campaign=ctx.campaign)
    if params.get("resume"):
        return service(clock + "resume")(campaign=ctx.campaign)
    deadline = None if params.get("clear") else (
        timezone.now() + dt.timedelta(seconds=float(params["in"])))
    return service(clock + "set_deadline")(campaign=ctx.campaign, deadline=deadline)


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
        "weapon": lambda n: ctx.weapons[n],
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
    from casebook.queries import run_query  # noqa: PLC0415 (cycle: casebook.actions -> casebook.queries -> casebook.actions)

    return run_query(ctx, params)


@action("battle")
def do_battle(ctx: Ctx, params: dict[str, Any]) -> Any:
    from casebook.battle import run_battle  # noqa: PLC0415 (cycle: casebook.actions -> casebook.battle -> casebook.actions)

    return run_battle(ctx, params)


# ---------------------------------------------------------------------------
# Battles on the campaign side: opening, jobs, recording
# ---------------------------------------------------------------------------


def _remember_battles(ctx: Ctx) -> None:
    for battle in Battle.objects.filter(campaign=ctx.campaign).select_related("territory"):
        ctx.battles[battle.territory.name] = battle


@action("open_battles")
def do_open_battles(ctx: Ctx, params: dict[str, Any]) -> Any:
    """The tactical phase opens: uncontested territories are taken, battles created (the
    second hook of entering the tactical phase; `advance` runs it too)."""
    open_battles = service("battles.services.opening.open_battles")
    ctx.campaign.refresh_from_db()
    battles = open_battles(campaign=ctx.campaign)
    _remember_battles(ctx)
    return [b.territory.name for b in battles]


def _battle_of(ctx: Ctx, territory: Any) -> Any:
    _remember_battles(ctx)
    try:
        return ctx.battles[str(territory)]
    except KeyError:
        raise GivenError(f"no battle was opened on {territory!r} "
                         f"(battles: {sorted(ctx.battles)})") from None


@action("record")
def do_record(ctx: Ctx, params: dict[str, Any]) -> Any:
    """A battle's result written into the campaign (`battles.services.recording`), as the
    engine or a tabletop entry reports it: `winner` (a player or null), `units` {unit:
    {fate, repairable, unrepairable, xp: [kinds]}} (units left out are intact),
    `buildings_destroyed` [names], `buildings` {name: hit points left}."""
    _need(params, "territory")
    record = service("battles.services.recording.record_result")
    battle = _battle_of(ctx, params["territory"])

    side_of = {p.unit_id: str(p.player_id) for p in battle.participants.all()}
    given = {ctx.unit(name).pk: spec or {} for name, spec in (params.get("units") or {}).items()}
    units, xp_events = [], []
    # Every participant is reported, as the engine does; a unit the case leaves out is
    # intact with the damage it brought.
    for unit in Unit.objects.filter(pk__in=list(side_of) + list(given)).order_by("pk"):
        spec = given.get(unit.pk, {})
        units.append({"id": unit.pk, "side": side_of.get(unit.pk, str(unit.player_id)),
                      "fate": spec.get("fate", "intact"),
                      "hit_points_left": int(spec.get("hit_points_left", 0)),
                      "repairable": int(spec.get("repairable", unit.damage_repairable)),
                      "unrepairable": int(spec.get("unrepairable", unit.damage_unrepairable))})
        for kind in spec.get("xp") or []:
            xp_events.append({"unit_id": unit.pk, "pilot_id": unit.pilot_id, "kind": kind})
    buildings = []
    for name, hp in (params.get("buildings") or {}).items():
        b = ctx.building(name)
        buildings.append({"id": b.pk, "kind": b.kind, "hit_points_left": int(hp),
                          "destroyed": int(hp) <= 0, "controller": str(battle.defender_id)})
    winner = params.get("winner")
    result = {"winner": None if winner is None else str(ctx.player(winner).pk),
              "units": units, "xp_events": xp_events, "buildings": buildings,
              "buildings_destroyed": [ctx.building(b).pk
                                      for b in params.get("buildings_destroyed") or []],
              "rounds": int(params.get("rounds", 1)), "end_reason": "casebook"}
    result.update(_campaign_outputs(ctx, battle, params))
    return record(battle_id=battle.pk, result=result,
                  source=str(params.get("source", "engine")))


def _campaign_outputs(ctx: Ctx, battle: Any, params: dict[str, Any]) -> dict[str, Any]:
    """What the engine reports beyond units and buildings, by the case's names:
    `missiles_used` {player: n} (R-BJ-11), `cargo` [{container: index in the battle's
    input, fate: taken|lost|left, taken_by: player, carrier: unit}] (R-BJ-12),
    `lab_piracies` [{unit, side: player, laboratory: building, difficulty, score,
    success}] (R-BJ-13)."""
    out: dict[str, Any] = {}
    side = lambda name: str(ctx.player(name).pk)  # noqa: E731
    if "missiles_used" in params:
        out["missiles_used"] = {side(n): int(c) for n, c in params["missiles_used"].items()}
    if "cargo" in params:
        listed = (battle.input or {}).get("cargo") or []
        cargo: list[dict[str, Any]] = []
        taken: dict[str, list[Any]] = {}
        for spec in params["cargo"]:
            index = int(spec.get("container", 0))
            if not 0 <= index < len(listed):
                raise GivenError(f"the battle lists {len(listed)} containers, not a "
                                 f"container {index}")
            c = listed[index]
            entry = {"id": c["id"], "owner": str(battle.defender_id),
                     "resource": c.get("resource", ""), "units": int(c.get("units", 0)),
                     "fate": str(spec.get("fate", "taken")), "taken_by": None,
                     "carrier": None, "lifter": None, "pos": None}
            if spec.get("taken_by") is not None:
                entry["taken_by"] = side(spec["taken_by"])
                taken.setdefault(entry["taken_by"], []).append(c["id"])
            if spec.get("carrier") is not None:
                entry["carrier"] = entry["lifter"] = ctx.unit(spec["carrier"]).pk
            cargo.append(entry)
        out["cargo"] = cargo
        out["cargo_taken"] = taken
    if "lab_piracies" in params:
        out["lab_piracies"] = [
            {"unit": ctx.unit(a["unit"]).pk, "side": side(a["side"]),
             "laboratory": ctx.building(a["laboratory"]).pk,
             "score": int(a.get("score", 0)), "difficulty": int(a.get("difficulty", 20)),
             "success": bool(a.get("success", False))}
            for a in params["lab_piracies"]]
    return out


@action("run_job")
def do_run_job(ctx: Ctx, params: dict[str, Any]) -> Any:
    """The battle job of a territory's battle (`battles.services.jobs.run_battle_job`):
    claim, resolve with the real engine and its default policy, record. The engine
    rolls the case's dice."""
    _need(params, "territory")
    run = service("battles.services.jobs.run_battle_job")

    battle = _battle_of(ctx, params["territory"])
    jobs_log = logging.getLogger("battles.services.jobs")
    quiet, jobs_log.disabled = jobs_log.disabled, True  # a failing job is the case's point
    try:
        return run(battle_id=battle.pk, dice=ctx.dice)
    finally:
        jobs_log.disabled = quiet


# The ruleset-neutral steps register themselves on import (after ACTIONS exists).
from casebook import ruleset_steps  # noqa: E402,F401
