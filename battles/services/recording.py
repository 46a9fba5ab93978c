"""Writing a battle's result into the campaign — once.

`record_result` is the single path for engine results and tabletop results. It creates
the battle's one-to-one `BattleRecord` in the same transaction as every effect: a second
call (a job delivered twice, two confirmations racing) finds the record and changes
nothing, and the unique key makes that a database guarantee.

Seed, "Tactical phase": units "engage into battle until all the units of one side are
either destroyed or retreat to an adjacent territory. You can only retreat to a
territory you control. If, through game-play, a unit can't retreat to an adjacent,
controlled territory then they are removed from the map and reappear at the beginning of
the next Movement phase on any territory that unit's player controls. That unit cannot
change any Equipment or Pilots until the beginning of the subsequent Strategic Turn."
The unit card: damage is split into repairable (slash) and unrepairable (cross) hit
points.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from battles.models import Battle, BattleParticipant, BattleRecord
from battles.rulesets.base import Outcome, Ruleset, UnitFate, XpAward
from battles.rulesets.registry import find_ruleset
from battles.services.battle_options import ruleset_options
from battles.services.effects import Recording, apply_effects
from battles.services.experience import battle_xp_kinds, grant_discovery_xp, grant_xp
from battles.services.ownership import taking
from campaign.models import Campaign, Event, Player
from campaign.services.journal import Entry, record_many
from economy.models import Operative, Unit
from economy.services import battle_effects
from orders.models import Order
from territories.selectors import lock_neighbourhood

log = logging.getLogger(__name__)


def record_result(*, battle_id: int, result: dict[str, Any] | Outcome | Any,
                  source: str = "engine") -> bool:
    """Apply a battle's result to the campaign: a ruleset-neutral `Outcome`, or a result
    document of the battle's ruleset (what `Outcome.result` holds; Unlimit3d 8's
    `BattleResult` or its dict). Returns False when the battle was already recorded
    (nothing changes).

    Locks (ARCHITECTURE.md, "Locks"): the battle, then the battlefield and its neighbours
    (by id, one statement), then the units and pilots it changes -- not the campaign row:
    recordings of one campaign run side by side unless their neighbourhoods meet. The
    clock cannot leave the tactical phase while this battle is unfinished (its leave
    hook), and the journal entries' foreign key takes a KEY SHARE lock on the campaign
    row that the advance's exclusive lock waits for. Reads only the battlefield's
    neighbourhood and writes units, pilots and journal entries in bulk: a bounded number
    of queries whatever the size of the map (asserted in tests/battles)."""
    with transaction.atomic():
        battle = (Battle.objects.select_for_update(of=("self",))
                  .select_related("campaign", "territory").filter(pk=battle_id).first())
        if battle is None:
            raise Battle.DoesNotExist(f"battle {battle_id} does not exist")
        if battle.status == Battle.Status.FINISHED:
            return False  # finished and recorded are set in one transaction
        ruleset = find_ruleset(battle.ruleset_name)
        if isinstance(result, Outcome):
            outcome = result
        else:
            data = result.to_dict() if hasattr(result, "to_dict") else dict(result)
            outcome = ruleset.outcome(data)
        campaign = battle.campaign
        # Under the battle's row lock a second recording waits and then finds it finished;
        # the one-to-one key stays the database's guarantee.
        BattleRecord.objects.create(battle=battle, source=source)
        journal: list[Entry] = []
        summary = _apply(campaign, battle, outcome, ruleset, journal)
        document = ruleset.document(outcome)
        battle.result = {k: v for k, v in document.items() if k != "log"}
        battle.log = list(document.get("log") or outcome.log)
        battle.status = Battle.Status.FINISHED
        battle.finished_at = timezone.now()
        battle.proposed_result = None
        battle.save(update_fields=["result", "log", "status", "finished_at", "winner",
                                   "proposed_result"])
        journal.append(Entry(kind="battle_result",
                             data={"battle": battle.pk, "source": source, **summary}))
        record_many(campaign=campaign, entries=journal)
    return True


@dataclass
class Scene:
    """One recording's shared state: what the steps read (the rows locked in the lock
    order) and what they decide, handed from step to step."""

    campaign: Campaign
    battle: Battle
    outcome: Outcome
    ruleset: Ruleset
    journal: list[Entry]
    territory: Any = None
    sides: dict[str, int] = field(default_factory=dict)  # ruleset side -> player id
    players: dict[int, Player] = field(default_factory=dict)
    winner_id: int | None = None
    participants: dict[int, Any] = field(default_factory=dict)  # unit id -> participant
    origins: dict[int, int] = field(default_factory=dict)  # unit id -> its move's origin
    owned: dict[int, int | None] = field(default_factory=dict)
    graph: dict[int, Iterable[int]] = field(default_factory=dict)
    standing: dict[int, Any] = field(default_factory=dict)  # locked units on the field
    units: dict[int, Any] = field(default_factory=dict)  # the units the recording saves
    pilots: dict[int, Any] = field(default_factory=dict)
    changed_pilots: dict[int, Any] = field(default_factory=dict)
    outcomes: dict[int, UnitFate] = field(default_factory=dict)
    owner_before: int | None = None
    exploration: Any = None
    report: list[dict[str, Any]] = field(default_factory=list)
    retreats: list[dict[str, Any]] = field(default_factory=list)
    off_map: list[int] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)
    gone: list[dict[str, Any]] = field(default_factory=list)


def _lock_the_field(scene: Scene) -> None:
    """Read and lock, in the lock order: the participants (with their moves' origins),
    the battlefield's neighbourhood, the units standing on it, their pilots."""
    battle, campaign, outcome = scene.battle, scene.campaign, scene.outcome
    scene.territory = territory = battle.territory
    scene.sides = {str(s["player"]): s["player"] for s in battle.sides}
    # Player rows are not read: the ids are what recording writes.
    scene.players = {pk: Player(pk=pk, campaign=campaign) for pk in scene.sides.values()}
    scene.winner_id = (scene.sides.get(str(outcome.winner)) if outcome.winner is not None
                       else None)
    battle.winner_id = scene.winner_id
    executed = Order.objects.filter(campaign=campaign, turn=battle.turn,
                                    unit_id=OuterRef("unit_id"),
                                    status=Order.Status.EXECUTED)
    scene.participants = participants = {
        p.unit_id: p for p in BattleParticipant.objects.filter(battle=battle)
        .annotate(moved_from=Subquery(executed.values("origin_id")[:1]))}
    scene.origins = {uid: p.moved_from for uid, p in participants.items() if p.moved_from}
    owned, neighbours = lock_neighbourhood(campaign, territory.pk)
    scene.owned = owned
    territory.owner_id = owned[territory.pk]  # as it stands now that it is locked
    scene.graph = {territory.pk: neighbours}
    # The participants and every unit standing on the battlefield (the previous owner's
    # unpiloted vehicles retreat if it changes hands), in one statement.
    # FOR NO KEY UPDATE (here and below): a recording changes no keys, and the foreign
    # keys other transactions write to these rows take KEY SHARE, which FOR UPDATE
    # would block (issue 32's deadlocks).
    scene.standing = {u.pk: u for u in Unit.objects.select_for_update(no_key=True).filter(
        Q(pk__in=list(participants)) | Q(territory_id=territory.pk,
                                         status=Unit.Status.READY)).order_by("pk")}
    scene.units = {uid: scene.standing[uid] for uid in participants}
    pilot_ids = [p.pilot_id for p in participants.values() if p.pilot_id]
    scene.pilots = ({o.pk: o for o in Operative.objects.select_for_update(no_key=True).filter(
        pk__in=pilot_ids).order_by("pk")} if pilot_ids else {})
    scene.outcomes = {u.unit: u for u in outcome.units}
    scene.owner_before = territory.owner_id


def _take_the_field(scene: Scene) -> None:
    """Ownership first: the winner's units now stand on a territory with no enemy; the
    winner takes it (`ownership.taking`), its entry drafted into the recording's
    journal."""
    winner_id, territory = scene.winner_id, scene.territory
    standing_winner = winner_id is not None and any(
        o.fate in ("intact", "damaged") and scene.participants.get(uid)
        and scene.participants[uid].player_id == winner_id
        for uid, o in scene.outcomes.items())
    if standing_winner and winner_id is not None and winner_id != territory.owner_id:
        exploration, entry = taking(territory=territory, player=scene.players[winner_id],
                                    reason="battle", journal=scene.journal)
        scene.journal.append(entry)
        scene.exploration = exploration
        scene.owned[territory.pk] = winner_id


def _settle_the_units(scene: Scene) -> None:
    """Each participant's fate (R-BJ-5 to R-BJ-7), damage, veterancy and its pilot's XP;
    the economy writes the rows' fields."""
    awards: dict[int, list[XpAward]] = defaultdict(list)
    for award in scene.outcome.xp:
        awards[award.unit].append(award)
    options = ruleset_options(scene.campaign, scene.ruleset)
    pilot_rule = scene.campaign.settings.pilot_of_destroyed_unit
    territory, battle = scene.territory, scene.battle
    for uid, participant in scene.participants.items():
        unit = scene.units[uid]
        result = scene.outcomes.get(uid)
        fate = result.fate if result else "intact"
        if result is not None:
            battle_effects.set_unit_state(unit, result.state)
        # R-BJ-5: a side that did not win leaves the field: what is not destroyed retreats.
        if fate in ("intact", "damaged") and scene.winner_id is not None \
                and participant.player_id != scene.winner_id:
            fate = "retreated"
        pilot = scene.pilots.get(participant.pilot_id) if participant.pilot_id else None
        if fate == "destroyed":
            battle_effects.unit_destroyed(unit)
            if pilot is not None:
                if pilot_rule == "dies":
                    battle_effects.pilot_killed(pilot)
                else:  # R-BJ-6: the pilot ejects and goes where a retreat would go
                    battle_effects.pilot_moved(pilot, territory_id=_retreat_to(
                        unit, participant, scene.origins, scene.graph, scene.owned,
                        territory.pk))
                scene.changed_pilots[pilot.pk] = pilot
        elif fate == "retreated":
            _retreat(scene, unit, participant)
        else:  # reinforcements stay where they fought
            battle_effects.unit_moved(unit, territory_id=territory.pk)
        if pilot is None and fate != "destroyed" and awards.get(uid):
            # A unit that learns itself (a training ladder): the ruleset's veterancy.
            battle_effects.set_unit_state(unit, scene.ruleset.veterancy(
                dict(unit.state or {}), awards[uid], options))
        if pilot is not None and pilot.pk == participant.pilot_id:
            if pilot.territory_id != unit.territory_id and fate != "destroyed":
                battle_effects.pilot_moved(pilot, territory_id=unit.territory_id)
                scene.changed_pilots[pilot.pk] = pilot
            alive = not (fate == "destroyed" and pilot_rule == "dies")
            kinds = battle_xp_kinds(class_key=pilot.klass,
                                    events=[a.kind for a in awards.get(uid, [])],
                                    survived=fate != "destroyed") if alive else []
            if kinds:
                _award, data = grant_xp(operative=pilot, kinds=kinds, campaign=scene.campaign,
                                        context={"battle": battle.pk, "unit": uid})
                scene.changed_pilots[pilot.pk] = pilot
                scene.journal.append(Entry(
                    kind="xp_awarded", data=data, visibility=Event.Visibility.PRIVATE,
                    viewers=(participant.player_id,)))
        line = {"unit": uid, "player": participant.player_id, "model": unit.model,
                "fate": fate, "reinforcement": participant.reinforcement}
        if result is not None:
            line.update(result.detail)
        if scene.ruleset.pilots:
            line.setdefault("hit_points_left", None)
        else:
            line["state"] = dict(unit.state or {})
        scene.report.append(line)


def _retreat(scene: Scene, unit: Any, participant: BattleParticipant | None) -> None:
    """R-BJ-7: the unit retreats to an adjacent territory its player controls, or goes
    off the map."""
    destination = _retreat_to(unit, participant, scene.origins, scene.graph, scene.owned,
                              scene.territory.pk)
    if destination is None:
        battle_effects.unit_off_map(unit, until_turn=scene.battle.turn + 2)
        scene.off_map.append(unit.pk)
    else:
        battle_effects.unit_moved(unit, territory_id=destination)
        scene.retreats.append({"unit": unit.pk, "to": destination})


def _retreat_the_unpiloted(scene: Scene) -> None:
    """Unpiloted vehicles of players who lost the territory retreat like the losers."""
    territory, owner_before = scene.territory, scene.owner_before
    if territory.owner_id == owner_before or owner_before is None:
        return
    for uid, unit in scene.standing.items():
        if uid in scene.participants or unit.player_id != owner_before:
            continue
        _retreat(scene, unit, None)
        scene.units.setdefault(uid, unit)


def _save_units_and_pilots(scene: Scene) -> None:
    battle_effects.save_units([scene.units[uid] for uid in sorted(scene.units)])
    battle_effects.save_pilots([scene.changed_pilots[pk]
                                for pk in sorted(scene.changed_pilots)])


def _explore(scene: Scene) -> None:
    """R-XP-3: the winner's pilots standing on a territory explored now explored it. Their
    XP is granted in memory, after their battle's, and saved with the other pilots; the
    entries follow the battle's XP entries in the recording's journal (issue 32: no
    write of their own)."""
    if scene.exploration is None or scene.winner_id is None:
        return
    territory, units = scene.territory, scene.units
    explorers = [scene.pilots[p.pilot_id] for uid, p in scene.participants.items()
                 if p.player_id == scene.winner_id and p.pilot_id in scene.pilots
                 and units[uid].status == Unit.Status.READY
                 and units[uid].territory_id == territory.pk]
    for pilot, _award, data in grant_discovery_xp(
            exploration=scene.exploration, operatives=explorers, campaign=scene.campaign,
            context={"battle": scene.battle.pk}):
        scene.changed_pilots[pilot.pk] = pilot
        scene.journal.append(Entry(kind="xp_awarded", data=data,
                                   visibility=Event.Visibility.PRIVATE,
                                   viewers=(scene.winner_id,)))


def _ruleset_effects(scene: Scene) -> None:
    """The effects the ruleset declares beyond the neutral outcome, each by its handler
    (battles.services.effects)."""
    scene.extras = apply_effects(
        Recording(campaign=scene.campaign, battle=scene.battle, units=scene.units,
                  sides=scene.sides, players=scene.players, winner_id=scene.winner_id),
        scene.ruleset.effects, scene.outcome.effects)


def _buildings(scene: Scene) -> None:
    """Buildings destroyed and damaged (the economy's rows)."""
    territory_id = scene.territory.pk
    scene.gone = battle_effects.destroy_buildings(
        territory_id=territory_id, building_ids=list(scene.outcome.buildings_destroyed))
    battle_effects.set_buildings_hit_points(
        territory_id=territory_id, hit_points=dict(scene.outcome.building_hit_points))


#: The order of a recording's steps, stated once: locks first (in the lock order), then
#: ownership before the units' fates (a retreat goes where the player still holds), the
#: exploration's XP after the battle's (both in memory), the units and pilots saved once,
#: the ruleset's effects, buildings.
STEPS: tuple[Callable[[Scene], None], ...] = (
    _lock_the_field, _take_the_field, _settle_the_units, _retreat_the_unpiloted,
    _explore, _save_units_and_pilots, _ruleset_effects, _buildings)


def _apply(campaign: Campaign, battle: Battle, outcome: Outcome, ruleset: Ruleset,
           journal: list[Entry]) -> dict[str, Any]:
    scene = Scene(campaign=campaign, battle=battle, outcome=outcome, ruleset=ruleset,
                  journal=journal)
    for step in STEPS:
        step(scene)
    territory = scene.territory
    return {
        "territory": territory.pk, "name": territory.name, "winner": scene.winner_id,
        "owner_before": scene.owner_before, "owner": territory.owner_id,
        "owner_changed": territory.owner_id != scene.owner_before, "units": scene.report,
        "retreats": scene.retreats, "off_map": scene.off_map,
        "buildings_destroyed": [{"id": b["pk"], "kind": b["kind"]} for b in scene.gone],
        "rounds": outcome.rounds, "end_reason": outcome.end_reason, **scene.extras,
    }


def _retreat_to(unit: Any, participant: BattleParticipant | None, origins: dict[int, int],
                graph: Mapping[int, Iterable[int]], owned: dict[int, int | None],
                battlefield: int) -> int | None:
    """R-BJ-7: a retreat goes to an adjacent territory the unit's player controls: the one
    it came from if that qualifies (its move's origin, or a reinforcement's territory),
    else the one with the lowest id; None when there is none (off the map)."""
    candidates = sorted(t for t in graph.get(battlefield, ())
                        if owned.get(t) == unit.player_id)
    if not candidates:
        return None
    preferred = (participant.origin_id if participant is not None and participant.origin_id
                 else origins.get(unit.pk))
    return preferred if preferred in candidates else candidates[0]
