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
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from battles.models import Battle, BattleParticipant, BattleRecord
from battles.rulesets.unlimit3d8.engine.model import BattleResult
from battles.services.experience import award_discovery_xp, award_xp, battle_xp_kinds
from battles.services.opening import _adjacency, take_territory
from campaign.models import Campaign, Order, Player
from campaign.services.journal import record_event
from campaign.services.research import transfer_research_points
from economy.services import battle_effects

log = logging.getLogger(__name__)


def record_result(*, battle_id: int, result: dict[str, Any] | BattleResult,
                  source: str = "engine") -> bool:
    """Apply `result` (a `BattleResult` or its dict) to the campaign. Returns False when
    the battle was already recorded (nothing changes)."""
    data = result.to_dict() if isinstance(result, BattleResult) else dict(result)
    outcome = BattleResult.from_dict(data)
    campaign_id = Battle.objects.filter(pk=battle_id).values_list("campaign_id", flat=True)
    with transaction.atomic():
        # Lock order: campaign, then battle (as the clock does), so recordings of one
        # campaign are serialised and cannot interleave with an advance.
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id.get())
        battle = Battle.objects.select_for_update().select_related("territory").get(
            pk=battle_id)
        if BattleRecord.objects.filter(battle=battle).exists():
            return False
        try:
            with transaction.atomic():
                BattleRecord.objects.create(battle=battle, source=source)
        except IntegrityError:
            return False
        summary = _apply(campaign, battle, outcome)
        stored = {k: v for k, v in data.items() if k != "log"}
        battle.result = stored
        battle.log = list(data.get("log") or [])
        battle.status = Battle.Status.FINISHED
        battle.finished_at = timezone.now()
        battle.proposed_result = None
        battle.save(update_fields=["result", "log", "status", "finished_at", "winner",
                                   "proposed_result"])
        record_event(campaign=campaign, kind="battle_result",
                     data={"battle": battle.pk, "source": source, **summary})
    return True


def _apply(campaign: Campaign, battle: Battle, outcome: BattleResult) -> dict[str, Any]:
    from economy.models import Operative, Unit

    territory = battle.territory
    sides = {str(s["player"]): s["player"] for s in battle.sides}
    players = {p.pk: p for p in Player.objects.filter(pk__in=sides.values())}
    winner_id = sides.get(str(outcome.winner)) if outcome.winner is not None else None
    battle.winner_id = winner_id
    participants = {p.unit_id: p for p in BattleParticipant.objects.filter(battle=battle)}
    units = {u.pk: u for u in Unit.objects.select_for_update().filter(
        pk__in=participants)}
    pilots = {o.pk: o for o in Operative.objects.select_for_update().filter(
        pk__in=[p.pilot_id for p in participants.values() if p.pilot_id])}
    graph = _adjacency(campaign)
    origins = dict(Order.objects.filter(campaign=campaign, turn=battle.turn,
                                        unit_id__in=participants,
                                        status=Order.Status.EXECUTED)
                   .values_list("unit_id", "origin_id"))
    pilot_rule = campaign.settings.pilot_of_destroyed_unit
    outcomes = {int(u.id): u for u in outcome.units}

    # Ownership first: the winner's units now stand on a territory with no enemy.
    owner_before = territory.owner_id
    standing_winner = winner_id is not None and any(
        o.fate in ("intact", "damaged") and participants.get(uid)
        and participants[uid].player_id == winner_id for uid, o in outcomes.items())
    exploration = None
    if standing_winner and winner_id != territory.owner_id:
        players[winner_id].campaign = campaign
        exploration = take_territory(territory=territory, player=players[winner_id],
                                     reason="battle")

    report: list[dict[str, Any]] = []
    retreats: list[dict[str, Any]] = []
    off_map: list[int] = []
    xp_by_unit: dict[int, list[str]] = defaultdict(list)
    for event in outcome.xp_events:
        xp_by_unit[int(event.unit_id)].append(event.kind)
    owned = _owned_territories(campaign)
    for uid, participant in participants.items():
        unit = units[uid]
        result = outcomes.get(uid)
        fate = result.fate if result else "intact"
        if result is not None:
            unit.damage_repairable = result.repairable
            unit.damage_unrepairable = result.unrepairable
        # R-BJ-5: a side that did not win leaves the field: what is not destroyed retreats.
        if fate in ("intact", "damaged") and winner_id is not None \
                and participant.player_id != winner_id:
            fate = "retreated"
        destination = None
        pilot = pilots.get(participant.pilot_id) if participant.pilot_id else None
        if fate == "destroyed":
            unit.status = Unit.Status.DESTROYED
            unit.pilot = None
            if pilot is not None:
                if pilot_rule == "dies":
                    pilot.alive = False
                    battle_effects.save_pilot(pilot, fields=["alive"])
                else:  # R-BJ-6: the pilot ejects and goes where a retreat would go
                    pilot.territory_id = _retreat_to(unit, participant, origins, graph,
                                                     owned, territory.pk)
                    battle_effects.save_pilot(pilot, fields=["territory"])
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
        battle_effects.save_unit(unit)
        if pilot is not None and pilot.pk == participant.pilot_id:
            if pilot.territory_id != unit.territory_id and fate != "destroyed":
                pilot.territory_id = unit.territory_id
                battle_effects.save_pilot(pilot, fields=["territory"])
            alive = not (fate == "destroyed" and pilot_rule == "dies")
            kinds = battle_xp_kinds(class_key=pilot.klass, events=xp_by_unit.get(uid, []),
                                    survived=fate != "destroyed") if alive else []
            if kinds:
                pilot.player = players[participant.player_id]
                pilot.player.campaign = campaign
                award_xp(operative=pilot, kinds=kinds, campaign=campaign,
                         context={"battle": battle.pk, "unit": uid})
        report.append({"unit": uid, "player": participant.player_id, "model": unit.model,
                       "fate": fate, "hit_points_left": result.hit_points_left
                       if result else None, "reinforcement": participant.reinforcement})

    if exploration is not None:  # R-XP-3: the winner's pilots standing on it explored it
        explorers = [pilots[p.pilot_id] for uid, p in participants.items()
                     if p.player_id == winner_id and p.pilot_id in pilots
                     and units[uid].status == Unit.Status.READY
                     and units[uid].territory_id == territory.pk]
        for op in explorers:
            op.player = players[winner_id]
        award_discovery_xp(exploration=exploration, operatives=explorers, campaign=campaign,
                           context={"battle": battle.pk})

    # Unpiloted vehicles of players who lost the territory retreat like the losers.
    if territory.owner_id != owner_before and owner_before is not None:
        for unit in Unit.objects.select_for_update().filter(
                territory=territory, player_id=owner_before, status=Unit.Status.READY):
            destination = _retreat_to(unit, None, origins, graph, owned, territory.pk)
            if destination is None:
                unit.status, unit.territory = Unit.Status.OFF_MAP, None
                unit.locked_until_turn = battle.turn + 2
                off_map.append(unit.pk)
            else:
                unit.territory_id = destination
                retreats.append({"unit": unit.pk, "to": destination})
            battle_effects.save_unit(unit)

    extras = _campaign_effects(campaign, battle, outcome, units, sides, players, winner_id)

    gone = battle_effects.destroy_buildings(
        territory_id=territory.pk, building_ids=[int(b) for b in outcome.buildings_destroyed])
    battle_effects.set_building_hit_points(
        territory_id=territory.pk,
        hit_points={int(b.id): b.hit_points_left for b in outcome.buildings if not b.destroyed})
    return {
        "territory": territory.pk, "name": territory.name, "winner": winner_id,
        "owner_before": owner_before, "owner": territory.owner_id,
        "owner_changed": territory.owner_id != owner_before, "units": report,
        "retreats": retreats, "off_map": off_map,
        "buildings_destroyed": [{"id": b["pk"], "kind": b["kind"]} for b in gone],
        "rounds": outcome.rounds, "end_reason": outcome.end_reason, **extras,
    }


def _campaign_effects(campaign: Campaign, battle: Battle, outcome: BattleResult,
                      units: dict[int, Any], sides: dict[str, int],
                      players: dict[int, Player], winner_id: int | None) -> dict[str, Any]:
    """What the engine reports for the campaign beyond units and buildings: silo missiles
    spent (R-BJ-11), containers carried off (R-BJ-12) and laboratories robbed (R-BJ-13).
    Results from before these outputs existed have none of them and record as before."""
    missiles = _spend_missiles(battle, getattr(outcome, "missiles_used", None) or {})
    cargo = _move_cargo(battle, getattr(outcome, "cargo", None) or (), units, sides,
                        winner_id)
    piracies = _rob_laboratories(campaign, battle, getattr(outcome, "lab_piracies", None)
                                 or (), sides, players)
    return {"missiles_fired": missiles, "cargo": cargo, "lab_piracies": piracies}


def _spend_missiles(battle: Battle, used: dict[str, int]) -> list[dict[str, Any]]:
    """The engine spends a side's listed missiles in order (nearest silo first): the first
    `used` entries of the side's list name the silos to empty (the economy spends them)."""
    listed = (battle.input or {}).get("missiles") or {}
    spent: list[dict[str, Any]] = []
    for side, count in sorted(used.items()):
        silos = [m.get("silo") for m in (listed.get(side) or [])[:max(0, int(count))]]
        spent += [{"side": side, **entry} for entry in battle_effects.spend_missiles(silos)]
    return spent


def _move_cargo(battle: Battle, cargo: Any, units: dict[int, Any], sides: dict[str, int],
                winner_id: int | None) -> list[dict[str, Any]]:
    """R-BJ-12: a container `taken` by a side that now holds the battlefield stays there
    (the stock is the territory's); one carried off by a unit that retreated goes to the
    territory that unit retreated to, what does not fit in its warehouses is lost; a
    carrier off the map or destroyed, or a lorry destroyed (`lost`), loses it. The
    economy moves the stock."""
    from battles.services.inputs import parse_cargo_id

    territory = battle.territory
    moved: list[dict[str, Any]] = []
    for c in cargo:
        fate = getattr(c, "fate", "left")
        parsed = parse_cargo_id(getattr(c, "id", ""))
        if fate == "left" or parsed is None:
            continue
        key, _n = parsed
        units_here = min(int(getattr(c, "units", 0)),
                         battle_effects.stock_on(territory.pk, key))
        taker = sides.get(str(getattr(c, "taken_by", None)))
        entry: dict[str, Any] = {"container": c.id, "resource": key[0], "refined": key[1],
                                 "pure": key[2], "units": units_here, "fate": fate,
                                 "taken_by": taker}
        if fate == "taken" and taker is not None and taker == territory.owner_id:
            entry["to"] = territory.pk  # the taker holds the field: nothing moves
            moved.append(entry)
            continue
        carrier = units.get(int(c.carrier)) if getattr(c, "carrier", None) is not None \
            and str(c.carrier).isdigit() else None
        destination = (carrier.territory_id if fate == "taken" and carrier is not None
                       and carrier.status == "ready" and carrier.territory_id != territory.pk
                       else None)
        stored, lost = battle_effects.carry_off(battlefield_id=territory.pk, key=key,
                                                units=units_here,
                                                destination_id=destination)
        entry.update(to=destination, stored=stored, lost=lost)
        moved.append(entry)
    return moved


def _rob_laboratories(campaign: Campaign, battle: Battle, attempts: Any,
                      sides: dict[str, int], players: dict[int, Player]
                      ) -> list[dict[str, Any]]:
    """R-BJ-13: a successful piracy on a laboratory steals research points from the
    laboratory's owner (the defender): as many as the difficulty beaten, at most what the
    owner has; they go to the pirate's player (the core moves them)."""
    robbed: list[dict[str, Any]] = []
    owner_id = battle.defender_id
    for attempt in attempts:
        if not isinstance(attempt, dict) or not attempt.get("success"):
            continue
        thief = sides.get(str(attempt.get("side")))
        if thief is None or owner_id is None or thief == owner_id:
            continue
        points = transfer_research_points(from_player_id=owner_id, to_player_id=thief,
                                          points=int(attempt.get("difficulty") or 0))
        robbed.append({"laboratory": attempt.get("laboratory"), "unit": attempt.get("unit"),
                       "from": owner_id, "to": thief, "research_points": points})
    return robbed


def _owned_territories(campaign: Campaign) -> dict[int, int | None]:
    from territories.models import Territory

    return dict(Territory.objects.filter(campaign=campaign).values_list("pk", "owner_id"))


def _retreat_to(unit: Any, participant: BattleParticipant | None, origins: dict[int, int],
                graph: dict[int, set[int]], owned: dict[int, int | None],
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
