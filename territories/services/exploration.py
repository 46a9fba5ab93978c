"""Exploration: "When you take control of a territory no-one owned before, you make an
exploration roll to determine the resources present" (seed, exploration table).

3d8: the sum picks the resource, the active die the units per mine shaft per turn, a
passive die of 7+ makes the deposit pure, a nemesis die of 2- makes the ground
unstable and 8+ triggers a discovery roll (d8). Every die and what it decided is
stored in `Exploration` and written to the journal (private to the owner unless the
campaign's `deposits_public` option is on). Credits found go through the ledger.

Experience earned from discoveries (a worker on a pure deposit, a scientist on
xenotech) is awarded by the caller that knows who explored: `take_territory` in
`battles/services/opening.py` passes the pilots of the units that took the territory
(R-XP-3); a starting territory has no explorers (R-XP-4). An artifact becomes an
`economy.Artifact` row, to be sold or housed (R-ECO-19): the economy's discovery
handler writes it and the credits (`discoveries_made`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction

from campaign.bulk import bulk_set
from campaign.dice import Dice, campaign_dice, dice_source, rolling_phase
from campaign.hooks import Hook
from campaign.models import Campaign, Event, Player
from campaign.rules import (
    DISCOVERIES_BY_KEY,
    DISCOVERY_NEMESIS_MIN,
    MINE_YIELD,
    PURE_PASSIVE_MIN,
    UNSTABLE_NEMESIS_MAX,
    discovery_for_face,
    resource_for_score,
)
from campaign.services.journal import Entry, record_many
from territories.models import Exploration, Territory

discoveries_made: Hook[[Any, list[tuple[Territory, Any, Exploration]]], object] = Hook(
    "discoveries_made", """What a discovery gives besides the deposit (seed, discovery
table): artifacts and credits, the economy's rows.

Called by `territories.services.exploration` when explorations just made found something
(a discovery or credits), as `receiver(campaign, made)`: `made` the (territory, player,
exploration) triples in the order they were rolled, inside the exploring transaction.
The economy writes the artifacts and the credits; the result is unused.""")


def _discovered(campaign: Campaign, made: list[tuple[Territory, Any, Exploration]]) -> None:
    if any(e.discovery or e.credits_awarded for _, _, e in made):
        discoveries_made.call(campaign, made)


def exploration_purpose(territory: Territory) -> str:
    return f"explore:{territory.name}"


def explore(*, territory: Territory, player: Player, dice: Dice | None = None
            ) -> Exploration:
    """Roll the exploration of `territory` for `player`, who has just taken it.

    A territory is explored once: if it already has an exploration it is returned
    unchanged and no die is rolled.
    """
    with transaction.atomic(savepoint=False):
        exploration, made = _explore(territory=territory, player=player, dice=dice)
        if made:
            Territory.objects.filter(pk=territory.pk).update(ever_owned=True)
            territory.ever_owned = True
    return exploration


def _explore(*, territory: Territory, player: Player, dice: Dice | None = None,
             journal: list[Entry] | None = None) -> tuple[Exploration, bool]:
    """`explore` without marking the territory explored (the caller does, with the
    owner: `change_owner`): the exploration and whether it was made now. Inside a
    transaction; a savepoint only where a parallel exploration can collide (a discovery
    unique to the campaign), so a battle's recording pays no savepoint per exploration
    (issue 32). With `journal`, its entry is appended there for the caller to write with
    its own (a battle's recording: one write for all), else written now."""
    campaign = player.campaign
    existing = Exploration.objects.filter(territory=territory).first()
    if existing is not None:
        return existing, False
    dice = dice or campaign_dice(campaign, exploration_purpose(territory))
    fields, downgraded = _roll(
        dice, campaign=campaign, territory=territory, player=player,
        phase=rolling_phase(campaign)[1],
        already_found=lambda key: Exploration.objects.filter(
            campaign=campaign, discovery=key).exists())
    spec = DISCOVERIES_BY_KEY.get(fields.get("discovery") or "")
    if spec is not None and spec.unique_per_campaign:
        try:
            with transaction.atomic():
                exploration = Exploration.objects.create(**fields)
        except IntegrityError:
            # A parallel exploration claimed the campaign's xeno craft first: the
            # database constraint holds, and ours becomes a simple artifact.
            fields["discovery"] = spec.duplicate_becomes
            downgraded = True
            exploration = Exploration.objects.create(**fields)
    else:
        exploration = Exploration.objects.create(**fields)
    _discovered(campaign, [(territory, player, exploration)])
    data = exploration_data(exploration, territory)
    data["xeno_craft_became_artifact"] = downgraded
    data["purpose"] = exploration_purpose(territory)
    entry = (Entry(kind="territory_explored", data=data) if campaign.settings.deposits_public
             else Entry(kind="territory_explored", data=data,
                        visibility=Event.Visibility.PRIVATE, viewers=(player,)))
    if journal is not None:
        journal.append(entry)
    else:
        # One entry through `record_many`: two statements (a fresh entry's viewers need
        # no read of the ones it has, as `viewers.set` does).
        record_many(campaign=campaign, entries=[entry])
    return exploration, True


def _roll(dice: Dice, *, campaign: Campaign, territory: Territory, player: Player, phase: str,
          already_found: Callable[[str], bool]) -> tuple[dict[str, Any], bool]:
    """One exploration roll (seed, "Exploration"): 3d8 for the deposit, a discovery when
    the nemesis die is high enough, its value die. Returns the Exploration's fields and
    whether a discovery unique to the campaign that `already_found` says was found became
    its duplicate (a second xeno craft becomes an artifact)."""
    roll = dice.roll_3d8()
    resource = resource_for_score(roll.total)
    fields: dict[str, Any] = {
        "campaign": campaign, "territory": territory, "player": player,
        "turn": campaign.turn, "phase": phase,
        "active_die": roll.active, "passive_die": roll.passive,
        "nemesis_die": roll.nemesis, "resource": resource.key,
        "units_per_shaft": MINE_YIELD[roll.active],
        "pure": roll.passive >= PURE_PASSIVE_MIN,
        "unstable": roll.nemesis <= UNSTABLE_NEMESIS_MAX,
    }
    downgraded = False
    if roll.nemesis >= DISCOVERY_NEMESIS_MIN:
        face = dice.d8()
        spec = discovery_for_face(face)
        fields["discovery_die"] = face
        fields["discovery"] = spec.key
        if spec.credits_die_multiplier:
            value = dice.d8()
            fields["value_die"] = value
            fields["credits_awarded"] = value * spec.credits_die_multiplier
        if spec.unique_per_campaign and already_found(spec.key):
            fields["discovery"] = spec.duplicate_becomes
            downgraded = True
    return fields, downgraded


def exploration_data(exploration: Exploration, territory: Territory | None = None
                     ) -> dict[str, Any]:
    """What an exploration decided, as shown to those who may see the deposit."""
    return {
        "territory": exploration.territory_id,
        "territory_name": territory.name if territory is not None else None,
        "player": exploration.player_id,
        "dice": {"active": exploration.active_die, "passive": exploration.passive_die,
                 "nemesis": exploration.nemesis_die,
                 "total": exploration.active_die + exploration.passive_die
                 + exploration.nemesis_die},
        "resource": exploration.resource,
        "units_per_shaft": exploration.units_per_shaft,
        "pure": exploration.pure,
        "unstable": exploration.unstable,
        "discovery": exploration.discovery or None,
        "discovery_die": exploration.discovery_die,
        "value_die": exploration.value_die,
        "credits": exploration.credits_awarded,
        "discoveries": [d for d in (exploration.discovery,) if d]
        + (["pure_deposit"] if exploration.pure else []),
    }


def change_owner(*, territory: Territory, player: Player,
                 journal: list[Entry] | None = None) -> Any:
    """`player` takes possession of `territory` (a battle won, a territory entered
    unopposed); a never-owned one gets its exploration roll ("When you take control of a
    territory no-one owned before, you make an exploration roll"). Returns that
    exploration, or None. Updates the instance too. Call inside a transaction. With
    `journal`, the exploration's entry is appended there (`_explore`)."""
    explored_now = not territory.ever_owned
    # The owner and the explored mark in one statement.
    Territory.objects.filter(pk=territory.pk).update(
        owner=player, **({"ever_owned": True} if explored_now else {}))
    territory.owner_id = player.pk
    territory.owner = player
    if not explored_now:
        return None
    territory.ever_owned = True
    with transaction.atomic(savepoint=False):
        exploration, _made = _explore(territory=territory, player=player, journal=journal)
    return exploration


def explore_many(*, campaign: Campaign, takes: list[tuple[Territory, Any]]
                 ) -> dict[int, tuple[Exploration, Entry | None]]:
    """`explore` for many (territory, player) pairs at once, in the order given (the dice
    are rolled in that order, each territory with its own purpose): a fixed number of
    queries. Returns {territory id: (exploration, its journal entry, or None when it
    existed already)}; the caller writes the entries (in its own order of events) and
    marks the territories explored. Call inside a transaction."""
    result: dict[int, tuple[Exploration, Entry | None]] = {}
    if not takes:
        return result
    existing = {e.territory_id: e for e in
                Exploration.objects.filter(territory_id__in=[t.pk for t, _ in takes])}
    unique = sorted(k for k, spec in DISCOVERIES_BY_KEY.items() if spec.unique_per_campaign)
    found = set(Exploration.objects.filter(campaign=campaign, discovery__in=unique)
                .values_list("discovery", flat=True))
    source = dice_source(campaign)
    phase = rolling_phase(campaign)[1]
    made: list[tuple[Territory, Any, Exploration, bool]] = []
    for territory, player in takes:
        if territory.pk in existing:
            result[territory.pk] = (existing[territory.pk], None)
            continue
        fields, downgraded = _roll(source(exploration_purpose(territory)),
                                   campaign=campaign, territory=territory, player=player,
                                   phase=phase, already_found=found.__contains__)
        if fields.get("discovery") in unique:  # the first of a kind this campaign
            found.add(fields["discovery"])
        exploration = Exploration(**fields)
        existing[territory.pk] = exploration  # a territory listed twice is explored once
        made.append((territory, player, exploration, downgraded))
    Exploration.objects.bulk_create([e for _, _, e, _ in made])
    _discovered(campaign, [(t, p, e) for t, p, e, _ in made])
    public = campaign.settings.deposits_public
    for territory, player, e, downgraded in made:
        data = exploration_data(e, territory)
        data["xeno_craft_became_artifact"] = downgraded
        data["purpose"] = exploration_purpose(territory)
        entry = (Entry(kind="territory_explored", data=data) if public else
                 Entry(kind="territory_explored", data=data,
                       visibility=Event.Visibility.PRIVATE, viewers=(player,)))
        result[territory.pk] = (e, entry)
    return result


def change_owners(*, campaign: Campaign, takes: list[tuple[Any, Any]]
                  ) -> list[tuple[Exploration | None, Entry | None]]:
    """`change_owner` for many (territory, player) pairs at once, in order: a fixed
    number of queries. Returns, for each pair, the exploration made now (or None) and its
    journal entry for the caller to write (in its order of events). Updates the
    instances. Call inside a transaction."""
    explored_now = [(t, p) for t, p in takes if not t.ever_owned]
    explorations = explore_many(campaign=campaign, takes=explored_now)
    result: list[tuple[Exploration | None, Entry | None]] = []
    for territory, player in takes:
        territory.owner_id = player.pk
        territory.owner = player
        if territory.ever_owned:
            result.append((None, None))
            continue
        territory.ever_owned = True
        result.append(explorations[territory.pk])
    if takes:
        bulk_set([t for t, _ in takes], ["owner", "ever_owned"])
    return result
