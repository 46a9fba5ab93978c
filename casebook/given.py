"""Building the state a case starts from (`given`), with defaults for what is not said.

Defaults: the line map Alpha-Beta-Gamma-Delta-Epsilon, players alice and bob with no
credits, a running campaign in turn 1's commercial phase, nothing owned, no buildings.
Rows are created directly (the state *before* the rule under test), except credits,
which go through the ledger so the balance and its entries agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from campaign.models import Campaign, Player
from campaign.rules import BUILDINGS, STARTING_BUILDINGS, notation
from campaign.rulesets import DEFAULT as DEFAULT_RULESET
from campaign.services.campaigns import campaign_create
from economy.models import Building, BuildingKit, Operative, Stock, Unit, Weapon
from economy.services.export import stored_line
from economy.services.grid import STARTING_SQUARES
from economy.services.ledger import post
from territories.models import Exploration, Passage, Territory

DEFAULT_MAP = {
    "nodes": ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"],
    "edges": [["Alpha", "Beta"], ["Beta", "Gamma"], ["Gamma", "Delta"], ["Delta", "Epsilon"]],
}
DEFAULT_PLAYERS = ("alice", "bob")
GIVEN_KEYS = frozenset({"map", "players", "holdings", "explored", "buildings",
                        "starting_buildings", "deposits", "operatives", "units", "weapons",
                        "stock", "passages", "settings", "turn", "phase", "status", "seed",
                        "kits"})
# Inverse of the mine yield table, to store plausible dice for a deposit given by fields.
_ACTIVE_FOR_YIELD = {1: 1, 2: 2, 3: 4, 4: 6, 5: 8}


class GivenError(ValueError):
    """`given` names something that does not exist or is malformed."""


@dataclass
class Ctx:
    """Everything a case refers to by name while it runs."""

    campaign: Campaign
    umpire: Any
    players: dict[str, Player] = field(default_factory=dict)
    territories: dict[str, Any] = field(default_factory=dict)
    buildings: dict[str, Any] = field(default_factory=dict)
    units: dict[str, Any] = field(default_factory=dict)
    operatives: dict[str, Any] = field(default_factory=dict)
    weapons: dict[str, Any] = field(default_factory=dict)
    results: dict[str, Any] = field(default_factory=dict)
    last: Any = None
    errors: list[tuple[int, str, str]] = field(default_factory=list)
    dice: Any = None
    battles: dict[str, Any] = field(default_factory=dict)
    kits: dict[str, Any] = field(default_factory=dict)
    ruleset: str = DEFAULT_RULESET

    # --- look-ups by the names the case uses ---------------------------------------
    def player(self, name: Any) -> Player:
        try:
            return self.players[str(name)]
        except KeyError:
            raise GivenError(f"unknown player {name!r} (given: {sorted(self.players)})") from None

    def territory(self, name: Any) -> Any:
        try:
            return self.territories[str(name)]
        except KeyError:
            raise GivenError(f"unknown territory {name!r}") from None

    def building(self, name: Any) -> Any:
        try:
            return self.buildings[str(name)]
        except KeyError:
            raise GivenError(f"unknown building {name!r} (name it with 'name:')") from None

    def unit(self, name: Any) -> Any:
        try:
            return self.units[str(name)]
        except KeyError:
            raise GivenError(f"unknown unit {name!r}") from None

    def operative(self, name: Any) -> Any:
        if str(name) in self.operatives:
            return self.operatives[str(name)]
        if str(name) in self.units and self.units[str(name)].pilot_id:
            self.units[str(name)].refresh_from_db()
            return self.units[str(name)].pilot
        raise GivenError(f"unknown operative {name!r}")

    def refresh(self) -> None:
        """Reload the campaign and every seat (one query each, not one per field set)."""
        self.campaign = Campaign.objects.get(pk=self.campaign.pk)
        fresh = {p.pk: p for p in Player.objects.filter(campaign=self.campaign)}
        for name, p in list(self.players.items()):
            row = fresh.get(p.pk)
            if row is not None:
                row.campaign = self.campaign
                self.players[name] = row


_USERS: dict[str, Any] = {}


def prepare_users(names: set[str]) -> None:
    """Create the users every case needs once, before the cases' transactions (the
    throwaway database keeps them; a case only ever creates its own campaign rows)."""
    user_model = get_user_model()
    _USERS.clear()
    for name in sorted(names | {"uma"}):
        _USERS[name], _ = user_model.objects.get_or_create(username=name)


def _user(username: str) -> Any:
    if username in _USERS:
        return _USERS[username]
    user, _ = get_user_model().objects.get_or_create(username=username)
    return user


def _with_positions(spec: Any) -> Any:
    """An explicit map (nodes and edges) handed over as a node-link import laid out on a
    circle: the layout is only the map's picture (no rule reads it), and the force
    layout an explicit map gets otherwise is the slowest part of creating a campaign,
    which every case does. Names, order and edges are unchanged."""
    if not isinstance(spec, dict) or set(spec) - {"nodes", "edges"} \
            or not isinstance(spec.get("nodes"), list) or not spec["nodes"]:
        return spec
    nodes = [str(n) for n in spec["nodes"]]
    step = 2 * math.pi / len(nodes)
    return {"format": "node_link", "data": {
        "directed": False, "multigraph": False, "graph": {},
        "nodes": [{"id": n, "x": round(0.5 + 0.5 * math.cos(i * step), 6),
                   "y": round(0.5 + 0.5 * math.sin(i * step), 6)}
                  for i, n in enumerate(nodes)],
        "links": [{"source": str(a), "target": str(b)} for a, b in spec.get("edges") or []]}}


def build(given: dict[str, Any]) -> Ctx:
    """Create the campaign and every row `given` describes; return the context."""
    unknown = set(given) - GIVEN_KEYS
    if unknown:
        raise GivenError(f"unknown 'given' key(s): {', '.join(sorted(unknown))}")
    umpire = _user("uma")
    campaign = campaign_create(umpire=umpire, name="casebook",
                               map_spec=_with_positions(given.get("map", DEFAULT_MAP)),
                               options=given.get("settings") or {},
                               seed=int(given.get("seed", 8)))
    campaign.status = given.get("status", Campaign.Status.RUNNING)
    campaign.turn = int(given.get("turn", 1))
    campaign.phase = given.get("phase", "commercial")
    campaign.save(update_fields=["status", "turn", "phase"])
    ctx = Ctx(campaign=campaign, umpire=umpire)
    ctx.territories = {t.name: t for t in Territory.objects.filter(campaign=campaign)}
    _players(ctx, given.get("players", list(DEFAULT_PLAYERS)))
    _holdings(ctx, given.get("holdings") or {}, given.get("explored") or [])
    for name in given.get("starting_buildings") or []:
        _starting_buildings(ctx, name)
    for spec in given.get("buildings") or []:
        _building(ctx, spec)
    for spec in given.get("deposits") or []:
        _deposit(ctx, spec)
    for spec in given.get("operatives") or []:
        _operative(ctx, spec)
    for spec in given.get("units") or []:
        _unit(ctx, spec)
    for spec in given.get("weapons") or []:
        _stored_weapon(ctx, spec)
    for spec in given.get("stock") or []:
        _stock(ctx, spec)
    for spec in given.get("passages") or []:
        _passage(ctx, spec)
    for spec in given.get("kits") or []:
        _kit(ctx, spec)
    ctx.refresh()
    return ctx


def _players(ctx: Ctx, spec: Any) -> None:
    if isinstance(spec, list):
        spec = {name: {} for name in spec}
    if not isinstance(spec, dict):
        raise GivenError("'players' must be a list of names or a mapping name -> {credits}")
    for name, attrs in spec.items():
        attrs = attrs or {}
        if isinstance(attrs, int):
            attrs = {"credits": attrs}
        player = Player.objects.create(campaign=ctx.campaign, user=_user(str(name)),
                                       research_points=int(attrs.get("research_points", 0)))
        player.campaign = ctx.campaign
        credits = int(attrs.get("credits", 0))
        if credits:
            with transaction.atomic():
                post(player=player, amount=credits, reason="starting_credits",
                     detail="casebook given")
        ctx.players[str(name)] = player


def _holdings(ctx: Ctx, holdings: dict[str, Any], explored: list[str]) -> None:
    for owner, names in holdings.items():
        player = ctx.player(owner)
        for name in names:
            t = ctx.territory(name)
            t.owner = player
            t.ever_owned = True
            t.save(update_fields=["owner", "ever_owned"])
    for name in explored:
        t = ctx.territory(name)
        t.ever_owned = True
        t.save(update_fields=["ever_owned"])


def _starting_buildings(ctx: Ctx, territory: str) -> None:
    for kind in STARTING_BUILDINGS:
        x, y = STARTING_SQUARES[kind]
        _building(ctx, {"territory": territory, "kind": kind, "x": x, "y": y, "active": True,
                        "name": f"{territory}:{kind}"})



def _building(ctx: Ctx, spec: dict[str, Any]) -> None:
    kind = spec["kind"]
    if kind not in BUILDINGS:
        raise GivenError(f"unknown building kind {kind!r}")
    territory = ctx.territory(spec["territory"])
    if "x" in spec and "y" in spec:
        x, y = int(spec["x"]), int(spec["y"])
    else:  # next free square from the top-left corner, row by row
        taken = set(Building.objects.filter(territory=territory).values_list("x", "y"))
        x, y = next((i % 16, i // 16) for i in range(256) if (i % 16, i // 16) not in taken)
    fields: dict[str, Any] = {
        "territory": territory, "kind": kind, "x": x, "y": y,
        "active": bool(spec.get("active", False)),
        "hit_points": int(spec.get("hit_points", BUILDINGS[kind].hit_points)),
        "upgrades": list(spec.get("upgrades") or []),
        "built_turn": int(spec.get("built_turn", 0)),
    }
    for key in ("missiles", "refit_turn"):
        if key in spec:
            fields[key] = spec[key]
    for key in ("product", "next_product"):  # "vehicle:golem" or a list of item codes
        if key in spec:
            fields[key] = stored_line(spec[key])
    building = Building.objects.create(**fields)
    name = spec.get("name") or f"{territory.name}:{kind}"
    if name in ctx.buildings and not spec.get("name"):
        name = f"{name}#{building.pk}"
    ctx.buildings[str(name)] = building


def _deposit(ctx: Ctx, spec: dict[str, Any]) -> None:
    territory = ctx.territory(spec["territory"])
    units = int(spec.get("units_per_shaft", 1))
    pure = bool(spec.get("pure", False))
    unstable = bool(spec.get("unstable", False))
    dice = spec.get("dice") or [_ACTIVE_FOR_YIELD.get(units, 1), 7 if pure else 1,
                                1 if unstable else 4]
    owner = territory.owner
    Exploration.objects.create(
        campaign=ctx.campaign, territory=territory, player=owner, turn=ctx.campaign.turn,
        active_die=dice[0], passive_die=dice[1], nemesis_die=dice[2],
        resource=spec.get("resource", "minerals"), units_per_shaft=units, pure=pure,
        unstable=unstable, discovery=spec.get("discovery", "") or "",
        credits_awarded=int(spec.get("credits_awarded", 0)))
    if not territory.ever_owned:
        territory.ever_owned = True
        territory.save(update_fields=["ever_owned"])


def _operative(ctx: Ctx, spec: dict[str, Any], *, name: str | None = None) -> Any:
    klass = spec.get("class", "soldier")
    operative = Operative.objects.create(
        player=ctx.player(spec["player"]),
        territory=ctx.territory(spec["territory"]) if spec.get("territory") else None,
        klass=klass, name=str(spec.get("name") or name or ""),
        level=int(spec.get("level", 1)), xp=int(spec.get("xp", 0)),
        alive=bool(spec.get("alive", True)))
    ctx.operatives[str(spec.get("name") or name or f"op{operative.pk}")] = operative
    return operative


def weapon_spec(raw: Any) -> tuple[str, list[str]]:
    """A weapon as a case writes it (`campaign.rules.notation.weapon_spec`)."""
    try:
        return notation.weapon_spec(raw)
    except ValueError as exc:
        raise GivenError(str(exc)) from None


def _unit(ctx: Ctx, spec: dict[str, Any]) -> None:
    uid = str(spec["id"])
    player = ctx.player(spec["player"])
    territory = ctx.territory(spec["territory"]) if spec.get("territory") else None
    pilot = None
    if spec.get("pilot"):
        p = spec["pilot"]
        if isinstance(p, str):
            p = {"class": p}
        pilot = _operative(ctx, {"player": spec["player"], "territory": spec.get("territory"),
                                 **p}, name=p.get("name") or f"{uid}.pilot")
    damage = spec.get("damage") or {}
    unit = Unit.objects.create(
        player=player, territory=territory, model=spec.get("model", "golem"),
        name=str(spec.get("name", uid)), pilot=pilot,
        damage_repairable=int(damage.get("repairable", 0)),
        damage_unrepairable=int(damage.get("unrepairable", 0)),
        extension=bool(spec.get("extension", False)),
        status=spec.get("status", Unit.Status.READY),
        locked_until_turn=int(spec.get("locked_until_turn", 0)))
    for slot, raw in enumerate(spec.get("weapons") or []):
        key, templates = weapon_spec(raw)
        w = Weapon.objects.create(player=player, territory=territory, weapon=key,
                                  templates=templates, unit=unit, slot=slot)
        ctx.weapons[f"{uid}.{slot}"] = w
    ctx.units[uid] = unit


def _stored_weapon(ctx: Ctx, spec: dict[str, Any]) -> None:
    key, templates = weapon_spec(spec)
    w = Weapon.objects.create(player=ctx.player(spec["player"]),
                              territory=ctx.territory(spec["territory"]), weapon=key,
                              templates=templates)
    ctx.weapons[str(spec.get("name") or f"w{w.pk}")] = w


def _stock(ctx: Ctx, spec: dict[str, Any]) -> None:
    Stock.objects.create(territory=ctx.territory(spec["territory"]),
                         resource=spec["resource"], refined=bool(spec.get("refined", False)),
                         pure=bool(spec.get("pure", False)), units=int(spec["units"]))


def _passage(ctx: Ctx, spec: dict[str, Any]) -> None:
    Passage.objects.create(campaign=ctx.campaign, grantor=ctx.player(spec["grantor"]),
                           grantee=ctx.player(spec["grantee"]),
                           territory=ctx.territory(spec["territory"]))


def _kit(ctx: Ctx, spec: dict[str, Any]) -> None:
    """A building kit a factory made earlier (R-ECO-18), unused."""
    kind = spec["kind"]
    if kind not in BUILDINGS:
        raise GivenError(f"unknown building kind {kind!r}")
    kit = BuildingKit.objects.create(
        player=ctx.player(spec["player"]), kind=kind,
        territory=ctx.territory(spec["territory"]) if spec.get("territory") else None,
        made_turn=int(spec.get("made_turn", 0)))
    ctx.kits[str(spec.get("name") or f"kit{kit.pk}")] = kit
