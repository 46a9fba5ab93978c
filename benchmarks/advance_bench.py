"""Benchmark (not a test): every phase advance of a played campaign, timed and counted.

    DATABASE_URL=... .venv/bin/python benchmarks/advance_bench.py [--sizes 500/12,2000/50]

For each size (territories/players) it builds a campaign in a played state: each player
holds a few territories with explorations, power plants, warehouses, mine shafts,
foundries, factories with a product line, a laboratory and a missile silo, stock in the
warehouses, piloted units, and in the move phase sealed orders (moves at home, onto
unowned territories, and onto a rival's start, which opens a battle). It then times the
four advances of a turn (commercial->activity, activity->move, move->tactical,
tactical->commercial) and counts their queries. The floor is a set-based read of the
same data (territories, buildings, stock, units, operatives of the campaign), timed
the same way. Battles are in tabletop mode (the engine has its own benchmark) and are
marked recorded before the tactical phase is left. Advances run with DEBUG off, as a
deployment runs them (no query log).

The last lines are the targets of issue 15, target 1, and issue 32, target 3:
    TARGET advance_2000: <slowest advance at 2,000/50> s (goal 0.25 s, floor ...)
    TARGET advance_8000: <slowest advance at 8,000/200> s (goal 1 s, floor ...)
    TARGET advance_queries: <spread of each advance's query count over the sizes> ...
    TARGET advance_history: <turn 2's advance after 50 turns of journal / without> ...
The history measure (at 2,000/50): the league's journal is what grows every turn, so the
entries of turn 1 are written again as 49 more turns' (`add_history`); each advance of
turn 2 is timed without them and with them, alternated (`HISTORY_RUNS`: without, with,
with, without, twice), each run from a rollback to its phase's start (the same dice), and
the least of each kind is compared, in CPU time of this process (the ratio of two wall
times means little on a loaded machine; on SQLite the database's work is in it, on
PostgreSQL it is not); the medians are printed beside. The advance is made once untimed
first: the first time a phase is left does more (it commits the next phase's seed, writes
the turn's standings, inserts the phase start a rerun updates: 6 statements and ~0.5% more
Python calls at 2,000/50), so every timed run, with or without, redoes the same advance.
"Without" is without: the copies a rollback keeps (dice and administration entries,
issue 26) are deleted after each run with history. Every timed run starts from an empty
SQLite write-ahead log (`_settled`): the pages the history and the rollbacks wrote were
otherwise copied into the database by whichever advance's commit found the log full,
most often one right after the history was written. Beside the times, one more run of
each kind counts the work, a figure that does not depend on the machine's load:
statements, rows and, on SQLite, its virtual machine's steps (issue 32: equal with and
without, so what is left of the ratio is the noise of CPU timing on a shared machine).
Only the journal grows here: a league's past battles, orders and ledger grow too, and the
phase start copies them whole at every opening (49 more turns of those at 2,000/50 took
one phase start from 0.08 to 0.26-0.31 s of CPU, 3 to 19 MB): not in this measure.
An advance's statements do not depend on the number of territories, players or units;
a few write only what the turn's dice happened to find (an artifact, credits found
by an exploration: one statement each, and the player rows they credit), so the spread
may be up to DICE_STATEMENTS when only the larger campaign finds them.
It runs on whatever database DATABASE_URL names (migrate it first; `benchmarks/run.py`
does) and deletes what it created.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

GOAL_SECONDS = 0.25  # issue 32, target 3 (issue 15's was 0.5 s)
GOAL_SECONDS_8000 = 1.0  # issue 32, target 3: the slowest advance at 8,000/200
DICE_STATEMENTS = 4  # see above: an artifact found (1), credits found (lock, entries, balances)
ADVANCES = ("commercial->activity", "activity->move", "move->tactical",
            "tactical->commercial")
HISTORY_TURNS = 50  # issue 32: the same advance after a league's 50 turns
HISTORY_GOAL = 1.10  # ... within 10% of the same advance without them
HISTORY_RUNS = (False, True, True, False) * 2  # with the history or without, in this order
OWNED_PER_PLAYER = 8
UNITS_PER_PLAYER = 6


class QueryCounter:
    def __init__(self) -> None:
        self.sqls: list[str] = []

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.sqls.append(sql)
        return execute(sql, params, many, context)

    @property
    def count(self) -> int:
        return len(statements(self.sqls))


def shape(sql: str) -> str:
    """A statement without its values and lists (which statement it is)."""
    sql = re.sub(r"'[^']*'|\b\d+\b", "?", sql)
    sql = re.sub(r"\((\?, )*\?\)(, \((\?, )*\?\))*", "(...)", sql)
    sql = re.sub(r"%s(, %s)*", "%s", sql)
    return sql[:120]


def statements(sqls: list[str]) -> list[str]:
    """The statements as the code issued them. SQLite takes at most 999 parameters a
    statement, so Django splits one bulk insert or update into batches there (on
    PostgreSQL it is one statement): a run of batches of one bulk write (the first with
    several rows) counts once. Anything else, a loop of single-row statements included,
    counts one by one."""
    result: list[str] = []
    for sql in sqls:
        if result and shape(sql) == shape(result[-1]) and (
                "), (" in result[-1] or " CASE WHEN " in result[-1]):
            continue  # the next batch (maybe of one row) of the same bulk write
        result.append(sql)
    return result


def build_campaign(territories: int, players: int, seed: int) -> Any:
    """A started campaign (turn 1, commercial phase) of the given size."""
    from django.contrib.auth import get_user_model

    from campaign.models import Campaign, Player
    from campaign.options import clean_options
    from campaign.services.campaigns import PLAYER_COLORS
    from campaign.services.setup import campaign_start
    from territories.services.maps import build_map

    User = get_user_model()
    tag = f"advb{seed}_{int(time.time() * 1000) % 10**9}"
    users = [User(username=f"{tag}_{i}") for i in range(players + 1)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith=tag).order_by("username"))
    umpire, seats = users[0], users[1:]
    spec = {"generator": "random", "territories": territories, "seed": seed}
    campaign = Campaign.objects.create(
        name=tag, umpire=umpire, seed=seed, map_spec=spec,
        options=clean_options({"battle_mode": "tabletop", "invite_only": False}))
    build_map(campaign=campaign, spec=spec)  # not campaign_create: it caps maps at 5,000
    Player.objects.bulk_create([
        Player(campaign=campaign, user=u, color=PLAYER_COLORS[i % len(PLAYER_COLORS)])
        for i, u in enumerate(seats)])
    campaign_start(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    campaign.bench_tag = tag
    return campaign


def played_state(campaign: Any, seed: int) -> dict[str, Any]:
    """Territories, buildings, stock, operatives and units for every player (written
    directly: this is a fixture, not play)."""
    from campaign.rules.tables import BUILDINGS as SPECS
    from campaign.rules.tables import RESOURCES_BY_KEY
    from economy.models import Building, Operative, Stock, Unit
    from territories.models import Exploration, Territory
    from territories.services.graph import campaign_graph

    rng = random.Random(seed)
    graph = campaign_graph(campaign)
    territories = {t.pk: t for t in Territory.objects.filter(campaign=campaign)}
    starts = {t.owner_id: t.pk for t in territories.values() if t.owner_id is not None}
    owned: dict[int, list[int]] = {pid: [tid] for pid, tid in starts.items()}
    taken = set(starts.values())
    frontier = {pid: [tid] for pid, tid in starts.items()}
    for _ in range(OWNED_PER_PLAYER * 4):  # breadth-first claims around each start
        for pid in sorted(owned):
            if len(owned[pid]) >= OWNED_PER_PLAYER:
                continue
            for tid in list(frontier[pid]):
                free = [n for n in sorted(graph.adj[tid]) if n not in taken]
                if free:
                    taken.add(free[0])
                    owned[pid].append(free[0])
                    frontier[pid].append(free[0])
                    break
                frontier[pid].remove(tid)
    changed = []
    for pid, tids in owned.items():
        for tid in tids[1:]:
            t = territories[tid]
            t.owner_id, t.ever_owned = pid, True
            changed.append(t)
    Territory.objects.bulk_update(changed, ["owner", "ever_owned"], batch_size=1000)
    resources = sorted(RESOURCES_BY_KEY)
    explored = set(Exploration.objects.filter(campaign=campaign)
                   .values_list("territory_id", flat=True))
    Exploration.objects.bulk_create([
        Exploration(campaign=campaign, territory_id=t.pk, player_id=t.owner_id, turn=0,
                    phase="setup", active_die=4, passive_die=rng.randint(1, 8),
                    nemesis_die=rng.randint(1, 7), resource=rng.choice(resources),
                    units_per_shaft=rng.randint(2, 6), pure=rng.random() < 0.2,
                    unstable=rng.random() < 0.3)
        for t in changed if t.pk not in explored], batch_size=1000)

    def building(tid: int, kind: str, x: int, y: int, **extra: Any) -> Building:
        extra.setdefault("active", True)
        return Building(territory_id=tid, kind=kind, x=x, y=y,
                        hit_points=SPECS[kind].hit_points, built_turn=0, **extra)

    buildings: list[Building] = []
    stock: list[Stock] = []
    for tids in owned.values():
        for i, tid in enumerate(tids):
            row = [building(tid, "power_plant", 1, 1), building(tid, "power_plant", 2, 1),
                   building(tid, "warehouse", 1, 2), building(tid, "warehouse", 2, 2),
                   building(tid, "mine_shaft", 1, 3), building(tid, "foundry", 2, 3),
                   building(tid, "factory", 1, 4, product=["vehicle:arbeiter"])]
            if i == 0:  # the start: a second mine, a laboratory and a silo under its radar
                row += [building(tid, "power_plant", 3, 1), building(tid, "power_plant", 4, 1),
                        building(tid, "mine_shaft", 3, 3), building(tid, "laboratory", 4, 3),
                        building(tid, "missile_silo", 5, 3, missiles=1)]
            else:
                row.append(building(tid, "refinery", 3, 3, active=False))
            buildings += row
            stock += [Stock(territory_id=tid, resource="minerals", units=12),
                      Stock(territory_id=tid, resource="common_gas", units=6),
                      Stock(territory_id=tid, resource="minerals", refined=True, units=8),
                      Stock(territory_id=tid, resource="common_metal", refined=True, units=8),
                      Stock(territory_id=tid, resource="common_gas", refined=True, units=4),
                      Stock(territory_id=tid, resource="precious_metal", refined=True,
                            units=4)]
    Building.objects.bulk_create(buildings, batch_size=1000)
    Stock.objects.bulk_create(stock, batch_size=1000)
    pilots = [Operative(player_id=pid, territory_id=owned[pid][i % len(owned[pid])],
                        klass="soldier", name=f"p{pid}-{i}")
              for pid in owned for i in range(UNITS_PER_PLAYER)]
    pilots += [Operative(player_id=pid, territory_id=owned[pid][0], klass="scientist",
                         name=f"s{pid}") for pid in owned]
    Operative.objects.bulk_create(pilots, batch_size=1000)
    soldiers = list(Operative.objects.filter(player__campaign=campaign, klass="soldier")
                    .order_by("pk"))
    Unit.objects.bulk_create([
        Unit(player_id=op.player_id, territory_id=op.territory_id, model="paladin",
             name=f"u{op.pk}", pilot=op) for op in soldiers], batch_size=1000)
    return {"owned": owned, "starts": starts, "graph": graph}


def give_orders(campaign: Any, state: dict[str, Any]) -> int:
    """Sealed orders for the move phase: each player moves one unit between its own
    territories, one onto an unowned neighbour (taken and explored at the reveal) and one
    onto the next player's start (a battle there)."""
    from economy.models import Unit
    from orders.models import Order

    owned, starts, graph = state["owned"], state["starts"], state["graph"]
    ids = sorted(owned)
    rival = {pid: ids[(i + 1) % len(ids)] for i, pid in enumerate(ids)}
    all_owned = {tid for tids in owned.values() for tid in tids}
    units: dict[int, list[Any]] = defaultdict(list)
    for unit in Unit.objects.filter(player__campaign=campaign, pilot__isnull=False)\
            .order_by("pk"):
        units[unit.player_id].append(unit)
    orders = []
    claimed: set[int] = set()
    for pid in ids:
        mine = units[pid]
        home = [u for u in mine if u.territory_id != starts[pid]]
        if len(home) < 3:
            continue
        a, b, c = home[:3]
        own_dest = next(t for t in owned[pid] if t != a.territory_id)
        orders.append(Order(campaign=campaign, turn=campaign.turn, player_id=pid, unit=a,
                            origin_id=a.territory_id, destination_id=own_dest))
        free = [n for t in owned[pid] for n in sorted(graph.adj[t])
                if n not in all_owned and n not in claimed]
        if free:
            claimed.add(free[0])
            orders.append(Order(campaign=campaign, turn=campaign.turn, player_id=pid,
                                unit=b, origin_id=b.territory_id, destination_id=free[0]))
        orders.append(Order(campaign=campaign, turn=campaign.turn, player_id=pid, unit=c,
                            origin_id=c.territory_id, destination_id=starts[rival[pid]]))
    Order.objects.bulk_create(orders, batch_size=1000)
    return len(orders)


def set_based_read(campaign: Any) -> float:
    """The floor: everything the advances read, in five set-based queries."""
    from economy.models import Building, Operative, Stock, Unit
    from territories.models import Territory

    start = time.perf_counter()
    list(Territory.objects.filter(campaign=campaign).values_list("pk", "owner_id",
                                                                 "ever_owned"))
    list(Building.objects.filter(territory__campaign=campaign).values_list(
        "pk", "territory_id", "kind", "active", "hit_points", "missiles"))
    list(Stock.objects.filter(territory__campaign=campaign).values_list(
        "territory_id", "resource", "refined", "pure", "units"))
    list(Unit.objects.filter(player__campaign=campaign).values_list(
        "pk", "territory_id", "status", "pilot_id"))
    list(Operative.objects.filter(player__campaign=campaign).values_list(
        "pk", "territory_id", "klass", "level"))
    return time.perf_counter() - start


def add_history(campaign: Any, turn_entries: list[int]) -> list[int]:
    """The journal of HISTORY_TURNS - 1 more played turns, cheaply: the entries of turn 1
    (`turn_entries`, with their readers) written again for every turn the league would
    have played, as past entries. The journal is what a league piles up fastest (each
    player's production lines, moves, battles, every phase); the holdings are left as
    they are, so the advance timed after it is the same advance. The ids written."""
    from campaign.models import Event

    through = Event.viewers.through
    entries = list(Event.objects.filter(pk__in=turn_entries).order_by("pk"))
    readers: dict[int, list[int]] = defaultdict(list)
    for event_id, player_id in through.objects.filter(event_id__in=turn_entries)\
            .values_list("event_id", "player_id"):
        readers[event_id].append(player_id)
    made: list[int] = []
    for _copy in range(HISTORY_TURNS - 1):
        copies = [Event(campaign_id=e.campaign_id, turn=e.turn, phase=e.phase, kind=e.kind,
                        data=e.data, visibility=e.visibility, sealed=e.sealed)
                  for e in entries]
        Event.objects.bulk_create(copies, batch_size=500)
        through.objects.bulk_create([through(event_id=c.pk, player_id=p)
                                     for c, e in zip(copies, entries, strict=True)
                                     for p in readers[e.pk]], batch_size=1000)
        made += [c.pk for c in copies]
    return made


class WorkCounter:
    """What an advance does, counted rather than timed (the same on a loaded machine):
    its statements (`statements`), the rows they wrote and, on SQLite, the steps of its
    virtual machine (every opcode of every statement, reads included)."""

    def __init__(self) -> None:
        self.sqls: list[str] = []
        self.rows = 0
        self.vm_steps = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.sqls.append(sql)
        result = execute(sql, params, many, context)
        if not sql.lstrip().upper().startswith("SELECT"):
            self.rows += max(context["cursor"].rowcount, 0)
        return result

    def _step(self) -> int:
        self.vm_steps += 1
        return 0  # go on

    def count(self, run: Any) -> Any:
        from django.db import connection

        connection.ensure_connection()
        sqlite = connection.vendor == "sqlite"
        if sqlite:
            connection.connection.set_progress_handler(self._step, 1)
        try:
            with connection.execute_wrapper(self):
                return run()
        finally:
            if sqlite:
                connection.connection.set_progress_handler(None, 1)

    def figure(self) -> str:
        steps = f", {self.vm_steps} VM steps" if self.vm_steps else ""
        return f"{len(statements(self.sqls))} statements, {self.rows} rows written{steps}"

    def key(self) -> tuple[int, int, int]:
        return len(statements(self.sqls)), self.rows, self.vm_steps


def with_history(campaign: Any) -> dict[str, dict[str, Any]]:
    """Issue 32, target 3: each advance of turn 2, timed (CPU time of this process) without
    and after HISTORY_TURNS turns of journal, alternated (`HISTORY_RUNS`), each run from a
    rollback to the phase's start (the same dice: R-DICE-4), after one untimed run (the
    first time a phase is left does more than a rerun); then counted once each way
    (`WorkCounter`). {step: {"times": {history: [cpu seconds]}, "work": {history: counter}}}."""
    from battles.models import Battle
    from campaign.models import Campaign, Event
    from campaign.services.clock import advance
    from campaign.services.rollback import rollback

    turn_entries = list(Event.objects.filter(campaign=campaign, turn=1)
                        .values_list("pk", flat=True))

    result: dict[str, dict[str, Any]] = {}
    for step in ADVANCES:
        here = Campaign.objects.get(pk=campaign.pk)
        turn, phase = here.turn, here.phase
        times: dict[bool, list[float]] = {False: [], True: []}
        work: dict[bool, WorkCounter] = {}
        history_made: list[int] = []
        # Untimed first, the timed runs, then one counted run each way (the last leaves the
        # advance made, without history).
        runs = [("untimed", False), *(("time", h) for h in HISTORY_RUNS),
                ("count", True), ("count", False)]
        for i, (kind, history) in enumerate(runs):
            # Back to the phase's start (nothing to undo the first time); the history is
            # made after the phase opened, so the next rollback takes it away again, but
            # for the entries a rollback keeps (issue 26): those go here.
            if i:
                rollback(campaign_id=campaign.pk, turn=turn, phase=phase, by="umpire",
                         reason="bench")
            Event.objects.filter(pk__in=history_made).delete()
            history_made = add_history(campaign, turn_entries) if history else []
            if step == "tactical->commercial":  # recorded, as in turn 1
                Battle.objects.filter(campaign=campaign).update(
                    status=Battle.Status.FINISHED)

            def run() -> Any:
                return advance(campaign_id=campaign.pk, by="umpire")

            if kind == "time":
                times[history].append(_cpu(run))
            elif kind == "count":
                work[history] = WorkCounter()
                _settled()
                assert work[history].count(run).changed
            else:
                _settled()
                assert run().changed
        result[step] = {"times": times, "work": work}
    return result


def _settled() -> None:
    """Before a timed advance: the process as a web worker is when a request comes in
    (campaign/startup.py: what it loaded frozen), not one full of the world this bench
    just built, whose whole-heap collection would land in whichever advance it falls.
    On SQLite the write-ahead log is emptied too (a checkpoint): the pages the bench just
    wrote (a world, a history of 12,000 entries, a rollback) are otherwise copied into
    the database by the first commit that finds the log over 1,000 pages, inside
    whichever advance that is (issue 32: under callgrind, commercial->activity at
    2,000/50 ran 547 M instructions right after the history was written, most of the 27 M
    more than the next run with history and the run without (519 M, 522 M) in the
    checkpoint's copying and writing)."""
    from django.db import connection

    from campaign.startup import settle

    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    settle()


def _cpu(run: Any) -> float:
    _settled()
    start = time.process_time()
    result = run()
    assert result.changed
    return time.process_time() - start


def run_size(territories: int, players: int, seed: int, history: bool = False
             ) -> dict[str, Any]:
    from django.db import connection

    from battles.models import Battle
    from campaign.services.clock import advance

    t0 = time.perf_counter()
    campaign = build_campaign(territories, players, seed)
    state = played_state(campaign, seed)
    built = time.perf_counter() - t0
    figures: dict[str, Any] = {"times": {}, "queries": {}}
    figures["floor"] = min(set_based_read(campaign) for _ in range(3))
    for step in ADVANCES:
        if step == "move->tactical":
            figures["orders"] = give_orders(campaign, state)
        if step == "tactical->commercial":
            figures["battles"] = Battle.objects.filter(campaign=campaign).count()
            Battle.objects.filter(campaign=campaign).update(status=Battle.Status.FINISHED)
        counter = QueryCounter()
        _settled()
        start = time.perf_counter()
        with connection.execute_wrapper(counter):
            result = advance(campaign_id=campaign.pk, by="umpire")
        figures["times"][step] = time.perf_counter() - start
        figures["queries"][step] = counter.count
        assert result.changed, step
    if history:
        figures["history"] = with_history(campaign)
    print(f"{territories}/{players}: built in {built:.1f} s; "
          f"{figures['orders']} orders, {figures['battles']} battles; "
          f"set-based read {figures['floor'] * 1000:.1f} ms", flush=True)
    for step in ADVANCES:
        print(f"  {step:22s} {figures['times'][step]:8.3f} s "
              f"{figures['queries'][step]:6d} queries", flush=True)
    for step, measured in (figures.get("history") or {}).items():
        fresh, old = measured["times"][False], measured["times"][True]
        work = measured["work"]
        same = "the same work" if work[False].key() == work[True].key() else "OTHER WORK"
        print(f"  turn 2 {step:22s} {min(fresh):8.3f} cpu s, after {HISTORY_TURNS} turns "
              f"of journal {min(old):8.3f} cpu s ({min(old) / min(fresh):.2f}x; medians "
              f"{median(fresh):.3f}/{median(old):.3f} s, "
              f"{median(old) / median(fresh):.2f}x)", flush=True)
        print(f"    without: {work[False].figure()}; with: {work[True].figure()} "
              f"({same})", flush=True)
    cleanup(campaign)
    return figures


def cleanup(campaign: Any) -> None:
    from django.contrib.auth import get_user_model

    tag = campaign.bench_tag
    campaign.delete()
    get_user_model().objects.filter(username__startswith=tag).delete()


def main() -> int:
    import django

    django.setup()
    from django.db import connection
    from django.test import override_settings

    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="500/12,2000/50,8000/200",
                        help="territories/players, comma separated")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    sizes = [tuple(int(v) for v in s.split("/")) for s in args.sizes.split(",")]
    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})", flush=True)
    # Timed as production runs, DEBUG off (as the request and meta-map benches time
    # theirs): with DEBUG on, Django formats every statement for its query log, and on
    # SQLite quotes each parameter with one more query: ~0.1 s of CPU an advance at
    # 8,000 territories that no deployment spends.
    with override_settings(DEBUG=False):
        results = {size: run_size(size[0], size[1], args.seed, history=size == (2000, 50))
                   for size in sizes}

    lines = []
    reference = results.get((2000, 50))
    if reference is not None:
        slowest = max(reference["times"].values())
        which = max(reference["times"], key=reference["times"].get)
        ok = slowest <= GOAL_SECONDS
        lines.append(f"TARGET advance_2000: {slowest:.3f} s ({which}) (goal {GOAL_SECONDS} s, "
                     f"floor {reference['floor']:.3f} s): {'ok' if ok else 'short'}")
    large = results.get((8000, 200))
    if large is not None:
        slowest = max(large["times"].values())
        which = max(large["times"], key=large["times"].get)
        ok = slowest <= GOAL_SECONDS_8000
        lines.append(f"TARGET advance_8000: {slowest:.3f} s ({which}) (goal "
                     f"{GOAL_SECONDS_8000} s, floor {large['floor']:.3f} s): "
                     f"{'ok' if ok else 'short'}")
    if len(results) >= 2:
        spread = {step: max(r["queries"][step] for r in results.values())
                  - min(r["queries"][step] for r in results.values()) for step in ADVANCES}
        worst = max(spread.values())
        counts = "/".join(str(max(r["queries"][s] for r in results.values())) for s in ADVANCES)
        names = ", ".join(f"{t}/{p}" for t, p in sizes)
        lines.append(f"TARGET advance_queries: {worst} queries of spread over {names}, "
                     f"most per advance {counts} (goal <= {DICE_STATEMENTS}, floor 5 "
                     f"queries): {'ok' if worst <= DICE_STATEMENTS else 'short'}")
    if reference is not None and reference.get("history"):
        ratios = {step: min(m["times"][True]) / min(m["times"][False])
                  for step, m in reference["history"].items()}
        which = max(ratios, key=ratios.get)
        ok = ratios[which] <= HISTORY_GOAL
        differ = [step for step, m in reference["history"].items()
                  if m["work"][False].key() != m["work"][True].key()]
        work = (f"other work in {', '.join(differ)}" if differ else "the same statements, "
                "rows and VM steps in every advance")
        lines.append(f"TARGET advance_history: {ratios[which]:.2f}x ({which}, turn 2 after "
                     f"{HISTORY_TURNS} turns of journal against turn 2 without, least CPU "
                     f"time of {HISTORY_RUNS.count(True)} runs each; {work}) "
                     f"(goal <= {HISTORY_GOAL:.2f}x, floor 1.00x): "
                     f"{'ok' if ok else 'short'}")
    for line in lines:
        print(line, flush=True)
    return 0 if all(line.endswith(": ok") for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
