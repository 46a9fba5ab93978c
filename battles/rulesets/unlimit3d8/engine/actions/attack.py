"""The shared core of every attack: the skill test, difficulty, damage and weapon effects.

Seed, "Making a roll": add the three dice, read the column of the skill, "If your score
is equal to or above the difficulty, it's a success. The active die determines the
effectiveness of the action. The passive die determines if a passive effect occurs. The
nemesis die determines if something special happens."
"""

from __future__ import annotations

from collections.abc import Callable
from math import hypot
from typing import Any, Final

from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.card import WeaponCard, score
from battles.rulesets.unlimit3d8.engine.damage import Target, deal_damage, force_field_at, own_field
from battles.rulesets.unlimit3d8.engine.dice import DiceSource, Roll, SeededDice
from battles.rulesets.unlimit3d8.engine.geometry import Point, deviate, distance, increments
from battles.rulesets.unlimit3d8.engine.state import BattleState, BuildingState, UnitState

Shooter = UnitState | BuildingState


# Rolls that try to hurt an enemy: while they happen the battle is not a stalemate (R-BAT-32).
# Tackles are left out: a tackle that deals nothing can be repeated for ever.
ATTACK_ROLLS = frozenset({"ranged", "assault", "close_combat", "ram"})


#: Every roll seeded dice can give (8 x 8 x 8 faces), each made the first time it comes up:
#: a `Roll` is immutable, and making one (an interpreted frozen dataclass) costs more
#: than drawing its three dice.
_ROLLS: Final[list[Roll | None]] = [None] * 512


#: The generator `roll_3d8` drew from last and its `getrandbits`, bound once (fetching a
#: bound method costs more than the draw it makes; a battle draws from one generator).
_DRAW: Final[list[Any]] = [None, None]


def roll_3d8(dice: DiceSource) -> Roll:
    """`dice.roll_3d8()`; seeded dice are drawn here, exactly as `roll_3d8`'s three
    `SeededDice.d8` calls draw them (the same faces, the generator left in the same
    state): compiled, a fraction of the cost of the interpreted calls, and every skill
    test rolls."""
    if type(dice) is SeededDice:
        rng = dice.inline_generator()
        if rng is not None:
            dice.count += 3
            bound = _DRAW
            draw: Callable[[int], int]
            if bound[0] is rng:
                draw = bound[1]
            else:
                draw = rng.getrandbits
                bound[0], bound[1] = rng, draw
            a = draw(4)
            while a >= 8:
                a = draw(4)
            b = draw(4)
            while b >= 8:
                b = draw(4)
            c = draw(4)
            while c >= 8:
                c = draw(4)
            index = a * 64 + b * 8 + c
            roll = _ROLLS[index]
            if roll is None:
                roll = _ROLLS[index] = Roll(1 + a, 1 + b, 1 + c)
            return roll
    return dice.roll_3d8()


def skill_test(state: BattleState, actor: Shooter, skill: str, skill_value: int,
               difficulty: int, purpose: str, info: dict[str, Any] | None = None
               ) -> tuple[Roll, int, bool, dict[str, Any]]:
    """Roll 3d8 for a skill against a difficulty; log the dice and what they decided (with
    `info`'s details after them). The entry is returned for the caller to add the roll's
    effects; without a log it holds only "score" and "effects"."""
    roll = roll_3d8(state.dice)
    if purpose in ATTACK_ROLLS:
        state.attack_rolls += 1  # fighting, not a stalemate (R-BAT-32)
    active, passive, nemesis = roll.active, roll.passive, roll.nemesis
    total = active + passive + nemesis  # `Roll.total`, read without its call
    result = score(skill_value, total)
    success = result >= difficulty
    if not state.keep_log:
        return roll, result, success, {"score": result, "effects": []}
    entry: dict[str, Any] = {
        "turn": state.turn, "round": state.round, "event": "roll", "purpose": purpose,
        "actor": actor.id, "skill": skill, "skill_value": skill_value,
        "dice": {"active": active, "passive": passive, "nemesis": nemesis, "total": total},
        "score": result, "difficulty": difficulty, "success": success, "effects": [],
    }
    if info is not None:
        entry.update(info)
    state.log.append(entry)
    return roll, result, success, entry


def _shot_test(state: BattleState, shooter: Shooter, skill_value: int, difficulty: int,
               purpose: str, weapon: WeaponCard, target: Target, dist: float, inc: int,
               steps: int, cover: int, barricade: BuildingState | None
               ) -> tuple[Roll, bool, dict[str, Any]]:
    """A shot's `skill_test(state, shooter, "fight", ..., details)` with the log kept, its
    entry written in one dict: the same keys in the same order (the roll's, then the
    shot's details), without a dict merged into another on every shot."""
    roll = roll_3d8(state.dice)
    state.attack_rolls += 1  # "ranged" and "assault" are attack rolls (R-BAT-32)
    active, passive, nemesis = roll.active, roll.passive, roll.nemesis
    total = active + passive + nemesis
    result = score(skill_value, total)
    success = result >= difficulty
    entry: dict[str, Any] = {
        "turn": state.turn, "round": state.round, "event": "roll", "purpose": purpose,
        "actor": shooter.id, "skill": "fight", "skill_value": skill_value,
        "dice": {"active": active, "passive": passive, "nemesis": nemesis, "total": total},
        "score": result, "difficulty": difficulty, "success": success, "effects": [],
        "weapon": weapon.key, "target": target.id, "distance": dist, "increment": inc,
        "steps": steps, "cover": cover,
        "barricade": barricade.id if barricade is not None else None,
    }
    state.log.append(entry)
    return roll, success, entry


def target_of(state: BattleState, target_id: Any, kind: str) -> Target:
    return state.buildings[target_id] if kind == "building" else state.units[target_id]


def in_contact(state: BattleState, a: Point, b: Point) -> bool:
    return distance(a, b) <= float(state.options["contact_distance"]) + 1e-9


def cover_increments(state: BattleState, target: Target) -> tuple[int, BuildingState | None]:
    """R-BAT-6: increments a target's cover adds: +2 behind a concrete barricade it is in
    contact with ("two additional rang increments"), +1 in contact with another building
    ("Firing against an opponent that took cover adds a range increment penalty")."""
    if not isinstance(target, UnitState):
        return 0, None
    best = 0
    barricade: BuildingState | None = None
    if not state.building_list:
        return best, barricade
    reach = float(state.options["contact_distance"]) + 1e-9
    x, y = target.pos
    for b in state.building_list:
        if b.destroyed:
            continue
        bx, by = b.pos
        dx, dy = x - bx, y - by
        # `in_contact` (a side longer than the reach: hypot can only be longer still)
        if dx > reach or -dx > reach or dy > reach or -dy > reach \
                or not hypot(dx, dy) <= reach:
            continue
        if b.kind == "concrete_barricade":
            if best < BT.BARRICADE_EXTRA_RANGE_INCREMENTS:
                best, barricade = BT.BARRICADE_EXTRA_RANGE_INCREMENTS, b
        elif best < 1:
            best = 1
    return best, barricade


def defense_of(target: Target, *, close: bool) -> int:
    """Base defense (shield bonus in close combat); buildings have a defense of 0."""
    if isinstance(target, BuildingState):
        return BT.BUILDING_DEFENSE
    return target.close_defense if close else target.card.base_defense


def shooter_pos(shooter: Shooter) -> Point:
    return shooter.pos


def range_difficulty(state: BattleState, shooter: Shooter, weapon: WeaponCard, target: Target,
                     *, assault: bool = False, pos: Point | None = None
                     ) -> tuple[int, dict[str, Any]]:
    """Seed, "Ranged Attack": "Difficulty is Base defense + range increment x every complete
    4 inches of distance"; 2" for infantry units (R-BAT-9: the firing exo armour) and when
    assaulting; cover adds increments (R-BAT-6) except against no-line-of-sight weapons."""
    difficulty, dist, inc, steps, cover, barricade = _range(state, shooter, weapon, target,
                                                            assault, pos)
    return difficulty, {"distance": dist, "increment": inc, "steps": steps,
                        "cover": cover, "barricade": barricade.id if barricade else None}


def _range(state: BattleState, shooter: Shooter, weapon: WeaponCard, target: Target,
           assault: bool, pos: Point | None
           ) -> tuple[int, float, int, int, int, BuildingState | None]:
    """`range_difficulty`'s figures as they are (no dict: `fire` needs the dict only for
    the log): difficulty, distance (rounded to 0.001"), increment, steps, cover and the
    barricade giving it."""
    origin = pos if pos is not None else shooter.pos
    dist = distance(origin, target.pos)
    infantry = isinstance(shooter, UnitState) and shooter.card.is_infantry
    step = (BT.ASSAULT_RANGE_INCREMENT_INCHES if assault else
            BT.RANGE_INCREMENT_INCHES_INFANTRY if infantry else BT.RANGE_INCREMENT_INCHES)
    steps = increments(dist, step)
    cover, barricade = (0, None) if weapon.no_line_of_sight else cover_increments(state, target)
    inc = (weapon.range_increment or 0) + (shooter.corroded if isinstance(shooter, UnitState)
                                           else 0)
    difficulty = defense_of(target, close=False) + inc * (steps + cover)
    return difficulty, round(dist, 3), inc, steps, cover, barricade


def projectile_blocked(state: BattleState, origin: Point, weapon: WeaponCard,
                       target: Target) -> bool:
    """Force field: "No projectile (missile or grenade) can enter the force field"
    (R-BAT-11: unless fired from inside the same field)."""
    if not weapon.is_projectile:
        return False
    field = force_field_at(state, target.pos, exclude=own_field(state, target))
    return field is not None and force_field_at(state, origin) is not field


def misfire_threshold(shooter: Shooter, weapon: WeaponCard) -> int:
    """Misfire when the nemesis die is <= this; Haywire adds 2 to the target's weapons."""
    extra = 2 if isinstance(shooter, UnitState) and shooter.haywire else 0
    if weapon.misfire == 0 and extra == 0:
        return 0
    return weapon.misfire + extra


def fire(state: BattleState, shooter: Shooter, weapon: WeaponCard, target: Target, *,
         skill_value: int, assault: bool = False) -> bool:
    """Resolve one ranged attack (no CDT bookkeeping); returns whether the target was hit."""
    attacker = shooter if isinstance(shooter, UnitState) else None
    if projectile_blocked(state, shooter.pos, weapon, target):
        state.record("blocked", actor=shooter.id, weapon=weapon.key, target=target.id,
                     reason="force_field")
        return False
    difficulty, dist, inc, steps, cover, barricade = _range(state, shooter, weapon, target,
                                                            assault, None)
    purpose = "assault" if assault else "ranged"
    if state.keep_log:
        roll, success, entry = _shot_test(state, shooter, skill_value, difficulty, purpose,
                                          weapon, target, dist, inc, steps, cover, barricade)
    else:
        roll, _, success, entry = skill_test(state, shooter, "fight", skill_value, difficulty,
                                             purpose)
    effects: list[Any] = entry["effects"]
    if roll.nemesis <= misfire_threshold(shooter, weapon):
        if weapon.no_line_of_sight:
            # "These don't mishap like the others. Instead, they deviate 1/4 of the target
            # distance on a random direction." R-BAT-7: a d8 picks the compass direction.
            direction = state.dice.d8()
            impact = deviate(target.pos, direction, dist / 4)
            effects.append({"deviation": direction, "impact": list(impact)})
            _land(state, attacker, weapon, roll, impact, inc * steps, entry, exclude=None)
            return False
        effects.append("misfire")
        extra = int(state.options["misfire_extra_cdt"])
        if extra:
            shooter.cdt += extra
        return False
    if not success:
        effects.append("miss")
        if barricade is not None:
            # Barricade: "any missed shot will damage the barricade instead".
            raw = _raw_damage(weapon, roll, dist, point_blank=dist < BT.RANGE_INCREMENT_INCHES,
                              effects=effects)
            deal_damage(state, state.buildings[barricade.id], raw, ignore=weapon.ignore_armor,
                        attacker=attacker, source=f"{weapon.key}:barricade")
        return False
    effects.append("hit")
    strike(state, attacker, weapon, target, roll, dist, entry)
    if weapon.blast_radius:
        _blast(state, attacker, weapon, roll, target.pos, inc * steps, entry, exclude=target)
    return True


def _raw_damage(weapon: WeaponCard, roll: Roll, dist: float, *, point_blank: bool,
                effects: list[Any]) -> int:
    """ "Damages are weapon Base Damage + active die result"; Spread: "1 less point of
    damage for each 4 inches of distance. At pointblank range, on 7+ on the Nemesis die,
    its base damage is doubled." """
    base = weapon.base_damage or 0
    if "spread" in weapon.special:
        if point_blank and roll.nemesis >= BT.SPREAD_POINTBLANK_NEMESIS_MIN:
            base *= 2
            effects.append("spread_double")
        base -= increments(dist, BT.SPREAD_DAMAGE_LOSS_PER_INCHES)
    return max(0, base + roll.active)


def strike(state: BattleState, attacker: UnitState | None, weapon: WeaponCard, target: Target,
           roll: Roll, dist: float, entry: dict[str, Any], *, chain: bool = True) -> None:
    """A hit: damage (with passive and template effects) applied to the target."""
    effects: list[Any] = entry["effects"]
    raw = _raw_damage(weapon, roll, dist, point_blank=dist < BT.RANGE_INCREMENT_INCHES,
                      effects=effects)
    if weapon.base_damage == 0 and "haywire" in weapon.templates:
        raw = 0  # "Dmg 0": the active die adds nothing either (R-BAT-13)
    passive = weapon.passive if roll.passive >= weapon.passive_min else None
    if passive == "concussion":
        raw *= 2  # "Passive 7+ : double damages"
    elif passive == "plasma":
        raw += 4  # "Passive 6+ : Damage +4, Target CDT +2"
    if passive:
        effects.append({"passive": passive})
    deal_damage(state, target, raw, ignore=weapon.ignore_armor, attacker=attacker,
                source=weapon.key)
    if not isinstance(target, UnitState) or not target.active:
        if passive == "chain_reaction" and chain:
            _chain(state, attacker, weapon, roll, dist, target, entry)
        return
    cdt = weapon.cdt_to_target + (2 if passive == "plasma" else 0)
    if cdt:
        target.cdt += cdt  # EMP "adds 3CDT to target"; Plasma "Target CDT +2"
        effects.append({"target_cdt": cdt})
    if "haywire" in weapon.templates:
        target.haywire = True
        effects.append("haywire")
    if passive == "corrosive":
        target.corroded += 1
    elif passive == "combustion":
        target.combustion = True
    elif passive == "chain_reaction" and chain:
        _chain(state, attacker, weapon, roll, dist, target, entry)


def _chain(state: BattleState, attacker: UnitState | None, weapon: WeaponCard, roll: Roll,
           dist: float, origin: Target, entry: dict[str, Any]) -> None:
    """Chain Reaction: "closest Unit sustains the same attack as the original target"
    (R-BAT-15: same dice, damage only, no further chain; allies can be the closest)."""
    others = [u for u in state.unit_list
              if u.active and u is not origin and u is not attacker and u.in_bunker is None]
    if not others:
        return
    closest = min(others, key=lambda u: (distance(u.pos, origin.pos), str(u.id)))
    entry["effects"].append({"chain_reaction": closest.id})
    strike(state, attacker, weapon, closest, roll, dist, entry, chain=False)


def _blast(state: BattleState, attacker: UnitState | None, weapon: WeaponCard, roll: Roll,
           centre: Point, range_penalty: int, entry: dict[str, Any],
           exclude: Target | None) -> None:
    """Blast: "Every unit and building in that distance sustains the same attack as the
    original target." R-BAT-15: same dice; each is hit if the score beats its own
    defense + the shot's range penalty (buildings: 0 + penalty)."""
    radius = weapon.blast_radius
    targets: list[Target] = [u for u in state.unit_list
                             if u.active and u.in_bunker is None and u is not exclude
                             and distance(u.pos, centre) <= radius]
    targets += [b for b in state.building_list
                if b.targetable and b is not exclude and distance(b.pos, centre) <= radius]
    for t in targets:
        needed = defense_of(t, close=False) + range_penalty
        hit = entry["score"] >= needed
        entry["effects"].append({"blast": t.id, "difficulty": needed, "hit": hit})
        if hit:
            strike(state, attacker, weapon, t, roll, distance(t.pos, centre), entry,
                   chain=False)


def _land(state: BattleState, attacker: UnitState | None, weapon: WeaponCard, roll: Roll,
          impact: Point, range_penalty: int, entry: dict[str, Any],
          exclude: Target | None) -> None:
    """R-BAT-7: a deviated shot lands at the impact point: with a blast everything in the
    radius sustains the attack; without, the nearest unit or building within contact
    distance of the point does (same test), else nothing is hit."""
    if weapon.blast_radius:
        _blast(state, attacker, weapon, roll, impact, range_penalty, entry, exclude)
        return
    reach = state.options["contact_distance"]
    near: list[Target] = [u for u in state.unit_list
                          if u.active and u.in_bunker is None
                          and distance(u.pos, impact) <= reach]
    near += [b for b in state.building_list
             if b.targetable and distance(b.pos, impact) <= reach]
    if not near:
        entry["effects"].append("lands_harmlessly")
        return
    hit_target = min(near, key=lambda t: (distance(t.pos, impact), str(t.id)))
    needed = defense_of(hit_target, close=False) + range_penalty
    if entry["score"] >= needed:
        entry["effects"].append({"deviated_hit": hit_target.id})
        strike(state, attacker, weapon, hit_target, roll, distance(hit_target.pos, impact),
               entry, chain=False)
