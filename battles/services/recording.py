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
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from battles.models import Battle, BattleParticipant, BattleRecord
from battles.rulesets.base import Outcome, Ruleset, XpAward
from battles.rulesets.registry import find_ruleset
from battles.services.effects import Recording, apply_effects
from battles.services.experience import award_discovery_xp, battle_xp_kinds, grant_xp
from battles.services.opening import ruleset_options, taking
from campaign.models import Campaign, Event, Player
from campaign.services.journal import Entry, record_many
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


def _take(campaign: Campaign, territory: Any, player: Player,
          journal: list[Entry]) -> Any:
    """The winner takes the battlefield (`opening.taking`), its entry drafted into the
    recording's journal instead of written on its own."""
    exploration, entry = taking(territory=territory, player=player, reason="battle")
    journal.append(entry)
    return exploration


def _apply(campaign: Campaign, battle: Battle, outcome: Outcome, ruleset: Ruleset,
           journal: list[Entry]) -> dict[str, Any]:
    from economy.models import Operative, Unit

    territory = battle.territory
    sides = {str(s["player"]): s["player"] for s in battle.sides}
    # Player rows are not read: the ids are what recording writes.
    players = {pk: Player(pk=pk, campaign=campaign) for pk in sides.values()}
    winner_id = sides.get(str(outcome.winner)) if outcome.winner is not None else None
    battle.winner_id = winner_id
    executed = Order.objects.filter(campaign=campaign, turn=battle.turn,
                                    unit_id=OuterRef("unit_id"),
                                    status=Order.Status.EXECUTED)
    participants = {p.unit_id: p for p in BattleParticipant.objects.filter(battle=battle)
                    .annotate(moved_from=Subquery(executed.values("origin_id")[:1]))}
    origins = {uid: p.moved_from for uid, p in participants.items() if p.moved_from}
    owned, neighbours = lock_neighbourhood(campaign, territory.pk)
    territory.owner_id = owned[territory.pk]  # as it stands now that it is locked
    graph = {territory.pk: neighbours}
    # The participants and every unit standing on the battlefield (the previous owner's
    # unpiloted vehicles retreat if it changes hands), in one statement.
    standing = {u.pk: u for u in Unit.objects.select_for_update().filter(
        Q(pk__in=list(participants)) | Q(territory_id=territory.pk,
                                         status=Unit.Status.READY)).order_by("pk")}
    units = {uid: standing[uid] for uid in participants}
    pilot_ids = [p.pilot_id for p in participants.values() if p.pilot_id]
    pilots = ({o.pk: o for o in Operative.objects.select_for_update().filter(
        pk__in=pilot_ids).order_by("pk")} if pilot_ids else {})
    changed_pilots: dict[int, Any] = {}
    pilot_rule = campaign.settings.pilot_of_destroyed_unit
    outcomes = {u.unit: u for u in outcome.units}

    # Ownership first: the winner's units now stand on a territory with no enemy.
    owner_before = territory.owner_id
    standing_winner = winner_id is not None and any(
        o.fate in ("intact", "damaged") and participants.get(uid)
        and participants[uid].player_id == winner_id for uid, o in outcomes.items())
    exploration = None
    if standing_winner and winner_id != territory.owner_id:
        exploration = _take(campaign, territory, players[winner_id], journal)
        owned[territory.pk] = winner_id

    report: list[dict[str, Any]] = []
    retreats: list[dict[str, Any]] = []
    off_map: list[int] = []
    awards: dict[int, list[XpAward]] = defaultdict(list)
    for award in outcome.xp:
        awards[award.unit].append(award)
    options = ruleset_options(campaign, ruleset)
    for uid, participant in participants.items():
        unit = units[uid]
        result = outcomes.get(uid)
        fate = result.fate if result else "intact"
        if result is not None:
            battle_effects.set_unit_state(unit, result.state)
        # R-BJ-5: a side that did not win leaves the field: what is not destroyed retreats.
        if fate in ("intact", "damaged") and winner_id is not None \
                and participant.player_id != winner_id:
            fate = "retreated"
        pilot = pilots.get(participant.pilot_id) if participant.pilot_id else None
        if fate == "destroyed":
            unit.status = Unit.Status.DESTROYED
            unit.pilot = None
            if pilot is not None:
                if pilot_rule == "dies":
                    pilot.alive = False
                else:  # R-BJ-6: the pilot ejects and goes where a retreat would go
                    pilot.territory_id = _retreat_to(unit, participant, origins, graph,
                                                     owned, territory.pk)
                changed_pilots[pilot.pk] = pilot
        elif fate == "retreated":
            destination = _retreat_to(unit, participant, origins, graph, owned,
                                      territory.pk)
            if destination is None:
                unit.status = Unit.Status.OFF_MAP
                unit.territory = None
                unit.locked_until_turn = battle.turn + 2
                off_map.append(uid)
            else:
                unit.territory_id = destination
                retreats.append({"unit": uid, "to": destination})
        else:
            unit.territory_id = territory.pk  # reinforcements stay where they fought
        if pilot is None and fate != "destroyed" and awards.get(uid):
            # A unit that learns itself (a training ladder): the ruleset's veterancy.
            battle_effects.set_unit_state(
                unit, ruleset.veterancy(dict(unit.state or {}), awards[uid], options))
        if pilot is not None and pilot.pk == participant.pilot_id:
            if pilot.territory_id != unit.territory_id and fate != "destroyed":
                pilot.territory_id = unit.territory_id
                changed_pilots[pilot.pk] = pilot
            alive = not (fate == "destroyed" and pilot_rule == "dies")
            kinds = battle_xp_kinds(class_key=pilot.klass,
                                    events=[a.kind for a in awards.get(uid, [])],
                                    survived=fate != "destroyed") if alive else []
            if kinds:
                _award, data = grant_xp(operative=pilot, kinds=kinds, campaign=campaign,
                                        context={"battle": battle.pk, "unit": uid})
                changed_pilots[pilot.pk] = pilot
                journal.append(Entry(
                    kind="xp_awarded", data=data, visibility=Event.Visibility.PRIVATE,
                    viewers=(participant.player_id,)))
        line = {"unit": uid, "player": participant.player_id, "model": unit.model,
                "fate": fate, "reinforcement": participant.reinforcement}
        if result is not None:
            line.update(result.detail)
        if ruleset.pilots:
            line.setdefault("hit_points_left", None)
        else:
            line["state"] = dict(unit.state or {})
        report.append(line)

    # Unpiloted vehicles of players who lost the territory retreat like the losers.
    if territory.owner_id != owner_before and owner_before is not None:
        for uid, unit in standing.items():
            if uid in participants or unit.player_id != owner_before:
                continue
            destination = _retreat_to(unit, None, origins, graph, owned, territory.pk)
            if destination is None:
                unit.status, unit.territory = Unit.Status.OFF_MAP, None
                unit.locked_until_turn = battle.turn + 2
                off_map.append(unit.pk)
            else:
                unit.territory_id = destination
                retreats.append({"unit": unit.pk, "to": destination})
            units.setdefault(uid, unit)
    battle_effects.save_units([units[uid] for uid in sorted(units)])
    battle_effects.save_pilots([changed_pilots[pk] for pk in sorted(changed_pilots)])

    if exploration is not None:  # R-XP-3: the winner's pilots standing on it explored it
        explorers = [pilots[p.pilot_id] for uid, p in participants.items()
                     if p.player_id == winner_id and p.pilot_id in pilots
                     and units[uid].status == Unit.Status.READY
                     and units[uid].territory_id == territory.pk]
        for op in explorers:
            op.player = players[winner_id]
        record_many(campaign=campaign, entries=journal)  # before the discovery's entries
        journal.clear()
        award_discovery_xp(exploration=exploration, operatives=explorers, campaign=campaign,
                           context={"battle": battle.pk})

    extras = apply_effects(Recording(campaign=campaign, battle=battle, units=units,
                                     sides=sides, players=players, winner_id=winner_id),
                           ruleset.effects, outcome.effects)

    gone = battle_effects.destroy_buildings(
        territory_id=territory.pk, building_ids=list(outcome.buildings_destroyed))
    battle_effects.set_buildings_hit_points(
        territory_id=territory.pk, hit_points=dict(outcome.building_hit_points))
    return {
        "territory": territory.pk, "name": territory.name, "winner": winner_id,
        "owner_before": owner_before, "owner": territory.owner_id,
        "owner_changed": territory.owner_id != owner_before, "units": report,
        "retreats": retreats, "off_map": off_map,
        "buildings_destroyed": [{"id": b["pk"], "kind": b["kind"]} for b in gone],
        "rounds": outcome.rounds, "end_reason": outcome.end_reason, **extras,
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
