"""A campaign driven to a given phase through the real services, for the security tests.

Map: four territories, every one next to every other (so the two starting territories
are neighbours and a move can end in a battle). Every player buys, in the commercial
phase of turn 1, two Lycaons, two soldiers, a warehouse and a machine gun; alice also builds a
factory, offers bob a trade and grants bob passage over her home. In the activity
phase each player crews both units and fits the gun on the first; alice asks for the
odds of a fight on bob's home. In the move phase alice seals an order (a1 -> bob's
home: a battle at the reveal). The tactical phase opens through the real clock (the
reveal, then the battle job run to the end).

Two campaigns are built the same way: "plain" (uma umpires and does not play) and
"plays" (uma umpires and also plays, with `umpire_sees_orders` on: she must still see
nothing). Each one's object ids are the other one's cross-campaign ids.

"finished" is not reachable through any service (no service ends a campaign); it is
set directly on the row, so the matrix shows what a finished campaign would answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models.query import ValuesListIterable

from campaign.models import Campaign, Player
from campaign.services import clock
from campaign.services.campaigns import campaign_create, campaign_join

PASSWORD = "correct-horse-battery-staple"
NONEXISTENT = 987_654_321
PHASES = ("setup", "commercial", "activity", "move", "tactical", "finished")
RUNNING_PHASES = ("commercial", "activity", "move", "tactical")
ROLES = ("umpire", "plays", "owner", "other", "nonmember", "anon")
ROLE_USER = {"umpire": "uma", "plays": "uma", "owner": "alice", "other": "bob",
             "nonmember": "charlie"}

K4 = {"nodes": ["Alpha", "Beta", "Gamma", "Delta"],
      "edges": [["Alpha", "Beta"], ["Alpha", "Gamma"], ["Alpha", "Delta"],
                ["Beta", "Gamma"], ["Beta", "Delta"], ["Gamma", "Delta"]]}


def users() -> dict[str, Any]:
    User = get_user_model()
    out = {}
    for name in ("uma", "alice", "bob", "charlie", "dave"):
        out[name] = (User.objects.filter(username=name).first()
                     or User.objects.create_user(username=name, password=PASSWORD))
    return out


@dataclass
class World:
    campaign: Campaign
    config: str
    phase: str
    players: dict[str, Player]  # "alice", "bob" (and "uma" when the umpire plays)
    ids: dict[str, int] = field(default_factory=dict)  # named objects of the campaign

    @property
    def cid(self) -> int:
        return self.campaign.pk

    def id(self, name: str) -> int:
        """The id of a named object, or an id that does not exist when the object does
        not exist (yet) in this phase."""
        return self.ids.get(name, NONEXISTENT)


def _home(player: Player):
    return player.territories.order_by("pk").first()


def build_world(*, config: str, phase: str) -> World:
    """A campaign of configuration `config` ("plain" or "plays") in `phase`."""
    return advance_world(new_world(config=config), phase)


def new_world(*, config: str) -> World:
    """A campaign of configuration `config` in set-up, with its players seated."""
    u = users()
    plays = config == "plays"
    options = {"umpire_sees_orders": True} if plays else {}
    campaign = campaign_create(umpire=u["uma"], name=f"Security {config}", map_spec=dict(K4),
                               options=options, seed=7)
    players = {}
    for name in ("alice", "bob", *(("uma",) if plays else ())):
        players[name] = campaign_join(campaign_id=campaign.pk, user=u[name],
                                      invite=campaign.invite_code)
    world = World(campaign=campaign, config=config, phase="setup", players=players)
    ids = world.ids
    ids.update({f"player_{n}": p.pk for n, p in players.items()})
    from territories.models import Territory

    for t in Territory.objects.filter(campaign=campaign):
        ids[f"territory_{t.name}"] = t.pk
    return _refresh(world)


def advance_world(world: World, phase: str) -> World:
    """Take `world` on from its phase to `phase` (not an earlier one), one phase after
    the other through the steps below: `build_world(phase=P)` and a world taken to P
    phase by phase are made by the same calls in the same order (issue 32, item 7: the
    security modules share one world per phase instead of building it again)."""
    here, there = PHASES.index(world.phase), PHASES.index(phase)
    assert here <= there, (world.phase, phase)
    for step in PHASES[here + 1:there + 1]:
        _STEPS[step](world)
        world.phase = step
    return _refresh(world)


def _to_commercial(world: World) -> None:
    from campaign.services.setup import campaign_start
    from economy.models import Building
    from economy.services.buildings import building_create
    from economy.services.commerce import purchase
    from economy.services.grid import free_squares
    from economy.services.trades import trade_create
    from territories.models import Territory
    from territories.services.passages import grant_passage

    campaign, players, ids = world.campaign, world.players, world.ids
    campaign_start(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    for p in players.values():
        p.refresh_from_db()
        p.campaign = campaign
    for name, p in players.items():
        home = _home(p)
        ids[f"home_{name}"] = home.pk
        for key in ("1", "2"):
            ids[f"unit_{name}{key}"] = purchase(player=p, territory_id=home.pk, item={
                "kind": "vehicle", "model": "lycaon"})["unit"]
            ids[f"pilot_{name}{key}"] = purchase(player=p, territory_id=home.pk, item={
                "kind": "operative", "class": "soldier"})["pilot"]
        x, y = free_squares(home)[0]
        building_create(player=p, territory_id=home.pk, kind="warehouse", x=x, y=y)
        ids[f"weapon_{name}"] = purchase(player=p, territory_id=home.pk, item={
            "kind": "weapon", "weapon": "machine_gun", "templates": []})["weapon"]
        ids[f"building_{name}"] = Building.objects.filter(
            territory=home, kind="power_plant").values_list("pk", flat=True).first()
    alice, bob = players["alice"], players["bob"]
    x, y = free_squares(_home(alice))[0]
    ids["factory_alice"] = building_create(player=alice, territory_id=ids["home_alice"],
                                           kind="factory", x=x, y=y).pk
    ids["trade"] = trade_create(player=alice, to_player=bob.pk, give={"credits": 1},
                                receive={}).pk
    ids["passage"] = grant_passage(grantor=alice, grantee=bob,
                                   territories=[ids["home_alice"]])[0].pk
    free = sorted(set(Territory.objects.filter(campaign=campaign, owner__isnull=True)
                      .values_list("pk", flat=True)))
    ids["free"] = free[0]


def _to_activity(world: World) -> None:
    from battles.services import odds
    from economy.services.units import unit_update

    campaign, players, ids = world.campaign, world.players, world.ids
    _advance(campaign)
    for name, p in players.items():
        p.refresh_from_db()
        p.campaign = campaign
        for key in ("1", "2"):
            unit_update(player=p, unit_id=ids[f"unit_{name}{key}"],
                        pilot=ids[f"pilot_{name}{key}"])
        unit_update(player=p, unit_id=ids[f"unit_{name}1"], weapons=[ids[f"weapon_{name}"]])
    ids["odds"] = odds.request_odds(player=players["alice"], territory_id=ids["home_bob"],
                                    unit_ids=[ids["unit_alice1"]],
                                    enemy=[{"model": "lycaon"}], simulations=2).pk


def _to_move(world: World) -> None:
    from orders.services.sealing import order_submit

    campaign, alice, ids = world.campaign, world.players["alice"], world.ids
    _advance(campaign)
    alice.refresh_from_db()
    alice.campaign = campaign
    ids["order"] = order_submit(player=alice, unit_id=ids["unit_alice1"],
                                destination_id=ids["home_bob"]).public_id


def _to_tactical(world: World) -> None:
    from battles.models import Battle

    _advance(world.campaign, run_jobs=True)
    battle = Battle.objects.filter(campaign=world.campaign).order_by("pk").first()
    if battle is not None:
        world.ids["battle"] = battle.pk


def _to_finished(world: World) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(status=Campaign.Status.FINISHED)


_STEPS = {"commercial": _to_commercial, "activity": _to_activity, "move": _to_move,
          "tactical": _to_tactical, "finished": _to_finished}


def _advance(campaign: Campaign, *, run_jobs: bool = False) -> None:
    """Advance with the real clock; optionally run the jobs queued on commit (battles,
    odds) as a worker would."""
    from django.db import connection

    if not run_jobs:
        clock.advance(campaign_id=campaign.pk, by="umpire")
        campaign.refresh_from_db()
        return
    start = len(connection.run_on_commit)
    with transaction.atomic():
        clock.advance(campaign_id=campaign.pk, by="umpire")
    callbacks = connection.run_on_commit[start:]
    del connection.run_on_commit[start:]
    for _sids, func, _robust in callbacks:
        func()
    campaign.refresh_from_db()


def _refresh(world: World) -> World:
    world.campaign.refresh_from_db()
    for p in world.players.values():
        p.refresh_from_db()
        p.campaign = world.campaign
    return world


def _snapshot_querysets() -> dict[str, Any]:
    """What `nothing_changed_snapshot` reads: rows (sorted) or counts."""
    from battles.models import Battle, OddsRequest
    from campaign.models import Event
    from economy.models import Building, LedgerEntry, Operative, Stock, Trade, Unit, Weapon
    from orders.models import Order
    from territories.models import Passage, Territory

    return {
        "campaigns": Campaign.objects.values_list(
            "pk", "status", "turn", "phase", "phase_deadline", "paused", "options"),
        "players": Player.objects.values_list(
            "pk", "user_id", "credits", "research_points", "ready", "notifications"),
        "ledger": LedgerEntry.objects.all(),
        "stock": Stock.objects.values_list("territory", "resource", "refined", "pure",
                                           "units"),
        "units": Unit.objects.values_list("pk", "player", "territory", "pilot",
                                          "status", "extension"),
        "weapons": Weapon.objects.values_list("pk", "player", "territory", "unit",
                                              "slot"),
        "operatives": Operative.objects.values_list("pk", "player", "territory"),
        "buildings": Building.objects.values_list("pk", "kind", "x", "y", "active",
                                                  "upgrades", "product"),
        "orders": Order.objects.values_list("pk", "unit", "destination", "status"),
        "trades": Trade.objects.values_list("pk", "status"),
        "passages": Passage.objects.all(),
        "territories": Territory.objects.values_list("pk", "owner"),
        "battles": Battle.objects.values_list("pk", "status"),
        "odds": OddsRequest.objects.all(),
        "events": Event.objects.all(),
    }


_SNAPSHOT_SQL: dict[str, list[tuple[str, str, tuple[Any, ...]]]] = {}


def _snapshot_sql() -> list[tuple[str, str, tuple[Any, ...]]]:
    """The snapshot's queries compiled once per database vendor: the matrix takes a
    snapshot twice for each of its ~1,500 watched requests, and building and compiling
    fifteen ORM querysets each time was half of its CPU. A queryset of values is read
    row by row; `.all()` stands for a count of the table's rows."""
    vendor = connection.vendor
    if vendor not in _SNAPSHOT_SQL:
        compiled = []
        for key, qs in _snapshot_querysets().items():
            if qs._iterable_class is ValuesListIterable:
                sql, params = qs.query.sql_with_params()
                compiled.append((key, sql, tuple(params)))
            else:
                table = connection.ops.quote_name(qs.model._meta.db_table)
                compiled.append((key, f"SELECT COUNT(*) FROM {table}", ()))
        _SNAPSHOT_SQL[vendor] = compiled
    return _SNAPSHOT_SQL[vendor]


def nothing_changed_snapshot() -> dict[str, Any]:
    """Everything a write could change, for 'a refused request changes nothing': the
    rows of the values above (sorted; raw column values, which differ whenever the
    ORM's values would) and the other tables' row counts."""
    out: dict[str, Any] = {}
    with connection.cursor() as cursor:
        for key, sql, params in _snapshot_sql():
            cursor.execute(sql, params)
            rows = cursor.fetchall()
            out[key] = (sorted(tuple(r) for r in rows) if not sql.startswith("SELECT COUNT(*)")
                        else rows[0][0])
    return out
