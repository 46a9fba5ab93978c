"""Opening the tactical phase: territories taken without a fight, and the battles.

Seed, "Tactical phase": "If a unit or a group of units move to a territory where no
enemy unit is present, they take possession of said territory. If a unit or a group of
units move to a territory where there are enemy units, they engage into battle".
"Command center": "When a territory is attacked, if a Command center has been built on it
and is activated, it allows the player to move units from an adjacent territory to the
attacked territory." Tactical phase (rules text): "one character can only participate in
one battle each strategic turn. When the tactical phase begins, the players choose
randomly one of them, and this player will decide which battle will be played first.
Then the next players chooses the next battle and so on".

`open_battles` is a hook of ("enter", "tactical"), run after the reveal
(`orders.services.reveal.reveal_and_move`) has relocated the ordered units, inside the
advancing transaction (the campaign row is locked).
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from battles.models import Battle, BattleParticipant
from battles.rulesets.registry import find_ruleset
from battles.services.battle_options import ruleset_options
from battles.services.experience import award_discovery_xp, bonus_kinds, discovery_kinds
from battles.services.inputs import battlefield, cargo_inputs, side_key
from battles.services.jobs import schedule_battles
from battles.services.ownership import taken_entry, taking
from campaign.bulk import bulk_set, insert_rows
from campaign.dice import battle_seed_from, derived_random, phase_secret
from campaign.models import Campaign, Player
from campaign.services.journal import Entry, record_event, record_many
from economy.models import Building, Stock, Unit, Weapon
from orders.models import Order
from orders.selectors import TurnPlans
from territories.models import Territory
from territories.services.exploration import change_owners
from territories.services.graph import MapHops, campaign_graph

if TYPE_CHECKING:
    from territories.models import Territory

log = logging.getLogger(__name__)


@dataclass
class Contest:
    """A territory where units of two or more players meet."""

    territory: Any
    forces: dict[int, list[Any]]  # player id -> units
    reinforcements: dict[int, Any] = field(default_factory=dict)  # unit id -> origin terr.
    defender: int | None = None
    defender_reason: str = ""
    lot: dict[str, Any] | None = None  # the defender lot, when one was drawn


def take_territory(*, territory: Territory, player: Player, reason: str,
                   explorers: Iterable[Any] | None = None) -> Any:
    """`player` takes possession of `territory`; a never-owned one gets its exploration
    roll ("When you take control of a territory no-one owned before, you make an
    exploration roll"). `explorers` are the operatives (pilots of the units that took
    it): they earn the discovery bonus XP of their class (R-XP-3). Weapons fitted to the
    territory's turrets go with the buildings to the new owner (R-ECO-17). Returns the
    exploration made now, or None. Call inside a transaction."""
    exploration, entry = taking(territory=territory, player=player, reason=reason)
    record_event(campaign=player.campaign, kind=entry.kind, data=entry.data)
    if exploration is not None and explorers is not None:
        award_discovery_xp(exploration=exploration, operatives=explorers,
                           campaign=player.campaign, context={"reason": reason})
    return exploration


@dataclass(frozen=True)
class _Placed:
    """Where a unit stands, before the units that fight are read in full."""

    pk: int
    player_id: int
    territory_id: int
    pilot_id: int | None


def take_territories(*, campaign: Campaign,
                     takes: list[tuple[Any, Player, str, list[Any] | None]]) -> list[Any]:
    """`take_territory` for many (territory, player, reason, explorers) at once, in
    order, with the same dice, rows and journal entries: a fixed number of queries (more
    only for explorers who earn discovery XP). Returns the explorations made now (or
    None), one per take. Call inside a transaction."""
    if not takes:
        return []
    previous = [t.owner_id for t, _p, _r, _e in takes]
    explored_now = [not t.ever_owned for t, _p, _r, _e in takes]
    changed = change_owners(campaign=campaign, takes=[(t, p) for t, p, _r, _e in takes])
    # R-ECO-17: weapons fitted to the turrets go with the buildings to the new owner.
    new_owner = {t.pk: p.pk for t, p, _r, _e in takes}
    fitted = list(Weapon.objects.filter(turret__territory_id__in=list(new_owner))
                  .select_related("turret"))
    for weapon in fitted:
        weapon.player_id = new_owner[weapon.turret.territory_id]
    if fitted:
        bulk_set(fitted, ["player"])
    entries: list[Entry] = []
    for i, (territory, player, reason, explorers) in enumerate(takes):
        exploration, explored_entry = changed[i]
        if explored_entry is not None:
            entries.append(explored_entry)
        entries.append(taken_entry(territory, player, previous[i], explored_now[i], reason))
        found = discovery_kinds(exploration) if exploration is not None else []
        if found and exploration is not None and explorers is not None and any(
                op is not None and op.alive
                and any(k in bonus_kinds(op.klass.lower()) for k in found)
                for op in explorers):
            # Its journal entries come after this take's, as one by one.
            record_many(campaign=campaign, entries=entries)
            entries = []
            award_discovery_xp(exploration=exploration, operatives=explorers,
                               campaign=campaign, context={"reason": reason})
    record_many(campaign=campaign, entries=entries)
    return [exploration for exploration, _entry in changed]


def _adjacency(campaign: Campaign) -> Mapping[int, Iterable[int]]:
    """{territory id: its neighbours}: the campaign's one shared map graph (read-only)."""
    return campaign_graph(campaign).adj


def _active_command_centers(campaign: Campaign) -> set[int]:
    return set(Building.objects.filter(territory__campaign=campaign, kind="command_center",
                                       active=True, hit_points__gt=0)
               .values_list("territory_id", flat=True))


def open_battles(*, campaign: Campaign) -> list[Battle]:
    """Take the uncontested territories and open this turn's battles (once: a second call
    for the same turn does nothing). Engine battles are enqueued after commit."""
    turn = campaign.turn
    if Battle.objects.filter(campaign=campaign, turn=turn).exists():
        return []
    players = {p.pk: p for p in Player.objects.filter(campaign=campaign)}
    # R-BJ-1: a unit without a pilot neither fights nor makes a battle (in a ruleset whose
    # units need hired pilots; other rulesets' units come with their crew).
    needs_pilot = find_ruleset(campaign.settings.ruleset).pilots
    # Where every unit that may fight stands (a light read of the whole map; in a
    # ruleset of hired pilots, not the unpiloted vehicles the factories pile up, issue
    # 32); the units that fight or take a territory are read in full below, once it is
    # known which they are.
    standing = Unit.objects.filter(player__campaign=campaign, status=Unit.Status.READY,
                                   territory__isnull=False)
    if needs_pilot:
        standing = standing.filter(pilot__isnull=False)
    units = [_Placed(*row) for row in standing.order_by("pk").values_list(
        "pk", "player_id", "territory_id", "pilot_id")]
    # Only the territories where those units stand matter here (issue 32: not the whole
    # map): a command center brings units only from where they stand (R-BJ-3).
    territories = {t.pk: t for t in Territory.objects.filter(
        campaign=campaign, pk__in=standing.values("territory_id"))}
    present: dict[int, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for unit in units:  # every one may fight (the unpiloted are not read, R-BJ-1)
        present[unit.territory_id][unit.player_id].append(unit)
    moved_in = set(Order.objects.filter(campaign=campaign, turn=turn,
                                        status=Order.Status.EXECUTED)
                   .values_list("unit_id", flat=True))
    graph = _adjacency(campaign)
    command_centers = _active_command_centers(campaign)
    reinforcement_mode = campaign.settings.command_center_reinforcements

    contests: list[Contest] = []
    lone: list[tuple[Any, int]] = []
    for tid in sorted(present):
        forces = {pid: us for pid, us in present[tid].items() if us}
        territory = territories[tid]
        if len(forces) >= 2:
            contests.append(Contest(territory=territory, forces=dict(forces)))
        elif len(forces) == 1:
            (pid,) = forces
            if territory.owner_id not in (None, pid):
                contests.append(Contest(territory=territory, forces=dict(forces)))
            else:
                lone.append((territory, pid))

    contested_ids = {c.territory.pk for c in contests}
    # R-BJ-3: an active command center brings the owner's units from adjacent territories
    # the owner holds and where no battle is fought, at most once per unit.
    committed: set[int] = set()
    for contest in contests:
        territory = contest.territory
        owner = territory.owner_id
        if (reinforcement_mode != "adjacent" or owner is None
                or territory.pk not in command_centers):
            continue
        for neighbour in sorted(graph.get(territory.pk, ())):
            # (a territory where no unit stands has none to bring)
            if (neighbour in contested_ids or neighbour not in territories
                    or territories[neighbour].owner_id != owner):
                continue
            for unit in present.get(neighbour, {}).get(owner, []):
                if unit.pk in committed:
                    continue
                committed.add(unit.pk)
                contest.forces.setdefault(owner, []).append(unit)
                contest.reinforcements[unit.pk] = territories[neighbour]

    # The units that fight or take a territory, read in full (pilot, weapons).
    involved = [u.pk for c in contests for us in c.forces.values() for u in us]
    involved += [u.pk for territory, pid in lone if territory.owner_id != pid
                 for u in present[territory.pk][pid]]
    full = {u.pk: u for u in Unit.objects.filter(pk__in=involved)
            .select_related("pilot").prefetch_related("weapons")} if involved else {}
    for contest in contests:
        contest.forces = {pid: [full[u.pk] for u in us] for pid, us in contest.forces.items()}
    for territory, pid in lone:
        if territory.owner_id != pid:
            present[territory.pk][pid] = [full[u.pk] for u in present[territory.pk][pid]]

    # A lone force on a territory that is not its own takes it (no enemy present).
    takes: list[tuple[Any, Player, str, list[Any] | None]] = []
    for territory, pid in lone:
        if territory.owner_id != pid:
            takes.append((territory, players[pid], "unopposed",
                          [u.pilot for u in present[territory.pk][pid] if u.pilot is not None]))
    battles_to_open: list[Contest] = []
    for contest in contests:
        if len(contest.forces) >= 2:
            battles_to_open.append(contest)
        else:  # the owner had nothing to defend with: the attacker takes it
            (pid,) = contest.forces
            takes.append((contest.territory, players[pid], "unopposed",
                          [u.pilot for u in contest.forces[pid] if u.pilot is not None]))
    take_territories(campaign=campaign, takes=takes)
    if not battles_to_open:
        return []

    # Issue 30: the lots come from the phase's committed secret (R-BJ-2, R-BJ-4), never
    # from the campaign seed every member reads in map.json.
    secret = phase_secret(campaign)
    for contest in battles_to_open:
        _choose_defender(campaign, contest, moved_in, secret)
    order = _battle_order(campaign, battles_to_open, players, secret)
    return _create_battles(campaign, order, graph=graph, secret=secret)


def lot_seed(secret: str | None, campaign: Campaign) -> int | str:
    """What the tactical phase's lots are drawn from: its secret seed (the campaign's
    seed for a phase from before commitments)."""
    return secret if secret else int(campaign.seed)


def defender_lot(seed: int | str, turn: int, territory_id: int, candidates: int) -> int:
    """R-BJ-2's lot: the index of the defender among the sorted candidates."""
    return derived_random(seed, "defender", turn, territory_id).randrange(candidates)


def order_lot(seed: int | str, turn: int, players: int) -> int:
    """R-BJ-4's lot: the index of the first picker among the players by id."""
    return derived_random(seed, "battle_order", turn).randrange(players)


def _choose_defender(campaign: Campaign, contest: Contest, moved_in: set[int],
                     secret: str | None) -> None:
    """R-BJ-2: the owner defends if present; otherwise the player whose units were already
    there before the moves (a lot from the phase's secret among several); otherwise a
    lot."""
    owner = contest.territory.owner_id
    if owner in contest.forces:
        contest.defender, contest.defender_reason = owner, "owner"
        return
    stayed = sorted(pid for pid, us in contest.forces.items()
                    if any(u.pk not in moved_in for u in us))
    candidates = stayed or sorted(contest.forces)
    if len(candidates) == 1:
        contest.defender, contest.defender_reason = candidates[0], "already_there"
        return
    drawn = defender_lot(lot_seed(secret, campaign), campaign.turn, contest.territory.pk,
                         len(candidates))
    contest.defender = candidates[drawn]
    contest.defender_reason = "lot"
    contest.lot = {"candidates": candidates, "drawn": drawn}


def _battle_order(campaign: Campaign, contests: list[Contest],
                  players: dict[int, Player], secret: str | None) -> list[Contest]:
    """R-BJ-4: a lot from the phase's secret picks the first player; players then pick in
    turn (player order, wrapping). A picker takes the remaining battle they fight in on the
    territory with the lowest id, else the remaining battle with the lowest territory id."""
    ids = sorted(players)
    first = order_lot(lot_seed(secret, campaign), campaign.turn, len(ids))
    remaining = sorted(contests, key=lambda c: c.territory.pk)
    picks: list[dict[str, Any]] = []
    ordered: list[Contest] = []
    index = first
    while remaining:
        picker = ids[index % len(ids)]
        own = [c for c in remaining if picker in c.forces]
        chosen = (own or remaining)[0]
        remaining.remove(chosen)
        ordered.append(chosen)
        picks.append({"player": picker, "territory": chosen.territory.pk})
        index += 1
    record_event(campaign=campaign, kind="battle_order",
                 data={"first_picker": ids[first], "lot": {"players": ids, "drawn": first},
                       "picks": picks})
    return ordered


@dataclass(frozen=True)
class _Silo:
    pk: int
    territory_id: int
    missiles: int


class _Silos:
    """R-BJ-11's operating silos of the whole campaign, read once for every battle of
    the turn (after the uncontested territories changed hands): standing, active, with
    missiles, an active radar on their territory, by the player holding the territory."""

    def __init__(self, campaign: Campaign) -> None:
        radars = set(Building.objects.filter(territory__campaign=campaign, kind="radar",
                                             active=True, hit_points__gt=0)
                     .values_list("territory_id", flat=True))
        self.of_player: dict[int, list[_Silo]] = defaultdict(list)
        self._holder: dict[int, int] = {}  # silo territory -> the player holding it
        for pk, territory_id, missiles, owner in (
                Building.objects.filter(territory__campaign=campaign, kind="missile_silo",
                                        active=True, hit_points__gt=0, missiles__gt=0)
                .order_by("pk")
                .values_list("pk", "territory_id", "missiles", "territory__owner_id")):
            if territory_id in radars and owner is not None:
                self.of_player[owner].append(_Silo(pk, territory_id, missiles))
                self._holder[territory_id] = owner

        #: player -> the battlefields of the turn where the player fights
        self.fights: dict[int, set[int]] = defaultdict(set)
        self._from: dict[int, dict[int, int]] = {}  # silo territory -> battlefield -> hops

    def announce(self, battles: Iterable[tuple[int, Iterable[int]]]) -> None:
        """The turn's battles, (battlefield, the players fighting there), before any is
        listed: each silo's search then stops once it has found those of its holder."""
        for territory_id, players in battles:
            for pid in players:
                self.fights[pid].add(territory_id)
        self._from.clear()

    def _hops(self, silo_territory: int, map_hops: MapHops) -> dict[int, int]:
        """Hops from a silo's territory to the battlefields where its holder fights: one
        search per territory holding silos, shared by every battle (issue 32: a search
        from each battlefield walked the map once per battle; hops are symmetric), that
        stops once those are found (not every battlefield of the turn)."""
        found = self._from.get(silo_territory)
        if found is None:
            found = self._from[silo_territory] = map_hops.hops_to(
                silo_territory, self.fights.get(self._holder[silo_territory], set()))
        return found

    def listed(self, territory_id: int, players: Iterable[int], map_hops: MapHops,
               reserved: Counter[int]) -> dict[str, list[dict[str, Any]]]:
        """`_missiles` of one battle."""
        players = list(players)
        if any(territory_id not in self.fights[pid] for pid in players):
            self.announce([(territory_id, players)])  # not announced: the searches again
        dist = {b.territory_id: hops for pid in players for b in self.of_player.get(pid, [])
                if (hops := self._hops(b.territory_id, map_hops).get(territory_id)) is not None}
        result: dict[str, list[dict[str, Any]]] = {}
        for pid in players:
            silos = [b for b in self.of_player.get(pid, []) if b.territory_id in dist]
            listed: list[dict[str, Any]] = []
            for silo in sorted(silos, key=lambda b: (dist[b.territory_id], b.pk)):
                for _ in range(max(0, silo.missiles - reserved[silo.pk])):
                    listed.append({"silo_distance": dist[silo.territory_id],
                                   "silo": silo.pk})
                    reserved[silo.pk] += 1
            if listed:
                result[side_key(pid)] = listed
        return result


class _Fitted(NamedTuple):
    """A turret's fitted weapon, as `inputs.building_data` reads it."""

    weapon: str
    templates: list[str]


class _BuildingRow(NamedTuple):
    """A standing building of a battlefield, as its battle reads it
    (`inputs.building_data`, `inputs.cargo_inputs`): a row, not a model instance with
    its three JSON columns decoded (thousands at 8,000 territories, issue 32)."""

    pk: int
    territory_id: int
    kind: str
    x: int
    y: int
    hit_points: int
    active: bool
    upgrades: list[str]
    weapon_id: int | None
    weapon: _Fitted | None


#: what a `_BuildingRow` is read from (the fitted weapon's two columns last)
_BUILDING_COLUMNS = ("pk", "territory_id", "kind", "x", "y", "hit_points", "active",
                     "upgrades", "weapon_id", "weapon__weapon", "weapon__templates")


def _create_battles(campaign: Campaign, order: list[Contest], *,
                    graph: Mapping[int, Iterable[int]], secret: str | None) -> list[Battle]:
    """`_create_battle` for every battle of the turn, in order of play, with the same
    inputs, rows and journal entries: a fixed number of queries."""
    ruleset = find_ruleset(campaign.settings.ruleset)
    options = ruleset_options(campaign, ruleset)
    mode = campaign.settings.battle_mode
    held = [c.territory.pk for c in order if c.territory.owner_id == c.defender]
    buildings: dict[int, list[Any]] = defaultdict(list)
    stock: dict[int, list[Any]] = defaultdict(list)
    if held:
        for (pk, tid, kind, x, y, hit_points, active, upgrades, weapon_id, weapon,
             templates) in (Building.objects.filter(territory_id__in=held, hit_points__gt=0)
                            .values_list(*_BUILDING_COLUMNS)):
            buildings[tid].append(_BuildingRow(
                pk, tid, kind, x, y, hit_points, active, upgrades, weapon_id,
                _Fitted(weapon, templates) if weapon_id else None))
        if "cargo" in ruleset.effects:
            for row in Stock.objects.filter(territory_id__in=held, units__gt=0):
                stock[row.territory_id].append(row)
    silos = _Silos(campaign) if "missiles_spent" in ruleset.effects else None
    if silos is not None:
        silos.announce([(c.territory.pk, c.forces) for c in order])
    # a ruleset with factions learns each side's (issue 14), read once
    factions = dict(Player.objects.filter(campaign=campaign).values_list("pk", "faction")) \
        if ruleset.factions else {}
    # The map indexed once for every silo's search (a networkx view per step costs more
    # than the step).
    map_hops = MapHops(graph if silos is not None and silos.of_player else {})
    reserved: Counter[int] = Counter()  # silo id -> missiles listed for earlier battles
    plans = TurnPlans(campaign_id=campaign.pk, turn=campaign.turn)  # issue 29, one query
    battles: list[Battle] = []
    sides_of: list[list[dict[str, Any]]] = []
    for position, contest in enumerate(order, start=1):
        territory = contest.territory
        defender = contest.defender
        assert defender is not None
        with_buildings = territory.owner_id == defender
        here = buildings[territory.pk] if with_buildings else []
        # Declared effects bring their inputs: silo missiles (R-BJ-11), the defender's
        # cargo (R-BJ-12).
        extras: dict[str, Any] = {}
        if "cargo" in ruleset.effects and with_buildings:
            extras["cargo"] = cargo_inputs(stock[territory.pk],
                                           [b for b in here if b.kind == "warehouse"])
        if silos is not None:
            extras["missiles"] = silos.listed(territory.pk, sorted(contest.forces),
                                              map_hops, reserved)
        if factions:
            extras["factions"] = {pid: factions[pid] for pid in sorted(contest.forces)}
        seed = battle_seed_from(secret, int(campaign.seed), campaign.turn, territory.name)
        engine_input = ruleset.forces(battlefield(
            territory_id=territory.pk, defender=defender, sides=contest.forces,
            reinforcements=contest.reinforcements, buildings=here, seed=seed,
            options=options, extras=extras, plans=plans.at(territory.pk, contest.forces)))
        sides = []
        for pid in [defender, *sorted(p for p in contest.forces if p != defender)]:
            sides.append({
                "player": pid, "role": "defender" if pid == defender else "attacker",
                "units": [{"id": u.pk, "model": u.model, "name": u.name,
                           "reinforcement": u.pk in contest.reinforcements}
                          for u in contest.forces[pid]],
            })
        sides_of.append(sides)
        battles.append(Battle(
            campaign=campaign, turn=campaign.turn, territory=territory, order=position,
            sides=sides, defender_id=defender, seed=seed, input=engine_input,
            mode=mode, ruleset_name=ruleset.name, ruleset_version=ruleset.version))
    battles = Battle.objects.bulk_create(battles)
    # As plain rows (hundreds a turn, no model instance each).
    insert_rows(BattleParticipant, ("battle_id", "turn", "unit_id", "player_id", "pilot_id",
                                    "reinforcement", "origin_id"), [
        (battle.pk, campaign.turn, u.pk, pid, u.pilot_id, u.pk in contest.reinforcements,
         origin.pk if (origin := contest.reinforcements.get(u.pk)) is not None else None)
        for battle, contest in zip(battles, order, strict=True)
        for pid, us in contest.forces.items() for u in us
    ])
    record_many(campaign=campaign, entries=[
        Entry(kind="battle_opened", data={
            "battle": battle.pk, "territory": contest.territory.pk,
            "name": contest.territory.name, "order": battle.order,
            "defender": contest.defender, "defender_reason": contest.defender_reason,
            **({"lot": contest.lot} if contest.lot else {}), "sides": sides, "mode": mode,
            "seed": battle.seed,
            "buildings": len(buildings[contest.territory.pk]
                             if contest.territory.owner_id == contest.defender else [])})
        for battle, contest, sides in zip(battles, order, sides_of, strict=True)])
    if mode == Battle.Mode.ENGINE:
        schedule_battles([battle.pk for battle in battles])
    return battles


def unfinished_battles(campaign: Campaign) -> int:
    return Battle.objects.filter(campaign=campaign, turn=campaign.turn).exclude(
        status=Battle.Status.FINISHED).count()


__all__ = ["open_battles", "take_territory", "unfinished_battles"]
