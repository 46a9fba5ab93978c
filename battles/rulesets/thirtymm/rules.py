"""Each rule of 30 Minute Missions as a function (every die through the `Dice` seam): the
engine plays them, the case book probes them one at a time. Quotes are from seed 002."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from battles.rulesets.thirtymm import tables as T
from campaign.rules.dice import Dice

Json = dict[str, Any]


#: The tables' constants the rules read, as this module's own: a compiled rule reads
#: another module's attribute by name at every call, its own final names directly.
_ABYSS_DAMAGE: Final = T.ABYSS_DAMAGE
_AP_CAP: Final = T.AP_CAP
_BREAK_GRAPPLE_NO_ARMS_AP: Final = T.BREAK_GRAPPLE_NO_ARMS_AP
_BRIEFINGS: Final = T.BRIEFINGS
_CLIMB_COST: Final = T.CLIMB_COST
_COMMAND_ACTION_AP: Final = T.COMMAND_ACTION_AP
_CRITICAL_HIT: Final = T.CRITICAL_HIT
_CRITICAL_MISS: Final = T.CRITICAL_MISS
_DEVIATION_DIRECTIONS: Final = T.DEVIATION_DIRECTIONS
_DRIVES: Final = T.DRIVES
_ENGAGEMENTS: Final = T.ENGAGEMENTS
_FIRST_BLOOD: Final = T.FIRST_BLOOD
_FROZEN_AP_CAP: Final = T.FROZEN_AP_CAP
_GRAPPLE_AP: Final = T.GRAPPLE_AP
_HEX_COLOURS: Final = T.HEX_COLOURS
_HIGH_GROUND: Final = T.HIGH_GROUND
_LIMBS: Final = T.LIMBS
_MAIN_CANNON_MIN_AP: Final = T.MAIN_CANNON_MIN_AP
_MAIN_CANNON_REDUCTION: Final = T.MAIN_CANNON_REDUCTION
_MAIN_SECTIONS: Final = T.MAIN_SECTIONS
_MAX_PRIMARY: Final = T.MAX_PRIMARY
_MAX_SECONDARY: Final = T.MAX_SECONDARY
_MIN_STAT: Final = T.MIN_STAT
_MISSIONS: Final = T.MISSIONS
_MOUNTED_EXPLODES_ON: Final = T.MOUNTED_EXPLODES_ON
_RANKS: Final = T.RANKS
_REBOOT_ON: Final = T.REBOOT_ON
_SECONDARY_PER_UNIT: Final = T.SECONDARY_PER_UNIT
_SRM_ORDER: Final = T.SRM_ORDER
_STRUCTURE_DEFENSE_PER_LEVEL: Final = T.STRUCTURE_DEFENSE_PER_LEVEL
_WATER_MOVEMENT_PENALTY: Final = T.WATER_MOVEMENT_PENALTY


def as_int(value: Any) -> int:
    """`int(value)`, without the call when it already is one (a compiled engine's int()
    of an untyped value calls back into the interpreter)."""
    return value if isinstance(value, int) else int(value)


#: The dice `d8` read last and their plain generator's getrandbits (None: they roll
#: through `d8`).
_PLAIN: list[tuple[Any, Any]] = [(None, None)]


def d8(dice: Dice) -> int:
    """One d8: exactly the face (and the count) of `dice.d8()`. A plain `Dice` on a
    `random.Random` (every battle and simulation) is read straight from its generator
    (`Dice.plain_generator`: `randrange(8)` is `getrandbits(4)` drawn again until it is
    below 8), a fraction of the cost of the interpreted calls; any other dice
    (`ForcedDice`, a subclass) roll through `d8`. The last dice asked and their
    generator are kept (`_PLAIN`): a battle asks the same dice every time."""
    kept = _PLAIN[0]
    bits: Callable[[int], int] | None
    if kept[0] is dice:
        bits = kept[1]
    else:
        rng = dice.plain_generator()
        bits = None if rng is None else rng.getrandbits
        _PLAIN[0] = (dice, bits)  # one store: another thread reads both or neither
    if bits is None:
        return dice.d8()
    face = bits(4)
    while face >= 8:
        face = bits(4)
    dice.count += 1
    return face + 1


# -- units -------------------------------------------------------------------------------

def classify(total_defense: int) -> Json:
    """Classification by Total Defense: base movement and base AP (1d8 + n)."""
    c = T.classification(total_defense)
    return {"class": c.number, "movement": c.movement, "ap_bonus": c.ap_bonus}


def roll_ap(dice: Dice, *, stored: int, ap_bonus: int, frozen: bool = False) -> Json:
    """"roll 1D8 to see how many Action Points the Unit can add to its Base AP ... Any
    Action Points that do not get used are stored and can be used in future turns. This
    is capped at 16 AP per Unit." The cap is on the AP stored between turns, not on the
    AP after the roll (issue 28): stored AP (at most 16) + 1d8 + the base. Freeze: "Upon
    its next activation, its max AP storage capacity is limited to 8"."""
    roll = d8(dice)
    cap = _FROZEN_AP_CAP if frozen else _AP_CAP
    return {"roll": roll, "ap": min(cap, max(0, stored)) + roll + ap_bonus}


def section_penalties(sections: Sequence[Json]) -> Json:
    """Destroying Unit Sections: a list of `{"kind", "durability"}` (current) -> the
    modifiers in force. Half legs: -1 Assault and standard movement reduced by half
    (R-30-7, `standard_movement`); all legs: -2 Assault and movement 1; all
    heads: -1 Accuracy; all arms: no grapples, Break Grapple costs 4 AP."""
    heads = heads_lost = arms = arms_lost = legs = legs_lost = 0  # by kind, in one pass
    for s in sections:
        kind = s["kind"]
        if kind == "head":
            heads += 1
            if as_int(s["durability"]) <= 0:
                heads_lost += 1
        elif kind == "arm":
            arms += 1
            if as_int(s["durability"]) <= 0:
                arms_lost += 1
        elif kind == "leg":
            legs += 1
            if as_int(s["durability"]) <= 0:
                legs_lost += 1
    out: Json = {"accuracy": 0, "assault": 0, "movement": "full", "grapple": arms > 0,
                 "break_grapple_ap": _COMMAND_ACTION_AP}
    if heads and heads_lost == heads:
        out["accuracy"] = -1
    if arms and arms_lost == arms:
        out["grapple"] = False
        out["break_grapple_ap"] = _BREAK_GRAPPLE_NO_ARMS_AP
    if legs and legs_lost == legs:
        out["assault"], out["movement"] = -2, "one"
    elif legs and legs_lost >= math.ceil(legs / 2):
        out["assault"], out["movement"] = -1, "half"
    return out


def standard_movement(base: int, penalty: str, water: bool = False,
                      half: str = "reduction_rounded_up") -> int:
    """The movement points of one movement phase: the class's base movement after the
    leg penalties, less 2 in water (Euphotic, Abyss) but never below 0. Half the legs
    lost: "reduce standard movement points by 50% (rounded up)" (R-30-7, the campaign
    option `thirtymm_half_legs`): `reduction_rounded_up`, the seed's plain reading, takes
    half the base rounded up away (5 -> 2); `remainder_rounded_up` leaves half the base
    rounded up (5 -> 3)."""
    if penalty == "half":
        cut = math.ceil(base / 2)
        moves = base - cut if half == "reduction_rounded_up" else cut
    else:
        moves = {"full": base, "one": 1}[penalty]
    if water:
        moves -= _WATER_MOVEMENT_PENALTY
    return max(0, moves)


def condition(unit_type: str, sections: Sequence[Json]) -> str:
    """Destroyed vs Inoperative: "When the Torso Durability Points or Cockpit Durability
    Points of a Unit are reduced to 0, the Unit is considered destroyed. If a Mech Unit's
    Torso Core Part remains intact but its limbs are all destroyed, it is considered
    Inoperative. If a Vehicle Unit's Cockpit ... remains intact but it loses its ability
    to move, it is considered Inoperative." -> destroyed, inoperative or operative."""
    if any(s["kind"] in _MAIN_SECTIONS and as_int(s["durability"]) <= 0 for s in sections):
        return "destroyed"
    movers = _LIMBS if unit_type == "mech" else _DRIVES
    limbs = [s for s in sections if s["kind"] in movers]
    if limbs and all(as_int(s["durability"]) <= 0 for s in limbs):
        return "inoperative"
    return "operative"


# -- attacks -----------------------------------------------------------------------------

def high_ground(difference: int) -> Json:
    """High Ground Bonus by the attacker's elevation above the target; "Units attacking a
    target at higher elevations do not gain the HGB"."""
    out = {"accuracy": 0, "assault": 0}
    for lo, hi, roll, bonus in _HIGH_GROUND:
        if lo <= difference <= hi:
            out[roll] = bonus
    return out


def attack_roll(dice: Dice, *, stat: int, modifier: int = 0, basic: bool = False) -> Json:
    """"The player needs to roll equal to or higher than the Modified value ... Critical
    Hits are rolls of 8 ... always considered hits regardless of other modifiers.
    Critical Misses are rolls of 1 ... always considered misses". Basic attacks "are not
    capable of doing Critical Hits on rolls of 8"."""
    roll, hit, critical = attack_die(dice, stat, modifier, basic)
    return {"roll": roll, "hit": hit, "critical": critical,
            "critical_miss": roll == _CRITICAL_MISS}


def attack_die(dice: Dice, stat: int, modifier: int, basic: bool) -> tuple[int, bool, bool]:
    """`attack_roll` as (roll, hit, critical), without building its dict (the engine's
    attacks; a critical miss is a roll of `CRITICAL_MISS`)."""
    roll = d8(dice)
    critical = roll == _CRITICAL_HIT and not basic
    if roll == _CRITICAL_MISS:
        hit = False
    elif critical:
        hit = True
    else:
        hit = roll + modifier >= stat
    return roll, hit, critical


def evasion_roll(dice: Dice, *, stat: int, modifier: int = 0, critical: bool = False,
                 can_evade: bool = True) -> Json:
    """"If the Attack is a success then the Defending Units will use their Evasion stat."
    A critical hit "cannot be Evaded"; a held unit or one on the ground "cannot evade".
    R-30-8: no die is rolled when evasion is impossible; the evasion roll has no
    criticals."""
    roll, evaded = evasion_die(dice, stat, modifier, critical, can_evade)
    return {"roll": roll if roll >= 0 else None, "evaded": evaded}


def evasion_die(dice: Dice, stat: int, modifier: int, critical: bool, can_evade: bool
                ) -> tuple[int, bool]:
    """`evasion_roll` as (roll, evaded), the roll -1 when none is rolled, without
    building its dict (the engine's attacks)."""
    if critical or not can_evade:
        return -1, False
    roll = d8(dice)
    return roll, roll + modifier >= stat


def damage(base: int, critical: bool) -> int:
    """Critical Hit: "Adds .5 of the Weapon's Base Damage as bonus damage (round up)"."""
    return base + (math.ceil(base / 2) if critical else 0)


def apply_damage(durability: int, amount: int) -> Json:
    """"deduct the Damage ... from the Durability of the Core Part ... If that Part was
    destroyed then it is considered Inoperable". R-30-5: damage beyond 0 is lost."""
    left = durability_left(durability, amount)
    return {"durability": left, "destroyed": left == 0}


def durability_left(durability: int, amount: int) -> int:
    """`apply_damage`'s durability, without building its dict (0: the part is
    destroyed)."""
    return max(0, durability - amount)


def weapon_ap(ap: int, *, unit_type: str, main_cannon: bool) -> int:
    """Terrestrial vehicles: "Main Cannon has an AP reduction of 3 (to a minimum of 4)"."""
    if unit_type == "terrestrial" and main_cannon:
        return max(_MAIN_CANNON_MIN_AP, ap - _MAIN_CANNON_REDUCTION)
    return ap


def weapon_range(base: int, *, unit_type: str, green_between: int) -> int:
    """Terrestrial: "Weapon range is halved when firing through green hexes" (R-30-8:
    rounded down)."""
    if unit_type == "terrestrial" and green_between > 0:
        return base // 2
    return base


def in_range(distance: int, weapon_range: int) -> bool:
    """"If the Target Unit is a distance under or equal to the Range stat then you may
    complete the attack" (R-30-4: the first hex in front counts 1, so the range is the
    hex distance)."""
    return 1 <= distance <= weapon_range


def terrain_accuracy(colours_between: Sequence[str]) -> int:
    """Green and black: "-1 to Accuracy rolls for every ... hex within the Unit's
    Line-of-Sight to its target. This effect stacks on itself." (R-30-8: the hexes
    strictly between attacker and target)."""
    return sum(_HEX_COLOURS[c].accuracy_in_los for c in colours_between)


def needs_line_of_sight(unit_type: str, weapon: Mapping[str, Any]) -> bool:
    """Aquatic vehicles: "Attacks made with missile pods don't need LoS"."""
    return not (unit_type == "aquatic" and weapon.get("missile_pod"))


def mounted_explodes(dice: Dice) -> Json:
    """Mounted Weapons: "Roll 1d8. If 6+, will explode when destroyed, dealing 100%
    weapon damage to the section it was attached to"."""
    roll = d8(dice)
    return {"roll": roll, "explodes": roll >= _MOUNTED_EXPLODES_ON}


# -- movement ----------------------------------------------------------------------------

def field_of_view(facing: int, direction: int, unit_type: str) -> bool:
    """FoV: "the hexes in the front-left, front-right, and front-center in the direction
    a Unit is facing as well as every hex behind those hexes"; terrestrial vehicles see
    "all 6 hexes around the Unit (360 degrees)". `direction` is the hex direction (0-5)
    nearest the target."""
    if unit_type == "terrestrial":
        return True
    return (direction - facing) % 6 in (5, 0, 1)


def step_cost(*, colour: str, climb: int, in_water: bool, to_water: bool,
              unit_type: str, systems: Sequence[str] = (), flying: bool = False) -> int | None:
    """Movement points to enter one hex (None: the unit may not enter it).

    Standard movement: "When moving up an elevation the movement costs 2 ... While moving
    in water it costs 2 Movement Points to leave the water and 2 Movement Points to move
    between hexes." Tan, White: "+1 Movement point per hex. Thruster and Flight moves are
    not affected." Black: "Movement Point cost ... is doubled." Terrestrial: "Movement
    costs 2x when traveling over green hexes." Aquatic: "Can only move over light/dark
    blue hexes." Cruise/Swim: 1 point between water tiles, 1 to leave the water."""
    hexc = _HEX_COLOURS[colour]
    if unit_type == "aquatic" and not hexc.water:
        return None
    if flying:
        return 1
    swims = bool({"cruise", "swim"} & set(systems))
    water = in_water or to_water
    cost = (1 if swims else 2) if water else 1 + hexc.extra_move
    if climb > 0:
        cost = max(cost, _CLIMB_COST * climb)
    cost *= hexc.move_factor
    if unit_type == "terrestrial" and colour == "green":
        cost *= 2
    return cost


def fall_damage(classification: int, height: int) -> int:
    """Fall Damage: "2 ( Unit Classification * Elevation Height) to the Units Leg
    Sections (or Torso if no legs)"."""
    return 2 * (classification * max(0, height))


def collision_damage(classification: int, distance: int) -> int:
    """Collision Damage: "2 ( Moving Unit Classification * Thrown Distance)"."""
    return 2 * (classification * max(0, distance))


def throw_distance(modified_assault: int) -> int:
    """Throw Distance: "8 - (Attacker Modified Assault Stat)"."""
    return max(0, 8 - modified_assault)


def can_throw(attacker_class: int, target_class: int) -> bool:
    """"Units are unable to throw other Units that have a higher Classification.\""""
    return target_class <= attacker_class


def deviation(dice: Dice) -> Json:
    """A failed throw "rolls 1d8 for Deviation and lands there instead" (R-30-9: 1-6 the
    neighbour in that direction, clockwise from the attacker's facing; 7-8 the intended
    hex)."""
    roll = d8(dice)
    return {"roll": roll,
            "direction": roll - 1 if roll <= _DEVIATION_DIRECTIONS else None}


def grapple(dice: Dice, *, assault: int, assault_modifier: int, target_evasion: int,
            ap: int, has_arms: bool = True, reroll: bool = True) -> Json:
    """Grappling: "at the cost of 2 AP, the Unit makes an Assault Roll. If unsuccessful:
    the Unit can reroll for 2 additional AP ... If successful: the target then makes an
    Evasion Roll ... successful: the grapple is evaded ... unsuccessful: the Units grapple
    is successful." Only "by Units with Arms"."""
    if not has_arms:
        return {"grappled": False, "ap": ap, "rolls": [], "reason": "no arms"}
    rolls: list[int] = []
    while ap >= _GRAPPLE_AP:
        ap -= _GRAPPLE_AP
        roll = attack_roll(dice, stat=assault, modifier=assault_modifier)
        rolls.append(roll["roll"])
        if roll["hit"]:
            evade = d8(dice)
            return {"grappled": evade < target_evasion, "ap": ap, "rolls": rolls,
                    "evasion": evade}
        if not reroll:
            break
    return {"grappled": False, "ap": ap, "rolls": rolls}


def reboot(dice: Dice, attempts_before: int) -> Json:
    """System Error: "roll 1d8 to reboot. On a 5 or higher, the Unit continues ...
    Upon subsequent activations, the pass requirement is lowered by 1.\""""
    need = max(1, _REBOOT_ON - attempts_before)
    roll = d8(dice)
    return {"roll": roll, "need": need, "rebooted": roll >= need}


def structure_defense(hexes: int, elevation: int) -> int:
    """R-30-15 (the chart is lost): 10 per hex per level, ground counting as one: "The
    building ... occupying 1 hex and is in +1 elevation. This means it has a total
    Defense of 20"."""
    return _STRUCTURE_DEFENSE_PER_LEVEL * hexes * (max(0, elevation) + 1)


def hit_structure(defense: int, damage_dealt: int) -> Json:
    """"When firing at a structure, you are guaranteed a successful hit ... damage is
    subtracted from the building/structure's total Defense"; "excess damage doesn't pass
    through the structure". R-30-15: at 0 it falls and its hexes become black."""
    left = max(0, defense - damage_dealt)
    return {"defense": left, "falls": left == 0}


def hex_end_of_turn(colour: str, systems: Sequence[str] = ()) -> Json:
    """What the hex a unit ends its turn on does to it: Red: "Causes the Overheat status
    effect when ending your turn on the tile"; Dark blue (Abyss, without Swim/Cruise):
    "10 damage to the torso per turn"."""
    hexc = _HEX_COLOURS[colour]
    swims = bool({"cruise", "swim"} & set(systems))
    status = hexc.status if hexc.status and not (hexc.water and swims) else None
    return {"status": status,
            "torso_damage": _ABYSS_DAMAGE if status == "abyss" else 0,
            "conceal": hexc.conceal}


# -- the battle --------------------------------------------------------------------------

def engagement(deployment_cost: int) -> str | None:
    """R-30-11: the smallest engagement size whose Deployment Cost Limit the larger side's
    squad stays under ("a sum total Deployment Cost less than the listed ... Limit");
    None when no size fits."""
    for size, limit in _ENGAGEMENTS.items():
        if deployment_cost < limit:
            return size
    return None


def squad_within(costs: Sequence[int], limit: int) -> list[int]:
    """R-30-11: the indexes of the units that take the field, in order, while the squad
    stays under the limit; the rest wait in reserve."""
    total, chosen = 0, []
    for i, cost in enumerate(costs):
        if total + cost < limit:
            total += cost
            chosen.append(i)
    return chosen


def mission(dice: Dice, size: str) -> Json:
    """"roll to randomly select a Mission using one of the following tables"."""
    roll = d8(dice)
    name = next(n for lo, hi, n in _MISSIONS[size] if lo <= roll <= hi)
    return {"roll": roll, "mission": name, "objective": _BRIEFINGS[name].kind}


def victory_points(primary: int, secondary: int) -> Json:
    """"a maximum of 7 points from primary objectives and a maximum of 7 points from
    secondary objectives for a total of 14 possible points (any excess victory points
    awarded are discounted)"."""
    p, s = min(_MAX_PRIMARY, max(0, primary)), min(_MAX_SECONDARY, max(0, secondary))
    return {"primary": p, "secondary": s, "total": p + s}


def secondary_points(units_out: int, first_blood: bool) -> int:
    """R-30-13: 2 per enemy unit destroyed or inoperable, 1 for the first."""
    return _SECONDARY_PER_UNIT * units_out + (_FIRST_BLOOD if first_blood else 0)


def destroy_points(cost_out: int, cost_total: int) -> int:
    """R-30-12: a "destroy" mission's primary points: 7 times the share of the enemy's
    deployment cost destroyed or inoperable, rounded down."""
    return (_MAX_PRIMARY * cost_out) // cost_total if cost_total else 0


def rank_stats(stats: Mapping[str, int], rank: str) -> Json:
    """R-30-16: each rank above Rookie is one Stat Reduction Modifier, taken in the order
    accuracy, assault, evasion, never below 2 ("a minimum of 2 Accuracy, 2 Assault, and 2
    Evasion")."""
    out = {k: int(stats[k]) for k in _SRM_ORDER}
    steps = _RANKS.index(rank) if rank in _RANKS else 0
    for i in range(steps):
        key = _SRM_ORDER[i % len(_SRM_ORDER)]
        out[key] = max(_MIN_STAT, out[key] - 1)
    return out
