"""Checking `then`: each key compares one part of the state (or of a result) with what
the case expects and returns sentences saying what differed.

Matching is partial: a mapping names only the fields that matter, a list must have the
same length and match item by item, `"*"` matches anything, and numbers compare by value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.db.models import Model
from django.forms.models import model_to_dict

from battles.models import Battle
from campaign.models import Event
from casebook.given import Ctx, GivenError
from casebook.queries import plain
from economy.models import Building, Stock
from economy.services.ledger import balance_from_ledger
from orders.models import Order
from territories.models import Exploration, Passage

Checker = Callable[[Ctx, Any], list[str]]
CHECKERS: dict[str, Checker] = {}
ANY = "*"


def checker(name: str) -> Callable[[Checker], Checker]:
    def register(fn: Checker) -> Checker:
        CHECKERS[name] = fn
        return fn
    return register


def show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:297] + "..."


def match(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Sentences for every place where `actual` does not match `expected`."""
    label = where or "value"
    if isinstance(expected, str) and expected == ANY:
        return []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{label}: expected a mapping {show(expected)}, got {show(actual)}"]
        diffs: list[str] = []
        for key, value in expected.items():
            k = str(key)
            if k not in actual:
                diffs.append(f"{label}.{k}: expected {show(value)}, got nothing")
            else:
                diffs.extend(match(value, actual[k], f"{label}.{k}" if where else k))
        return diffs
    if isinstance(expected, list):
        if not isinstance(actual, (list, tuple)):
            return [f"{label}: expected {show(expected)}, got {show(actual)}"]
        if len(expected) != len(actual):
            return [f"{label}: expected {show(expected)}, got {show(list(actual))}"]
        diffs = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            diffs.extend(match(e, a, f"{label}[{i}]"))
        return diffs
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = expected is actual or (expected == actual and type(expected) is type(actual))
    elif isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        same = abs(expected - actual) < 1e-6
    else:
        same = expected == actual
    return [] if same else [f"{label}: expected {show(expected)}, got {show(actual)}"]


def subsequence(expected: list[Any], actual: list[Any], where: str) -> list[str]:
    """Every expected item matches some actual item, in order (others may be between)."""
    i = 0
    for n, item in enumerate(expected):
        while i < len(actual) and match(item, actual[i]):
            i += 1
        if i >= len(actual):
            return [f"{where}: no entry matching {show(item)} (item {n + 1} of the expected "
                    f"list) in order among {len(actual)} entries"]
        i += 1
    return []


def as_data(value: Any) -> Any:
    """A result as plain data: model rows as dicts (with `id`), dataclasses as dicts."""
    if isinstance(value, Model):
        data = model_to_dict(value)
        data["id"] = value.pk
        return plain(data)
    if isinstance(value, (list, tuple)):
        return [as_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): as_data(v) for k, v in value.items()}
    return plain(value)


# ---------------------------------------------------------------------------
# Checkers
# ---------------------------------------------------------------------------


@checker("credits")
def c_credits(ctx: Ctx, expected: dict[str, int]) -> list[str]:
    diffs = []
    for name, amount in expected.items():
        player = ctx.player(name)
        player.refresh_from_db()
        diffs += match(amount, player.credits, f"credits of {name}")
        ledger = balance_from_ledger(player)
        if ledger != player.credits:
            diffs.append(f"credits of {name}: the cached balance {player.credits} differs "
                         f"from the ledger's sum {ledger}")
    return diffs


@checker("ledger")
def c_ledger(ctx: Ctx, expected: dict[str, list[dict[str, Any]]]) -> list[str]:
    diffs = []
    for name, entries in expected.items():
        player = ctx.player(name)
        rows = [{"reason": e.reason, "amount": e.amount, "detail": e.detail}
                for e in player.ledger.order_by("id") if e.detail != "casebook given"]
        diffs += match(entries, rows, f"ledger of {name}")
    return diffs


@checker("research_points")
def c_research(ctx: Ctx, expected: dict[str, int]) -> list[str]:
    diffs = []
    for name, points in expected.items():
        player = ctx.player(name)
        player.refresh_from_db()
        diffs += match(points, player.research_points, f"research points of {name}")
    return diffs


def _player_name(ctx: Ctx, player_id: int | None) -> str | None:
    if player_id is None:
        return None
    return next((n for n, p in ctx.players.items() if p.pk == player_id), f"#{player_id}")


def _territory_name(ctx: Ctx, territory_id: int | None) -> str | None:
    if territory_id is None:
        return None
    return next((n for n, t in ctx.territories.items() if t.pk == territory_id),
                f"#{territory_id}")


@checker("owners")
def c_owners(ctx: Ctx, expected: dict[str, str | None]) -> list[str]:
    diffs = []
    for name, owner in expected.items():
        t = ctx.territory(name)
        t.refresh_from_db()
        diffs += match(owner, _player_name(ctx, t.owner_id), f"owner of {name}")
    return diffs


@checker("explored")
def c_explored(ctx: Ctx, expected: dict[str, bool]) -> list[str]:
    diffs = []
    for name, flag in expected.items():
        t = ctx.territory(name)
        t.refresh_from_db()
        diffs += match(flag, t.ever_owned, f"{name} explored")
    return diffs


@checker("buildings")
def c_buildings(ctx: Ctx, expected: dict[str, dict[str, int]]) -> list[str]:
    """Number of buildings of each listed kind per territory."""
    diffs = []
    for name, kinds in expected.items():
        t = ctx.territory(name)
        for kind, count in kinds.items():
            have = Building.objects.filter(territory=t, kind=kind).count()
            diffs += match(count, have, f"{kind} buildings on {name}")
    return diffs


@checker("building")
def c_building(ctx: Ctx, expected: dict[str, dict[str, Any]]) -> list[str]:
    diffs = []
    for name, fields in expected.items():
        b = ctx.building(name)
        b.refresh_from_db()
        data = as_data(b)
        weapon = getattr(b, "weapon", None) if getattr(b, "weapon_id", None) else None
        data["weapon_name"] = weapon.weapon if weapon is not None else None
        for key in ("product", "next_product"):  # a case may write a line as "a;b"
            if isinstance(fields.get(key), str):
                data[key] = ";".join(data.get(key) or ())
        diffs += match(fields, data, f"building {name}")
    return diffs


def _stock_key(resource: str, refined: bool, pure: bool) -> str:
    return resource + (":refined" if refined else "") + (":pure" if pure else "")


@checker("stock")
def c_stock(ctx: Ctx, expected: dict[str, dict[str, int]]) -> list[str]:
    """Units per resource key (`minerals`, `minerals:refined`, `minerals:pure`); a kind
    not stored counts as 0."""
    diffs = []
    for name, kinds in expected.items():
        have: dict[str, int] = {}
        for s in Stock.objects.filter(territory=ctx.territory(name)):
            key = _stock_key(s.resource, s.refined, s.pure)
            have[key] = have.get(key, 0) + s.units
        for key, units in kinds.items():
            diffs += match(units, have.get(key, 0), f"stock of {key} on {name}")
    return diffs


@checker("exploration")
def c_exploration(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    diffs = []
    for name, fields in expected.items():
        row = Exploration.objects.filter(territory=ctx.territory(name)).first()
        if fields is None:
            if row is not None:
                diffs.append(f"exploration of {name}: expected none, got {row.resource}")
            continue
        if row is None:
            diffs.append(f"exploration of {name}: expected {show(fields)}, got none")
            continue
        data = as_data(row)
        data["player"] = _player_name(ctx, row.player_id)
        diffs += match(fields, data, f"exploration of {name}")
    return diffs


@checker("units")
def c_units(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    diffs = []
    for uid, fields in expected.items():
        unit = ctx.unit(uid)
        unit.refresh_from_db()
        data = as_data(unit)
        data["territory"] = _territory_name(ctx, unit.territory_id)
        data["player"] = _player_name(ctx, unit.player_id)
        data["weapons"] = sorted(w.weapon for w in unit.weapons.all())
        if unit.pilot_id:
            data["pilot"] = {"class": unit.pilot.klass, "level": unit.pilot.level,
                             "xp": unit.pilot.xp, "alive": unit.pilot.alive}
        diffs += match(fields, data, f"unit {uid}")
    return diffs


@checker("operatives")
def c_operatives(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    diffs = []
    for name, fields in expected.items():
        op = ctx.operative(name)
        op.refresh_from_db()
        data = as_data(op)
        data["class"] = op.klass
        data["territory"] = _territory_name(ctx, op.territory_id)
        data["player"] = _player_name(ctx, op.player_id)
        diffs += match(fields, data, f"operative {name}")
    return diffs


def _events(ctx: Ctx) -> list[dict[str, Any]]:
    since = ctx.results.get("__first_event__", 0)
    return [{"kind": e.kind, "data": e.data, "visibility": e.visibility, "turn": e.turn,
             "phase": e.phase}
            for e in Event.objects.filter(campaign=ctx.campaign, pk__gt=since).order_by("id")]


@checker("journal")
def c_journal(ctx: Ctx, expected: Any) -> list[str]:
    """Events written during `when`: a list (in order, others may be between) of
    `{kind, data, visibility}`, or a mapping kind -> number of such events."""
    events = _events(ctx)
    if isinstance(expected, dict):
        diffs = []
        for kind, count in expected.items():
            diffs += match(count, sum(1 for e in events if e["kind"] == kind),
                           f"journal entries of kind {kind}")
        return diffs
    return subsequence(list(expected), events, "journal")


@checker("journal_size")
def c_journal_size(ctx: Ctx, expected: int) -> list[str]:
    """How many journal entries `when` wrote (any kind, any visibility)."""
    events = _events(ctx)
    return match(expected, len(events), f"journal entries written ({[e['kind'] for e in events]})")


@checker("result")
def c_result(ctx: Ctx, expected: Any) -> list[str]:
    return match(expected, as_data(ctx.last), "result")


@checker("results")
def c_results(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    diffs = []
    for name, value in expected.items():
        if name not in ctx.results:
            diffs.append(f"result {name}: no step was kept under this name")
            continue
        diffs += match(value, as_data(ctx.results[name]), f"result {name}")
    return diffs


@checker("battle")
def c_battle(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    if "__battle__" not in ctx.results:
        return ["battle: the case played no battle"]
    actual = ctx.results["__battle__"]
    expected = dict(expected)
    diffs: list[str] = []
    log = expected.pop("log", None)
    if log is not None:
        diffs += subsequence(list(log), actual.get("log", []), "battle log")
    no_log = expected.pop("no_log", None)
    for item in no_log or []:
        if any(not match(item, entry) for entry in actual.get("log", [])):
            diffs.append(f"battle log: an entry matches {show(item)}, expected none")
    diffs += match(expected, actual, "battle")
    return diffs


@checker("phase")
def c_phase(ctx: Ctx, expected: str) -> list[str]:
    ctx.campaign.refresh_from_db()
    return match(expected, ctx.campaign.phase, "phase")


@checker("turn")
def c_turn(ctx: Ctx, expected: int) -> list[str]:
    ctx.campaign.refresh_from_db()
    return match(expected, ctx.campaign.turn, "turn")


@checker("rows")
def c_rows(ctx: Ctx, expected: dict[str, int]) -> list[str]:
    """Number of rows of a model in the campaign, e.g. `economy.Trade: 1`."""
    diffs = []
    for label, count in expected.items():
        model = apps.get_model(label)
        diffs += match(count, model.objects.count(), f"rows of {label}")
    return diffs


@checker("battles")
def c_battles(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    """The battle opened on a territory (or `null`: none): `defender`, `winner`, `status`,
    `order`, `attackers` (player names), `participants` {unit: {reinforcement, origin}}."""
    diffs = []
    for name, fields in expected.items():
        battle = Battle.objects.filter(campaign=ctx.campaign,
                                       territory=ctx.territory(name)).first()
        if fields is None or battle is None:
            if (fields is None) != (battle is None):
                diffs.append(f"battle on {name}: expected {show(fields)}, got "
                             f"{'none' if battle is None else 'one'}")
            continue
        data: dict[str, Any] = {
            "status": battle.status, "order": battle.order, "mode": battle.mode,
            "defender": _player_name(ctx, battle.defender_id),
            "winner": _player_name(ctx, battle.winner_id),
            "attackers": sorted(_player_name(ctx, s["player"]) or "" for s in battle.sides
                                if s.get("role") == "attacker"),
            "recorded": hasattr(battle, "record"), "attempts": battle.attempts,
            "quarantined": battle.quarantined, "error": bool(battle.error),
            "buildings": len(battle.input.get("buildings") or []),
            "participants": {}}
        names = {u.pk: n for n, u in ctx.units.items()}
        data["missiles"] = _battle_missiles(ctx, battle)
        data["cargo"] = [{"resource": c.get("resource"), "units": c.get("units"),
                          "x": c.get("x"), "y": c.get("y")}
                         for c in (battle.input or {}).get("cargo") or []]
        for p in battle.participants.all():
            data["participants"][names.get(p.unit_id, f"#{p.unit_id}")] = {
                "player": _player_name(ctx, p.player_id), "reinforcement": p.reinforcement,
                "origin": _territory_name(ctx, p.origin_id)}
        diffs += match(fields, data, f"battle on {name}")
    return diffs


def _battle_missiles(ctx: Ctx, battle: Any) -> dict[str, list[dict[str, Any]]]:
    """The silo missiles each side may call in (R-BJ-11), by player name, in the order
    listed: `{silo_distance, silo: building name}`; every side of the battle is named
    (an empty list: none)."""
    silos = {b.pk: n for n, b in ctx.buildings.items()}
    listed = dict((battle.input or {}).get("missiles") or {})
    for s in battle.sides:
        listed.setdefault(str(s["player"]), [])
    return {(_player_name(ctx, int(side)) if str(side).isdigit() else str(side)) or "": [
        {"silo_distance": m.get("silo_distance"),
         "silo": silos.get(m.get("silo"), m.get("silo"))} for m in missiles]
        for side, missiles in listed.items()}


@checker("orders")
def c_orders(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    """This turn's order of a unit (or `null`: none): `status`, `announced`,
    `destination`, `origin`."""
    diffs = []
    ctx.campaign.refresh_from_db()
    for uid, fields in expected.items():
        order = Order.objects.filter(campaign=ctx.campaign, unit=ctx.unit(uid)).order_by(
            "-turn").first()
        if fields is None or order is None:
            if (fields is None) != (order is None):
                diffs.append(f"order of {uid}: expected {show(fields)}, got "
                             f"{'none' if order is None else order.status}")
            continue
        data = {"status": order.status, "announced": order.announced, "turn": order.turn,
                "destination": _territory_name(ctx, order.destination_id),
                "origin": _territory_name(ctx, order.origin_id)}
        diffs += match(fields, data, f"order of {uid}")
    return diffs


@checker("players")
def c_players(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    """A seat's fields: `missed_turns`, `ready`, `user` (the user name holding it)."""
    diffs = []
    for name, fields in expected.items():
        player = ctx.player(name)
        player.refresh_from_db()
        data = {"missed_turns": player.missed_turns, "ready": player.ready,
                "user": player.user.get_username(), "credits": player.credits,
                "research_points": player.research_points}
        diffs += match(fields, data, f"player {name}")
    return diffs


@checker("layout")
def c_layout(ctx: Ctx, expected: dict[str, dict[str, Any]]) -> list[str]:
    """Where the (first) building of each kind stands on a territory, and its state:
    `{Alpha: {station: {x: 7, y: 7, active: true}}}`."""
    diffs = []
    for name, kinds in expected.items():
        for kind, fields in kinds.items():
            b = Building.objects.filter(territory=ctx.territory(name), kind=kind).order_by(
                "pk").first()
            if b is None:
                diffs.append(f"layout of {name}: no {kind}")
                continue
            diffs += match(fields, as_data(b), f"{kind} on {name}")
    return diffs


@checker("passages")
def c_passages(ctx: Ctx, expected: dict[str, list[str]]) -> list[str]:
    """The territories each grantee holds a right of passage over (sorted names)."""
    diffs = []
    for name, territories in expected.items():
        have = sorted(_territory_name(ctx, t) or "" for t in Passage.objects.filter(
            grantee=ctx.player(name)).values_list("territory_id", flat=True))
        diffs += match(sorted(territories), have, f"passages of {name}")
    return diffs


@checker("clock")
def c_clock(ctx: Ctx, expected: dict[str, Any]) -> list[str]:
    """The campaign clock: `paused`, `deadline` (true: one is set, null: none),
    `remaining` (true: time kept while paused, null: none)."""
    ctx.campaign.refresh_from_db()
    c = ctx.campaign
    data = {"paused": c.paused, "deadline": True if c.phase_deadline else None,
            "remaining": True if c.paused_remaining is not None else None,
            "status": c.status}
    return match(expected, data, "clock")


# Keys the runner handles itself.
RUNNER_KEYS = frozenset({"error", "errors", "dice_left"})


def check_then(ctx: Ctx, then: dict[str, Any]) -> list[str]:
    diffs: list[str] = []
    for key, expected in then.items():
        if key in RUNNER_KEYS:
            continue
        if key not in CHECKERS:
            raise GivenError(f"unknown expectation {key!r}; known: "
                             f"{', '.join(sorted({*CHECKERS, *RUNNER_KEYS}))}")
        diffs += CHECKERS[key](ctx, expected)
    return diffs
