"""Each rule of the battle-dice game as a function of the dice (every die through the
`Dice` seam): the engine plays them, the case book probes them one at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from battles.rulesets.base import RulesetError
from battles.rulesets.battledice import tables as T
from campaign.rules.dice import Dice


def faces_of(options: dict[str, Any] | None) -> tuple[str, ...]:
    faces = tuple((options or {}).get("battledice_faces") or T.DEFAULT_FACES)
    if len(faces) != 6 or any(f not in T.SYMBOLS for f in faces):
        raise RulesetError("battledice_faces must name six symbols of: "
                           + ", ".join(T.SYMBOLS) + ".")
    return faces


def roll_symbols(dice: Dice, n: int, faces: Sequence[str] = T.DEFAULT_FACES) -> list[str]:
    """R-BD-1: a battle die is a d6 whose faces are the six symbols."""
    return [faces[dice.d6() - 1] for _ in range(max(0, n))]


@dataclass(frozen=True)
class Target:
    """What a battle needs to know of the unit battled against."""

    unit_class: str
    unit_type: str
    models: int = 1
    size: int = 1
    damage: int = 0
    leader_attached: bool = False
    in_cover: bool = False

    @property
    def single(self) -> bool:
        return self.models == 1 and self.unit_class != "infantry"

    @property
    def is_leader(self) -> bool:
        return self.unit_class == "leader"

    @property
    def counts_as(self) -> str:
        """Leader units "are hit on Leader symbols and the symbol for the unit class that
        they count as" (infantry, R-BD-2)."""
        return "infantry" if self.is_leader and self.models > 1 else self.unit_class


def ignores_first_target(attacker_class: str, attacker_type: str, target: Target) -> bool:
    """Battle Hierarchy: "Target units of a higher 'Unit Class' than the battling unit
    ignore the first 'Target' symbol ... Target units of a higher 'Unit Type' than a
    battling unit of the same 'Unit Class' ignore the first 'Target' symbol"."""
    a, t = T.CLASS_RANK[attacker_class], T.CLASS_RANK[target.unit_class]
    if t < a:
        return True
    return t == a and T.TYPE_RANK[target.unit_type] < T.TYPE_RANK[attacker_type]


def hits_from(symbols: Sequence[str], *, attacker_class: str, attacker_type: str,
              target: Target, attacker_has_leader: bool = False) -> dict[str, Any]:
    """Read the battle dice against one target: hits, retreats and a Leader casualty."""
    hits = 0
    leader_symbols = 0
    retreats = 0
    targets = 0
    for s in symbols:
        if s == "retreat":
            retreats += 1
        elif s == "target":
            if not target.is_leader:  # "a hit on any unit except Leader units"
                targets += 1
        elif s == "leader":
            if target.is_leader:
                hits += 1  # "Each Leader symbol rolled will cause a leader to become a casualty"
            elif attacker_has_leader:
                # an attached leader "allows the unit to score a hit on the Leader symbol"
                hits += 1
            else:
                leader_symbols += 1
        elif s == target.counts_as:
            hits += 1
    if targets and ignores_first_target(attacker_class, attacker_type, target):
        targets -= 1
    hits += targets
    # "any Leader symbols rolled will cause the Leader to become a casualty, as long as at
    # least one casualty is caused to the unit as well."
    leader_lost = target.leader_attached and leader_symbols > 0 and hits > 0
    if target.leader_attached:
        retreats = max(0, retreats - 1)  # "ignore an additional retreat symbol"
    return {"symbols": list(symbols), "hits": hits, "retreats": retreats,
            "leader_lost": leader_lost}


def void_shields(dice: Dice, *, capacity: int, damage: int, hits: int,
                 faces: Sequence[str] = T.DEFAULT_FACES) -> dict[str, Any]:
    """"God Machines have a number of void shields equal to its remaining 'Damage
    Capacity'. This is the number of dice you can roll to save against an enemy battle
    dice. Each 'God Machine' symbol rolled will ignore a single hit." No hits, no roll."""
    if hits <= 0:
        return {"symbols": [], "saved": 0, "hits": 0}
    symbols = roll_symbols(dice, max(0, capacity - damage), faces)
    saved = min(hits, symbols.count("god_machine"))
    return {"symbols": symbols, "saved": saved, "hits": hits - saved}


def apply_hits(*, models: int, size: int, damage: int, hits: int,
               unit_class: str) -> dict[str, Any]:
    """Multi-model units lose a model per hit; "A unit which is made up of a single model
    can take a number of hits equal to its 'Damage Capacity' which is equal to its
    'Size'."""
    if models == 1 and unit_class != "infantry":
        damage = min(size, damage + hits)
        return {"models": 0 if damage >= size else 1, "damage": damage,
                "destroyed": damage >= size}
    left = max(0, models - hits)
    return {"models": left, "damage": 0, "destroyed": left == 0}


def battle_dice(*, dice: int, rank: int = 0, close_assault: bool, distance: int,
                range_: int, target_in_cover: bool) -> int:
    """R-BD-8: the dice a battle rolls: the unit's dice, +1 per rank; firing beyond half
    its range one die less; a target in woods, ruins or a building one die less (terrain
    effects, step 2 of a battle); never fewer than one."""
    n = dice + rank
    if not close_assault and distance > (range_ + 1) // 2:
        n -= 1
    if target_in_cover:
        n -= 1
    return max(1, n)


def must_close_assault(adjacent_enemies: int) -> bool:
    """"An ordered unit that is adjacent to an enemy unit must 'Close Assault' that unit,
    if it chooses to battle and cannot choose another more distant enemy unit.\""""
    return adjacent_enemies > 0


def line_of_sight(*, firer_size: int, target_size: int, blocking: Sequence[int],
                  firer_is_god_machine: bool = False, target_is_god_machine: bool = False,
                  adjacent_blocking: Sequence[int] = ()) -> bool:
    """"An ordered unit can 'Fire' through any intervening occupied or terrain hex as long
    as both the 'Firing' unit and the target enemy unit are both of a larger size than the
    blocking hex." God Machines see "to and from any size enemy unit though an adjacent
    occupied or terrain hex which is at least 2 sizes smaller than the God Machine"."""
    for size in blocking:
        if firer_size > size and target_size > size:
            continue
        god = firer_size if firer_is_god_machine else target_size if target_is_god_machine \
            else None
        if god is not None and size in adjacent_blocking and size <= god - 2:
            continue
        return False
    return True


def hand_after_play(hand: list[int], deck: list[int]) -> tuple[int, list[int], list[int]]:
    """"Play an order card ... Draw a new command card": the default player plays its
    biggest card; the next card of the deck (shuffled when the battle was laid out,
    R-BD-3) replaces it. Returns (units ordered, hand, deck)."""
    if not hand:
        return 0, hand, deck
    return play_card(hand, deck, max(hand))


def play_card(hand: list[int], deck: list[int], played: int
              ) -> tuple[int, list[int], list[int]]:
    """The owner plays the card `played` from its hand (one it holds) and draws the next
    card of the deck; the played card goes under the deck (R-BD-3)."""
    rest = list(hand)
    rest.remove(played)
    if deck:  # the played card goes under the deck
        rest.append(deck[0])
        deck = [*deck[1:], played]
    return played, rest, deck
