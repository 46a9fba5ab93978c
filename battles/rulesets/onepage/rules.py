"""Each rule of the one-page rules as a function of the dice (every die through the
`Dice` seam): the engine plays them, the case book probes them one at a time."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.rulesets.base import RulesetError
from battles.rulesets.onepage import tables as T
from campaign.rules.dice import Dice


def succeeds(face: int, needed: int, modifier: int = 0) -> bool:
    """"Any unmodified roll of a Six is a success. Any unmodified roll of a One is a
    failure." Otherwise the modified roll must equal or exceed what is needed."""
    if face == 6:
        return True
    if face == 1:
        return False
    return face + modifier >= needed


def activation(dice: Dice, level: str, *, suppressed: int = 0, out_of_coherency: int = 0,
               no_enemy_in_range: bool = False, stunned: bool = False, modifier: int = 0,
               half_casualties: bool = False) -> dict[str, Any]:
    """Activation: roll at least the level's Activation number; -1 per figure out of
    coherency and per Suppressed figure, +1 with no visible enemy within weapon range,
    -2 after "Crew Stunned". Success: two Actions. Failure: one Action, unless the Unit
    has taken 50% casualties: it falls back (double move toward its own table edge)."""
    t = T.training(level)
    total_mod = (modifier - suppressed - out_of_coherency + (1 if no_enemy_in_range else 0)
                 - (T.STUNNED_PENALTY if stunned else 0))
    face = dice.d6()
    ok = succeeds(face, t.activation, total_mod)
    return {"roll": face, "modifier": total_mod, "needed": t.activation, "success": ok,
            "actions": 2 if ok else (0 if half_casualties else 1),
            "falls_back": (not ok) and half_casualties}


def initiative(dice: Dice, sides: Sequence[str], *, last_lower: str | None = None,
               first_turn: bool = False, attacker: str | None = None,
               modifiers: dict[str, int] | None = None) -> dict[str, Any]:
    """"Each turn begins with players rolling 1D6 including any scenario modifiers. In the
    event of a tie, the player who was lower initiative on the last roll wins the tie. On
    the first turn, the attacker wins the tie." Rolled in the sides' order; `order` is
    every side, best first (ties broken the same way, then by side order, R-OP-7)."""
    mods = modifiers or {}
    rolls = {s: dice.d6() + int(mods.get(s, 0)) for s in sides}

    def rank(side: str) -> tuple[int, int, int]:
        favoured = (side == attacker) if first_turn else (side == last_lower)
        return (-rolls[side], 0 if favoured else 1, list(sides).index(side))

    order = sorted(sides, key=rank)
    lowest = min(sides, key=lambda s: (rolls[s], list(sides).index(s)))
    return {"rolls": rolls, "winner": order[0], "order": order, "lowest": lowest}


def needed_to_hit(expertise: int, cover: str = "open") -> int:
    """"Cover modifies the roll of the Firer ... No cover modifier can make a Unit's
    expertise worse than 6+"."""
    try:
        bonus = T.COVER[cover]
    except KeyError:
        raise RulesetError(f"Unknown cover {cover!r} (one of {', '.join(T.COVER)}).") from None
    return min(T.WORST_NEEDED, expertise + bonus)


def fire_points(weapon_key: str, range_cm: float) -> int:
    """A weapon's fire points at a range, 0 beyond it ("*Assault Rifles get 2FP at 12cm or
    less")."""
    w = T.weapon(weapon_key)
    if range_cm > w.range_cm:
        return 0
    if w.close_cm and range_cm <= w.close_cm:
        return w.close_fp
    return w.fire_points


def affects(weapon_key: str, *, vehicle: bool, save: int) -> bool:
    """"Vehicles may not be affected by Small Arms unless they have a 6+ Armour Save"."""
    return not (vehicle and T.weapon(weapon_key).small_arms and save < 6)


def saves(dice: Dice, hits: int, save: int) -> dict[str, Any]:
    """"The target Unit must then make a die roll for each Hit. Each die that equals or
    exceeds their Armour Save is ignored.\""""
    faces = [dice.d6() for _ in range(hits)]
    saved = sum(1 for f in faces if succeeds(f, save))
    return {"rolls": faces, "saved": saved, "unsaved": hits - saved}


def fire(dice: Dice, *, weapons: Sequence[str], range_cm: float, expertise: int,
         cover: str = "open", aim: bool = False, concealed: bool = False,
         target_vehicle: bool = False, target_save: int = 6) -> dict[str, Any]:
    """A Fire Action: "Each figure in a Unit throws one die per Fire Point ... Each die that
    equals or exceeds their Expertise rating is considered a Hit", cover added to what is
    needed, Aim +1 to the roll. Then one save per hit. `weapons`: the one weapon each
    firing figure uses. A concealed target cannot be fired at (R-OP-9)."""
    if concealed:
        return {"dice": 0, "rolls": [], "needed": None, "hits": 0, "saves": [],
                "unsaved": 0, "reason": "concealed"}
    needed = needed_to_hit(expertise, cover)
    rolls: list[int] = []
    hits = 0
    no_effect = 0
    for key in weapons:
        fp = fire_points(key, range_cm)
        if fp == 0:
            continue
        if not affects(key, vehicle=target_vehicle, save=target_save):
            no_effect += 1
            continue
        for _ in range(fp):
            face = dice.d6()
            rolls.append(face)
            hits += succeeds(face, needed, 1 if aim else 0)
    saved = saves(dice, hits, target_save)
    return {"dice": len(rolls), "rolls": rolls, "needed": needed, "hits": hits,
            "saves": saved["rolls"], "unsaved": saved["unsaved"],
            "small_arms_without_effect": no_effect}


def infantry_losses(unsaved: int, *, figures: int, suppressed: int, level: str,
                    suppress_first: bool = True) -> dict[str, int]:
    """"Unsaved hits against a Unit must be taken as casualties, however Infantry may choose
    to Suppress figures (in combination with casualties if necessary)"; "The maximum
    number of Suppressed figures a Unit can have is based on Training/Experience". A
    suppressed figure that is hit again becomes a casualty (R-OP-8)."""
    limit = T.training(level).suppress
    room = max(0, min(limit, figures) - suppressed) if suppress_first else 0
    new_suppressed = min(room, unsaved)
    casualties = min(figures, unsaved - new_suppressed)
    return {"casualties": casualties, "suppressed": suppressed + new_suppressed}


def vehicle_damage(dice: Dice, hits: int, earlier: Sequence[str] = ()) -> dict[str, Any]:
    """One roll on the vehicle damage table per unsaved hit; "If the same result is rolled
    twice in a single turn, take the next highest effect" (climbing on while that one
    was rolled too, R-OP-3)."""
    seen = list(earlier)
    rolls: list[int] = []
    effects: list[str] = []
    for _ in range(hits):
        face = dice.d6()
        rolls.append(face)
        effect = T.DAMAGE_TABLE[face]
        index = T.DAMAGE_EFFECTS.index(effect)
        while effect in seen and index < len(T.DAMAGE_EFFECTS) - 1:
            index += 1
            effect = T.DAMAGE_EFFECTS[index]
        seen.append(effect)
        effects.append(effect)
        if effect == "destroyed":
            break
    return {"rolls": rolls, "effects": effects, "destroyed": "destroyed" in effects}


def movement(unit_type: str, terrain: str = "open", *, save: int = 6,
             action: str = "move", ends_here: bool = False) -> dict[str, Any]:
    """How far a Unit may move through terrain with one action: "Infantry 6cm, Walker 9cm,
    Ground 12cm, Hover 18cm"; infantry and walkers "Ignore all but impassable"; ground
    vehicles "Move at half speed through Soft Cover. Only Heavy (4+ save) vehicles may
    move through Moderate Cover"; hover "May move over all terrain types but may not end
    Move on top of any type of terrain except Open Water"; Assault: "up to half movement";
    a Unit falling back "moves double distance"."""
    try:
        kind = T.UNIT_TYPES[unit_type]
    except KeyError:
        raise RulesetError(f"Unknown unit type {unit_type!r}.") from None
    if action not in ("move", "assault", "fall_back"):
        raise RulesetError(f"Unknown movement action {action!r}.")
    if action == "assault" and kind.vehicle:
        raise RulesetError("Assault: \"May move up to half movement and fight an Assault "
                           "(infantry only)\".")
    base = kind.move_cm * (0.5 if action == "assault" else 2 if action == "fall_back" else 1)
    if terrain == "impassable":
        return {"cm": 0, "allowed": False, "reason": "impassable"}
    if kind.key == "ground":
        if terrain == "soft":
            return {"cm": base / 2, "allowed": True, "reason": "half speed in soft cover"}
        if terrain in ("moderate", "hard") and not (terrain == "moderate"
                                                    and save <= T.GROUND_MODERATE_SAVE):
            return {"cm": 0, "allowed": False, "reason": f"ground vehicles cannot enter "
                    f"{terrain} cover" + ("" if terrain == "hard" else
                                          " without a 4+ save or better")}
    if kind.key == "hover" and ends_here and terrain not in ("open", "water"):
        return {"cm": base, "allowed": False, "reason": "a hover vehicle may not end its "
                "move on terrain other than open water"}
    return {"cm": base, "allowed": True, "reason": ""}


def assault(dice: Dice, *, attackers: int, attacker_expertise: int, attacker_save: int,
            defenders: int, defender_expertise: int, defender_save: int) -> dict[str, Any]:
    """"each Unit rolls one die for each figure engaged simultaneously. Each die that
    equals or exceeds their Expertise rating is considered a Hit. Both sides must then
    make a die roll for each Hit ... Unsaved hits against infantry must be taken as
    casualties, Assault Hits cannot be Suppressed." Rolled attacker first (R-OP-7)."""
    a_rolls = [dice.d6() for _ in range(attackers)]
    d_rolls = [dice.d6() for _ in range(defenders)]
    a_hits = sum(succeeds(f, attacker_expertise) for f in a_rolls)
    d_hits = sum(succeeds(f, defender_expertise) for f in d_rolls)
    d_saves = saves(dice, a_hits, defender_save)
    a_saves = saves(dice, d_hits, attacker_save)
    return {"attacker_rolls": a_rolls, "defender_rolls": d_rolls,
            "attacker_hits": a_hits, "defender_hits": d_hits,
            "defender_casualties": min(defenders, d_saves["unsaved"]),
            "attacker_casualties": min(attackers, a_saves["unsaved"])}


def run_over(dice: Dice, *, figures: int, expertise: int, save: int) -> dict[str, Any]:
    """A vehicle breaking from an Assault: "each figure moved over by the vehicle must pass
    an Expertise test or suffer a Hit. Armour Saves may be taken as normal"."""
    tests = [dice.d6() for _ in range(figures)]
    hits = sum(1 for f in tests if not succeeds(f, expertise))
    saved = saves(dice, hits, save)
    return {"tests": tests, "hits": hits, "casualties": saved["unsaved"]}


@dataclass
class Coherency:
    """"All members of a Unit must remain within 3cm of other members or incur a penalty on
    the activation roll of 1 per figure that is out of range."""

    gaps_cm: list[float] = field(default_factory=list)

    def penalty(self) -> int:
        return sum(1 for g in self.gaps_cm if g > T.COHERENCY_CM)


def unit_cover(cover: str, *, figures: int, in_cover: int) -> str:
    """"At least half of a Unit has to be in cover for the whole Unit to gain the benefit."
    The cover the whole unit gets: its position's when at least half its figures stand in
    it, otherwise none ("open")."""
    if figures <= 0 or in_cover < 0 or in_cover > figures:
        raise RulesetError("Figures in cover must be between none and all of the unit's.")
    return cover if 2 * in_cover >= figures else "open"


def can_target(*, distance_cm: float, target_depth_in_cover_cm: float,
               same_cover: bool) -> bool:
    """Cover: "Any figures more than 3cm from the edge of an area of cover are completely
    concealed. Two Units sharing an area of cover can target each other if they are within
    6cm of each other.\""""
    if same_cover:
        return distance_cm <= T.SHARED_COVER_CM
    return target_depth_in_cover_cm <= T.CONCEALED_BEYOND_CM
