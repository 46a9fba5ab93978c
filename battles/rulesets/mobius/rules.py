"""Each rule of Mobius as a function of the dice (a bucket of D6, every die through the
`Dice` seam): the engine plays them, the case book probes them one at a time."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from battles.rulesets.base import RulesetError
from battles.rulesets.mobius import tables as T
from campaign.rules.dice import Dice

Json = dict[str, Any]
#: The owner's choice of the model that takes one failed save's damage ("one Unit member of
#: the Player's choice"): (the models' HP left, the damage rolled) -> the model's index.
Pick = Callable[[Sequence[int], int], int]


def hits(face: int, needed: int, modifier: int = 0) -> bool:
    """"Regardless of modifiers, 6 always Hits and 1 always Misses"; otherwise the
    modified roll must equal or exceed what is needed."""
    if face == 6:
        return True
    if face == 1:
        return False
    return face + modifier >= needed


def d6s(dice: Dice, n: int) -> list[int]:
    """`n` D6 in a row, exactly the faces (and the count) of `n` calls of `dice.roll(6)`.
    A plain `Dice` on a `random.Random` (every battle and simulation) is read straight
    from its generator (`Dice.plain_generator`: `getrandbits(3)` drawn again until it is
    below 6), a fraction of the cost of the three interpreted calls per die; any other
    dice (`ForcedDice`, a subclass) roll through `roll`."""
    rng = dice.plain_generator()
    if rng is not None:
        bits = rng.getrandbits
        faces: list[int] = []
        for _ in range(n):
            r = bits(3)
            while r >= 6:
                r = bits(3)
            faces.append(r + 1)
        dice.count += max(0, n)
        return faces
    roll = dice.roll
    return [roll(6) for _ in range(n)]


def d6(dice: Dice) -> int:
    """One D6 (`d6s`)."""
    return d6s(dice, 1)[0]


def roll_d3(dice: Dice) -> int:
    return T.d3(d6(dice))


def roll_damage(dice: Dice, dam: int | str) -> int:
    """A weapon's DAM: a number, "D3" or "D6" ("if a Model is attacked with a DAM D6
    weapon, they roll a D6 for every unsaved hit")."""
    if isinstance(dam, int):
        return dam
    if dam == "D3":
        return roll_d3(dice)
    if dam == "D6":
        return d6(dice)
    raise RulesetError(f"Unknown damage {dam!r} (a number, D3 or D6).")


# --- turns --------------------------------------------------------------------------------
def first_turn_curse(*, owner_has_had_turn: bool, ignores_curse: bool = False) -> bool:
    """The First Turn Curse: "If a Player hasn't had their first Turn, their Units may not
    be targeted for anything". Answers whether the unit may be targeted."""
    return owner_has_had_turn or ignores_curse


def roll_off(dice: Dice, players: Sequence[str]) -> Json:
    """"every Player rolls a D6 and the highest roller decides who goes first"; ties roll
    again among the tied (R-MOB-4)."""
    contenders = list(players)
    rounds: list[dict[str, int]] = []
    while True:
        rolls = {p: d6(dice) for p in contenders}
        rounds.append(rolls)
        best = max(rolls.values())
        contenders = [p for p in contenders if rolls[p] == best]
        if len(contenders) == 1:
            return {"rolls": rounds, "first": contenders[0]}


PHASES: tuple[str, ...] = ("start", "movement", "action", "hero", "melee", "end")


# --- movement -----------------------------------------------------------------------------
def rapid_bonus(subtypes: Sequence[str], dice: Dice | None = None) -> Json:
    """"Rapid Move: Up to Move Value +6", +12" if Super Speed Infantry, Cavalry, or a Fast
    Vehicle"; Heavy vehicles: "their Rapid Move is +D6" (NOT +6")"."""
    if "heavy" in subtypes:
        if dice is None:
            raise RulesetError("A Heavy vehicle's Rapid Move needs a die (+D6\").")
        face = d6(dice)
        return {"bonus": face, "roll": face}
    return {"bonus": T.RAPID_BONUS_FAST if T.FAST_SUBTYPES & set(subtypes)
            else T.RAPID_BONUS}


def move_allowance(*, move: int, kind: str, subtypes: Sequence[str] = (),
                   bonus: int | None = None, flying: bool = False, move_flying: int = 0,
                   start_terrain: str = "open", rules: Sequence[str] = ()) -> Json:
    """How far a unit may go with a Standard or Rapid Move. "Two Move Values (Flying) ...
    uses the second Move value when doing so"; "Units with a Move value of 0" may not Move
    at all"; "Units that begin their Movement Phase in Difficult Terrain may not Rapid
    Move" (All-Terrain and Climb "do not suffer any negative effects from being in
    Difficult Terrain"; Hover units "ignore the effects of terrain"); Airborne "cannot
    Move unless in Flight"."""
    if kind not in ("standard", "rapid", "charge_standard", "charge_rapid"):
        raise RulesetError(f"Unknown move {kind!r}.")
    base = move_flying if flying and move_flying else move
    if "airborne" in subtypes and not flying:
        base = 0
    if base == 0:
        return {"inches": 0, "allowed": False, "reason": "Move 0"}
    rapid = kind.endswith("rapid")
    if rapid and T.TERRAIN[start_terrain].difficult and not flying and not (
            "hover" in subtypes or {"all_terrain", "climb"} & set(rules)):
        return {"inches": base, "allowed": False,
                "reason": "begins in Difficult Terrain: no Rapid Move"}
    extra = (bonus if bonus is not None else rapid_bonus(subtypes)["bonus"]) if rapid else 0
    return {"inches": base + extra, "allowed": True, "reason": ""}


def minimum_move(move_min: int, move_max: int, reduced_by: int = 0) -> Json:
    """Minimum Movement: "Move Values are 'between' values (For Example: 6-12"). In this
    case, the Unit must move at least the minimum every Turn. If the Unit's Move distance
    is reduced, the compulsory Move is reduced accordingly"."""
    return {"minimum": max(0, move_min - reduced_by), "maximum": max(0, move_max - reduced_by),
            "counts_as_move_for_heavy": False}


def unit_move(members: Sequence[int]) -> int:
    """Different Model Speeds: "A Unit is only as fast as its SLOWEST member"."""
    if not members:
        raise RulesetError("A unit without members does not move.")
    return min(members)


def difficult_stop(*, move: int, distance_to_terrain: float, wanted: float,
                   all_terrain: bool = False) -> float:
    """"Units moving into Difficult Terrain immediately stop once their regular Move value
    has been reached (again, even while Charging!)"."""
    if all_terrain or wanted <= distance_to_terrain:
        return wanted
    return min(wanted, float(move))


def dangerous_terrain(dice: Dice, members: int, *, immune: bool = False) -> Json:
    """"If a Move begins and/or ends in Dangerous Terrain, roll 1D6 for every living member
    ... The Unit takes 1 HP worth of Damage multiplied by the number of 1 results"."""
    if immune:
        return {"rolls": [], "damage": 0}
    rolls = d6s(dice, members)
    return {"rolls": rolls, "damage": sum(1 for f in rolls if f == 1)}


def vehicle_terrain(dice: Dice, terrain: str) -> Json:
    """Vehicles: "When a Vehicle begins its Move in any kind of Difficult Dangerous Terrain
    ... rolls a D6. If a 1 is rolled, the Vehicle does not move. If this happens in
    Dangerous Terrain, the Vehicle also loses 1 HP"."""
    t = T.TERRAIN[terrain]
    if t.impassable:
        return {"roll": None, "moves": False, "hp_lost": 0}
    if not (t.difficult or t.dangerous):
        return {"roll": None, "moves": True, "hp_lost": 0}
    face = d6(dice)
    stuck = face == 1
    return {"roll": face, "moves": not stuck, "hp_lost": 1 if stuck and t.dangerous else 0}


def can_enter(terrain: str, *, vehicle: bool = False, flying: bool = False,
              hover: bool = False, teleport: bool = False) -> bool:
    """Impassable Terrain "can only be flown over or teleported past, and never moved onto
    or through"; Hover "ignore the effects of terrain, including impassable"; Buildings:
    "Only Infantry may enter a building"."""
    t = T.TERRAIN[terrain]
    if t.impassable:
        return flying or hover or teleport
    return not (t.infantry_only and vehicle)


def vertical_move(height: float, *, climb: bool = False, hover: bool = False,
                  teleport: bool = False, down: bool = False) -> Json:
    """Moving Vertically: "Without a rule that allows them to move up (such as Climb,
    Hover, or Teleport), Models may not Move or Charge vertically upwards. However, Models
    may jump down"; Climb: "every 3" moved up vertical terrain is treated as 1""; Obstacles
    "up to an inch in height" are vaulted."""
    if down or height <= T.OBSTACLE_VAULT_HEIGHT:
        return {"allowed": True, "cost": 0.0}
    if hover or teleport:
        return {"allowed": True, "cost": 0.0}
    if climb:
        return {"allowed": True, "cost": height / T.CLIMB_RATIO}
    return {"allowed": False, "cost": None}


def trench_move(*, entering_or_leaving: bool) -> Json:
    """Trenches: "moving both into and out of a Trench immediately ends that Movement,
    counting it as a Rapid Move regardless of distance"."""
    return {"ends_move": entering_or_leaving,
            "counts_as": "rapid" if entering_or_leaving else None}


def special_terrain_cost(kind: str, count: int = 1) -> Json:
    """Ladders "counting as 3" of Movement"; Ruins "counting each level traversed as 3"";
    Buildings: entering, leaving and each section "3" of Movement"."""
    costs = {"ladder": T.LADDER_COST, "ruin_level": T.RUIN_LEVEL_COST,
             "building_enter": T.BUILDING_COST, "building_leave": T.BUILDING_COST,
             "building_section": T.BUILDING_COST}
    try:
        return {"inches": costs[kind] * count}
    except KeyError:
        raise RulesetError(f"Unknown special terrain move {kind!r}.") from None


# --- ranged attacks -------------------------------------------------------------------------
def can_fire(weapon_type: str, movement: str, *, heavy_duty: bool = False,
             compulsory_only: bool = False) -> Json:
    """Ranged Attacks & Movement: Heavy, Artillery and Focus "Can't Fire" after a Standard
    Move, Assault "Fire Normally", Automatic fires "with the second AK stat" stationary and
    "the first AK stat" after moving; "Heavy Duty Models may fire Heavy Weapons even after
    a Standard Move"; "Units attempting a Rapid Move skip their Action Phase";
    "compulsory Movements do not count for purposes such as firing Heavy weapons"."""
    if weapon_type not in T.WEAPON_TYPES:
        raise RulesetError(f"Unknown weapon type {weapon_type!r}.")
    if weapon_type == "melee":
        return {"fires": False, "ak": None, "reason": "melee weapon"}
    if movement == "rapid":
        return {"fires": False, "ak": None, "reason": "Rapid Move skips the Action Phase"}
    moved = movement == "standard" and not compulsory_only
    if moved and weapon_type in T.NO_FIRE_AFTER_MOVE and not (
            heavy_duty and weapon_type == "heavy"):
        return {"fires": False, "ak": None, "reason": "can't fire after a Standard Move"}
    if weapon_type == "automatic":
        return {"fires": True, "ak": "first" if moved else "second", "reason": ""}
    return {"fires": True, "ak": "first", "reason": ""}


def cover_level(terrain: str, *, dug_in: bool = False, some_in_open: bool = False,
                vehicle: bool = False, camouflage: int = 0, window: str | None = None,
                boarded: bool = False, door: bool = False) -> int:
    """Cover Levels: the terrain's level, "Dug In +1", "Some members ... in the Open -1";
    Taking Cover "If they're in the Open, they still count as being in Level 1 Cover";
    Vehicles "suffer a -1 penalty to their Cover Level - they receive no benefits from
    Level 1 Cover"; Camouflage (X) "add X ... If they're in the Open, they are in Level X
    Cover"; firing into a building through a "Window"."""
    if window is not None:
        level = T.WINDOW_COVER[window] + (1 if boarded else 0) - (1 if door else 0)
    else:
        level = T.TERRAIN[terrain].cover
    level += camouflage
    if dug_in:
        level = level + T.DUG_IN if level > 0 else T.DUG_IN_OPEN_LEVEL
    if some_in_open and level > 0:
        level += T.SOME_IN_OPEN
    if vehicle:
        level = max(0, level - T.VEHICLE_COVER_PENALTY)
    return max(0, level)


def roll_to_hit(dice: Dice, pool: int, rc: int, *, modifier: int = 0,
                reroll_misses: bool = False, instant_hit: bool = False) -> Json:
    """Roll to Hit: "Every result below the firer's Ranged Combat (RC) value is a Miss.
    Every result equal to or above it is a Hit. Regardless of modifiers, 6 always Hits and
    1 always Misses"; Twin-Linked & co "may re-roll all misses once"; Instant Hit
    "automatically passes every Roll to Hit"."""
    if instant_hit:
        return {"rolls": [], "rerolls": [], "hits": pool}
    # `hits` for every face at once: 6 hits, 1 misses, else the modified face must reach
    least = rc - modifier
    rolls = d6s(dice, pool)
    n = 0
    for f in rolls:
        if f == 6 or (f != 1 and f >= least):
            n += 1
    rerolls: list[int] = []
    if reroll_misses:
        rerolls = d6s(dice, pool - n)
        for f in rerolls:
            if f == 6 or (f != 1 and f >= least):
                n += 1
    return {"rolls": rolls, "rerolls": rerolls, "hits": n}


def roll_for_cover(dice: Dice, pool: int, level: int, *, ignores_cover: bool = False) -> Json:
    """Roll for Cover: "only needed if the target is obscured ... Every result higher than
    their Cover is a Pass ... rolls of 6 always pass"; Ignores Cover "automatically passes
    every Roll for Cover"."""
    if level <= 0 or ignores_cover or pool == 0:
        return {"rolls": [], "passed": pool}
    rolls = d6s(dice, pool)
    passed = 0
    for f in rolls:
        if f == 6 or f > level:
            passed += 1
    return {"rolls": rolls, "passed": passed}


def save_needed(defence: int, strength: int, *, power: int = 0, steel_skin: bool = False) -> int:
    """The Defence Saves table, "-1 Modifier" per point of Power ("the target subtracts X
    from their Defence Saves", read as the save needing X more, R-MOB-10); Steel Skin "a +1
    modifier to their Saving Throws" (the save needing 1 less)."""
    return T.defence_save_needed(defence, strength) + power - (1 if steel_skin else 0)


def defence_saves(dice: Dice, pool: int, needed: int, *, shielded: int | None = None) -> Json:
    """"Every roll lower than this is a Failure"; "If the required Save becomes higher
    than 6 ... the target automatically fails all their Saves"; Shielded (X+) "always pass
    their Saving Throws if they roll X or higher" (Power does not touch a Shield Save)."""
    if needed > 6 and shielded is None:
        return {"rolls": [], "needed": needed, "failed": pool}
    rolls = d6s(dice, pool)
    failed = 0
    least = max(2, needed) if needed <= 6 else 7  # 7: no face saves
    shield = 7 if shielded is None else shielded
    for f in rolls:
        if f < least and f < shield:
            failed += 1
    return {"rolls": rolls, "needed": needed, "failed": failed}


def wounded_first(models: Sequence[int], amount: int) -> int:
    """R-MOB-11's old reading: the model with the fewest HP left takes the damage."""
    return models.index(min(models))  # the fewest HP, the first such model on a tie


def allocate(dice: Dice, hp: Sequence[int], failed: int, dam: int | str,
             pick: Pick | None = None) -> Json:
    """"For every failed Save, one Unit member of the Player's choice loses the Attack's
    DAM in HP ... If this reduces a Model to 0 HP, the Model is removed from play as a
    Casualty. This process continues until either all dice are accounted for, or the
    entire Unit is removed". `pick` is the defending player's choice (R-MOB-11), made for
    each failed save once its damage is rolled; without one, the model with the fewest HP
    left takes it (a wounded model first). No die is rolled once the unit is gone."""
    models = [h for h in hp if h > 0]
    before = len(models)
    damage_rolls: list[int] = []
    lost = 0
    choose = pick or wounded_first
    for _ in range(failed):
        if not models:
            break
        amount = dam if isinstance(dam, int) else roll_damage(dice, dam)
        damage_rolls.append(amount)
        index = choose(models, amount)
        taken = min(models[index], amount)
        lost += taken
        models[index] -= taken
        if models[index] <= 0:
            models.pop(index)
    return {"hp": models, "hp_lost": lost, "casualties": before - len(models),
            "damage_rolls": damage_rolls}


def mixed_saves(dice: Dice, pool: int, groups: Sequence[Json]) -> Json:
    """Units with Different Saves: "the Saves should be rolled in pools just large enough
    to wipe out the majority before moving on to unique Models ... Repeat until there's no
    more dice left". `groups`: `[{"hp": [..], "needed": n}]`, majority first; 1-damage
    hits."""
    left = pool
    out = []
    for g in groups:
        hp = [h for h in g["hp"] if h > 0]
        while left > 0 and hp:
            batch = min(left, sum(hp))
            left -= batch
            saves = defence_saves(dice, batch, int(g["needed"]))
            hp = allocate(dice, hp, saves["failed"], 1)["hp"]
            out.append({"needed": g["needed"], "rolled": batch, "failed": saves["failed"],
                        "rolls": saves["rolls"]})
        g_left = hp
        out.append({"left": g_left})
    return {"batches": [b for b in out if "rolled" in b],
            "left": [b["left"] for b in out if "left" in b], "unused": left}


def ranged_attack(dice: Dice, *, models: int, ak: int, rc: int, st: int, dam: int | str,
                  target_hp: Sequence[int], target_def: int, cover: int = 0,
                  hit_modifier: int = 0, power: int = 0, rules: Sequence[str] = (),
                  steel_skin: bool = False, shielded: int | None = None,
                  target_vehicle: bool = False, target_arm: int = 0,
                  facing: str = "front", heavy: bool = False,
                  open_topped: bool = False, target_start_hp: int | None = None,
                  pick: Pick | None = None) -> Json:
    """The Shooting Sequence: pool = AK x firing models, Roll to Hit on RC, Roll for Cover,
    Defence Saves (or Vehicle Armour Saves), damage and casualties; "5. Don't Panic! If a
    Unit loses a quarter of their total HP from a single volley"."""
    pool = ak * models
    hit = roll_to_hit(dice, pool, rc, modifier=hit_modifier,
                      reroll_misses=not T.REROLL_MISSES.isdisjoint(rules),
                      instant_hit="instant_hit" in rules)
    covered = roll_for_cover(dice, hit["hits"], cover, ignores_cover="ignores_cover" in rules)
    answer: Json = {"pool": pool, "hit_rolls": hit["rolls"] + hit["rerolls"],
                    "hits": hit["hits"], "cover_rolls": covered["rolls"],
                    "past_cover": covered["passed"]}
    if target_vehicle:
        strength = st + (T.TANKBUSTER_ST if "tankbuster" in rules else 0)
        armour = vehicle_armour(dice, covered["passed"], strength=strength, arm=target_arm,
                                hp=sum(target_hp), facing=facing, heavy=heavy,
                                open_topped=open_topped, start_hp=target_start_hp)
        left = max(0, sum(target_hp) - armour["hp_lost"])
        answer.update({"saves": armour["rolls"], "failed": armour["failed"],
                       "hp_lost": armour["hp_lost"], "hp": [left] if left else [],
                       "casualties": 0 if left else 1,
                       "panic": armour["hp_lost"] > 0, "explodes": armour["explodes"]})
        return answer
    needed = save_needed(target_def, st, power=power, steel_skin=steel_skin)
    saves = defence_saves(dice, covered["passed"], needed, shielded=shielded)
    dealt = allocate(dice, target_hp, saves["failed"], dam, pick)
    total = sum(h for h in target_hp if h > 0)
    answer.update({"saves": saves["rolls"], "needed": needed, "failed": saves["failed"],
                   "hp_lost": dealt["hp_lost"], "hp": dealt["hp"],
                   "casualties": dealt["casualties"], "damage_rolls": dealt["damage_rolls"],
                   "panic": total > 0 and dealt["hp_lost"] * T.PANIC_FRACTION >= total})
    return answer


def flying_modifier(*, target_flying: bool, firer_flying: bool, target_rapid: bool,
                    anti_air: bool = False) -> int:
    """"Models firing from the ground at Units in Flight suffer a -1 penalty to their Rolls
    to Hit, which increases to -2 if the target had previously made a Rapid Move"; "Anti-Air
    weapons and Units remove all negative modifiers"."""
    if not target_flying or firer_flying or anti_air:
        return 0
    return -(T.FLYING_RAPID_HIT_PENALTY if target_rapid else T.FLYING_HIT_PENALTY)


def trench_attacks(ak_total: int) -> int:
    """"Units firing from trenches do so with their total Attacks halved (rounding up)"."""
    return -(-ak_total // 2)


def window_firers(width: str, models: int) -> int:
    """Windows and Other Firing Points: "Whole Wall All / Wide 4 / Medium 3 / Narrow 2 /
    Very Narrow 1"."""
    limit = T.WINDOW_FIRERS[width]
    return models if limit is None else min(models, limit)


def blast_pool(ak: int, members_in_radius: int) -> int:
    """Blast (X): "the AK of each Attack being multiplied by the number of members within
    the radius"."""
    return ak * members_in_radius


def take_cover(*, infantry: bool, subtypes: Sequence[str] = (), rules: Sequence[str] = (),
               blip: bool = False) -> Json:
    """Taking Cover: "Infantry Units can spend the Action Phase ... they become Dug In";
    Cavalry and Giants "may not Take Cover"; Vehicles "may not Take Cover"; Extremely
    Stupid "can't even Take Cover"; a Blip may "Reveal Blip and Take Cover"."""
    allowed = (infantry and not (T.NO_TAKE_COVER & set(subtypes))
               and "extremely_stupid" not in rules)
    if "super_speed" in subtypes and infantry and "extremely_stupid" not in rules:
        allowed = True
    return {"allowed": allowed or (blip and infantry), "dug_in": allowed or blip}


def special_command(dice: Dice | None, *, needed: int | None = None, kind: str = "",
                    used_this_turn: bool = False, phase: str = "action",
                    moved: str = "stationary", locked: bool = False,
                    uses_left: int | None = None, recharge_left: int = 0) -> Json:
    """Special Commands: "the number required ... is placed in brackets"; "If the roll is
    failed, the Action Phase is spent"; Repeating "can be used in the Hero Phase even if
    already used in the Action Phase. Commands without this subtype may only be used once
    per Turn"; Focus "may not be used following a Standard Move, even during the Hero
    Phase"; Unlocked "may be used in a Melee Lock"; Melee "may only be used in a Melee
    Lock"; (X) Turn Recharge; (X) Uses Only."""
    kinds = set(kind.split(",")) if kind else set()
    refuse = ""
    if used_this_turn and not ("repeating" in kinds and phase == "hero"):
        refuse = "only once per Turn"
    elif "focus" in kinds and moved != "stationary":
        refuse = "Focus: not after a Standard Move"
    elif locked and not ({"unlocked", "melee"} & kinds):
        refuse = "not in a Melee Lock without Unlocked"
    elif "melee" in kinds and not locked:
        refuse = "Melee: only in a Melee Lock"
    elif uses_left is not None and uses_left <= 0:
        refuse = "no uses left"
    elif recharge_left > 0:
        refuse = "recharging"
    if refuse:
        return {"used": False, "roll": None, "reason": refuse}
    if needed is None or dice is None:
        return {"used": True, "roll": None, "reason": ""}
    face = d6(dice)
    return {"used": face >= needed, "roll": face,
            "reason": "" if face >= needed else "roll failed: the Action Phase is spent"}


# --- melee ----------------------------------------------------------------------------------
def melee_ak(ak: int, *, extra_melee_weapons: int = 0, charged: bool = False,
             furious_charge: bool = False) -> int:
    """"+1 AK for every additional Melee Weapon carried ... +1 AK for Charging"; Furious
    Charge "+2 AK and +1 to Hit when Charging"."""
    return ak + extra_melee_weapons + (1 if charged else 0) + (
        1 if charged and furious_charge else 0)


def melee_attack(dice: Dice, *, models: int, ak: int, cqc: int, target_cqc: int, st: int,
                 dam: int | str, target_hp: Sequence[int], target_def: int,
                 hit_modifier: int = 0, power: int = 0, rules: Sequence[str] = (),
                 steel_skin: bool = False, shielded: int | None = None,
                 target_vehicle: bool = False, target_arm: int = 0,
                 target_movement: str = "stationary", giant: bool = False,
                 facing: str = "front", heavy: bool = False,
                 open_topped: bool = False, target_start_hp: int | None = None,
                 pick: Pick | None = None) -> Json:
    """Melee Attacks: pool = AK x attacking models, to hit from the CQC table ("6 always
    Hits and 1 always Misses"), then Defence Saves. A Vehicle's CQC "depends on how far
    they have moved" and a Giant's melee gives "-1 modifier to their Armour Save"."""
    t_cqc = T.VEHICLE_CQC[target_movement] if target_vehicle else target_cqc
    needed_hit = T.melee_hit_needed(cqc, t_cqc)
    pool = ak * models
    hit = roll_to_hit(dice, pool, needed_hit, modifier=hit_modifier,
                      reroll_misses=not T.REROLL_MISSES.isdisjoint(rules))
    answer: Json = {"pool": pool, "to_hit": needed_hit,
                    "hit_rolls": hit["rolls"] + hit["rerolls"], "hits": hit["hits"]}
    if target_vehicle:
        armour = vehicle_armour(dice, hit["hits"], strength=st + (
            T.TANKBUSTER_ST if "tankbuster" in rules else 0), arm=target_arm,
            hp=sum(target_hp), facing=facing, heavy=heavy, open_topped=open_topped,
            modifier=-1 if giant else 0, start_hp=target_start_hp)
        left = max(0, sum(target_hp) - armour["hp_lost"])
        answer.update({"saves": armour["rolls"], "failed": armour["failed"],
                       "hp_lost": armour["hp_lost"], "hp": [left] if left else [],
                       "casualties": 0 if left else 1, "explodes": armour["explodes"]})
        return answer
    needed = save_needed(target_def, st, power=power, steel_skin=steel_skin)
    saves = defence_saves(dice, hit["hits"], needed, shielded=shielded)
    dealt = allocate(dice, target_hp, saves["failed"], dam, pick)
    answer.update({"saves": saves["rolls"], "needed": needed, "failed": saves["failed"],
                   "hp_lost": dealt["hp_lost"], "hp": dealt["hp"],
                   "casualties": dealt["casualties"], "damage_rolls": dealt["damage_rolls"]})
    return answer


def melee_losers(hp_lost: dict[str, int]) -> list[str]:
    """"the side that lost the most HP must roll a Panic Test ... If three or more opposing
    Players are sharing a Melee Fight, all sides except the winning Players' count as
    having lost". A tie: nobody lost (R-MOB-12)."""
    if not hp_lost:
        return []
    least = min(hp_lost.values())
    if all(v == least for v in hp_lost.values()):
        return []
    if len(hp_lost) >= 3:
        return sorted(s for s, v in hp_lost.items() if v != least)
    most = max(hp_lost.values())
    return sorted(s for s, v in hp_lost.items() if v == most)


def escape(dice: Dice, *, move: int, escapist: bool = False, fast: bool = False) -> Json:
    """Attempting to Escape: "roll 2D6 and add the Unit's Move Value. If the number rolled
    is 10 or higher, they may escape and move the number rolled, counting it as a Rapid
    Move ... rolling a double-1 always fails"; "Cavalry and Super Speed Infantry roll 3D6
    and discard the lowest"; Escapist "always pass ... but roll a D6 anyway to determine
    the distance"."""
    if escapist:
        face = d6(dice)
        return {"rolls": [face], "total": face, "escaped": True, "distance": face}
    rolls = d6s(dice, 3 if fast else 2)
    kept = sorted(rolls, reverse=True)[:2]
    total = sum(kept) + move
    double_one = kept == [1, 1]
    ok = total >= T.ESCAPE_TARGET and not double_one
    return {"rolls": rolls, "kept": kept, "total": total, "escaped": ok,
            "distance": sum(kept) if ok else 0}


def after_wipe(dice: Dice) -> Json:
    """Destroying All Enemy Units: "may then move D6" in any direction"."""
    face = d6(dice)
    return {"roll": face, "inches": face}


# --- panic ----------------------------------------------------------------------------------
def panic_test(dice: Dice, pan: int, *, fearless: bool = False, modifier: int = 0,
               roll_modifier: int = 0, name_of_freedom: bool = False) -> Json:
    """Panic Tests: "rolls 2D6. If the result is higher than the Unit's PAN, the test is
    failed" (R-MOB-13: equal passes). Fearless "always pass Panic Tests"; `modifier`
    changes PAN (Terrifying "-1 modifier to their PAN"); `roll_modifier` the roll ("+1
    PAN modifier during any End Phase in which their Panicked status was removed",
    R-MOB-14). In the Name of Freedom: 3D6, the highest discarded (R-MOB-20)."""
    if fearless:
        return {"rolls": [], "total": None, "passed": True, "pan": pan + modifier}
    rolls = d6s(dice, 3 if name_of_freedom else 2)
    kept = sorted(rolls)[:2]
    total = sum(kept) + roll_modifier
    return {"rolls": rolls, "kept": kept, "total": total, "pan": pan + modifier,
            "passed": total <= pan + modifier}


def panic_flight(dice: Dice, *, vehicle: bool) -> Json:
    """Failed Panic Test Results: non-vehicles "move 4D6" away from the nearest enemy ...
    towards the nearest table edge"; a vehicle "moves 1D6""."""
    rolls = d6s(dice, T.PANIC_VEHICLE_DICE if vehicle else T.PANIC_FLEE_DICE)
    return {"rolls": rolls, "inches": sum(rolls), "lands": not vehicle}


def terrifying_penalty(distances: Sequence[float], *, fearless: bool = False) -> Json:
    """Terrifying: "all Units within 18" of a Terrifying enemy Unit must roll a Panic Test.
    Additionally, all non-Fearless Units receive a -1 modifier to their PAN for every
    Terrifying Unit within 24""."""
    return {"must_test": any(d <= T.TERRIFYING_TEST for d in distances),
            "pan_modifier": 0 if fearless else -sum(
                1 for d in distances if d <= T.TERRIFYING_PENALTY)}


# --- command, reserves, blips, heroes -------------------------------------------------------
def second_in_command(dice: Dice) -> Json:
    """"the controlling Player rolls a D6 during their every Start Phase. If they roll 4 or
    higher, they may pick one of the other HQ Units to take the role of Commander, but
    their unique Command Bonus will not apply"."""
    face = d6(dice)
    return {"roll": face, "new_commander": face >= T.SECOND_IN_COMMAND,
            "command_bonus": False}


def reserves_allowed(*, commander_present: bool) -> int:
    """"the Active Player may declare one Unit from their Reserve"; "If the Army's
    Commander is present ... up to two additional Units from Reserve per Turn"."""
    return T.RESERVES_PER_TURN + (T.COMMANDER_EXTRA_RESERVES if commander_present else 0)


def reserve_entry(*, distance_from_edge: float, nearest_enemy: float,
                  ambush: bool = False) -> Json:
    """"anywhere within 12" of their designated table edge ... If they're within 6" of an
    enemy Unit, they must move again ... at least 6" away"; Ambush "anywhere ... at least
    12" away from any enemy"; "counts as having made a Standard Move and may not Charge"."""
    if ambush:
        ok = nearest_enemy >= T.RESERVE_EDGE
        return {"allowed": ok, "push": 0.0, "movement": "standard", "may_charge": False}
    if distance_from_edge > T.RESERVE_EDGE:
        return {"allowed": False, "push": 0.0, "movement": "standard", "may_charge": False}
    push = max(0.0, T.RESERVE_GAP - nearest_enemy)
    return {"allowed": True, "push": push, "movement": "standard", "may_charge": False}


BLIP_TRIGGERS: tuple[str, ...] = ("targeted", "special_command", "hero_phase", "charge",
                                  "charged", "special_rule", "damaged", "split",
                                  "embarks")


def blip_revealed(event: str, *, reveal_blip_command: bool = False) -> bool:
    """"A Blip is revealed when it ... is targeted ... performs a Special Command (other
    than Reveal Blip) or uses the Hero Phase ... declares a Charge or is Charged ... uses
    any Special Rules ... takes any hits or Damage"; and when a Unit splits or enters a
    Transport."""
    if event == "special_command" and reveal_blip_command:
        return False
    if event in ("move", "rapid_move", "take_cover", "reserve_entry", "ambush"):
        return False
    if event not in BLIP_TRIGGERS:
        raise RulesetError(f"Unknown blip event {event!r}.")
    return True


def lying_about_blips(*, campaign: bool) -> Json:
    """Punishment for Lying: "that Player instantly loses the battle by default"; "For
    purposes of campaigns, lying about Blips causes the whole army to go MIA"."""
    return {"loses_battle": True, "army_fate": "destroyed" if campaign else "loses"}


def war_howl(distances: Sequence[float]) -> Json:
    """Cry of the Wolf: "allows some Units to 'skip' their Turn to make a War Howl,
    disorienting the enemy"; "the War Howls make enemy fire less accurate" (R-MOB-25: -1 to
    Hit for an enemy firing within 18" of a howling unit, until the howler's next Start
    Phase; once per battle)."""
    near = any(d <= T.WAR_HOWL_RANGE for d in distances)
    return {"modifier": -T.WAR_HOWL_PENALTY if near else 0}


def stand_together(*, rules: Sequence[str], rank: str, moved: bool, fired: bool) -> Json:
    """Kingdom of Acorn, Stand Together, Fight Together: "allow all the Army's Troops to
    sacrifice Movement to enhance their Shooting, or sacrifice Shooting to improve their
    Melee" (R-MOB-21: +1 to Hit at range after no move; +1 AK in melee after no shot)."""
    if "stand_together" not in rules or rank != "troops":
        return {"hit": 0, "ak": 0}
    return {"hit": 0 if moved else 1, "ak": 0 if fired else 1}


def strength_in_numbers(*, rules: Sequence[str], rank: str, models: int) -> int:
    """Eggman Empire, Strength in Numbers (R-MOB-22): Troops with 10 or more models left
    get +1 PAN."""
    return 1 if "strength_in_numbers" in rules and rank == "troops" and models >= 10 else 0


def hatred(*, rules: Sequence[str], target_faction: str) -> int:
    """Dingo Regime: "their Hatred for Echidnas gives them a distinct advantage against
    ... Echidnas" (R-MOB-26: +1 to Hit)."""
    return 1 if "hatred_echidnas" in rules and target_faction == "echidna_covenants" else 0


def blitz(*, rules: Sequence[str], vehicle: bool, turn: int) -> bool:
    """Dingo Regime: "the Blitz! Special Rule which treats them as Heroes for one Turn"
    (R-MOB-26: vehicles, in their army's first turn)."""
    return vehicle and "blitz" in rules and turn == 1


def blast_members(members: int, radius: int) -> int:
    """Blast (X): "All Units within X inches of that Model" (R-MOB-30: models stand about
    an inch apart, so min(models, 2X + 1))."""
    return min(members, 2 * radius + 1)


def push_it(dice: Dice) -> Json:
    """Heroes & HQ: "Push It - Speed: The Hero/HQ moves 1D6" in any direction ... They may
    not use this to Charge"."""
    face = d6(dice)
    return {"roll": face, "inches": face, "may_charge": False}


def duel(dice: Dice, fighters: Sequence[Json], *, max_rounds: int = 50) -> Json:
    """Duels: "A Duel is like a Melee Fight ... All Panic Tests are passed in a Duel, as no
    Unit may leave until only one side's miniatures remain!". `fighters`: two
    `{"name", "hp", "cqc", "def", "ak", "st", "dam"}`, the first striking first
    (R-MOB-15); rounds until one falls."""
    if len(fighters) != 2:
        raise RulesetError("A duel is fought by two sides.")
    hp = [int(f["hp"]) for f in fighters]
    log = []
    rounds = 0
    while hp[0] > 0 and hp[1] > 0 and rounds < max_rounds:
        rounds += 1
        for i in (0, 1):
            j = 1 - i
            if hp[i] <= 0 or hp[j] <= 0:
                continue
            a, d = fighters[i], fighters[j]
            blow = melee_attack(dice, models=1, ak=int(a["ak"]), cqc=int(a["cqc"]),
                                target_cqc=int(d["cqc"]), st=int(a["st"]),
                                dam=a.get("dam", 1), target_hp=[hp[j]],
                                target_def=int(d["def"]), power=int(a.get("power", 0)))
            hp[j] = sum(blow["hp"])
            log.append({"round": rounds, "attacker": a["name"], "hits": blow["hits"],
                        "hp_lost": blow["hp_lost"]})
    winner = 0 if hp[1] <= 0 < hp[0] else 1 if hp[0] <= 0 < hp[1] else None
    return {"rounds": rounds, "hp": hp, "winner": None if winner is None
            else fighters[winner]["name"], "log": log}


def immortal_recover(dice: Dice, hp: int, start_hp: int) -> Json:
    """Immortal: "recover D3 HP on the Start Phase of their every Turn, up to their
    starting HP"."""
    face = d6(dice)
    return {"roll": face, "hp": min(start_hp, hp + T.d3(face))}


def immortal_rise(dice: Dice, start_hp: int) -> Json:
    """Immortal: "once per game, if they are removed as a Casualty ... a single D6. If the
    result is 4 or higher, they get back up with half their starting HP" (rounded up,
    R-MOB-16)."""
    face = d6(dice)
    return {"roll": face, "rises": face >= T.IMMORTAL_RISE,
            "hp": -(-start_hp // 2) if face >= T.IMMORTAL_RISE else 0}


# --- vehicles -------------------------------------------------------------------------------
def vehicle_weapons(movement: str) -> int | None:
    """"Remained Stationary All Weapons / Standard Move 1 Weapon / Rapid Move No Weapons";
    None: all."""
    return T.VEHICLE_WEAPONS[movement]


def armour_needed(facing: str, *, heavy: bool = False, open_topped: bool = False,
                  modifier: int = 0) -> int:
    """"Front 4+ / Side 5+ / Rear 6+"; Heavy "+1 modifier to their Side and Rear Armour
    Saves"; Open-Topped "-1 modifier"; a Giant's melee "-1"."""
    needed = T.ARMOUR_SAVE[facing]
    if heavy and facing in ("side", "rear"):
        needed -= 1
    if open_topped:
        needed += 1
    return needed - modifier


def vehicle_armour(dice: Dice, hits_scored: int, *, strength: int, arm: int, hp: int,
                   facing: str = "front", heavy: bool = False, open_topped: bool = False,
                   modifier: int = 0, start_hp: int | None = None) -> Json:
    """Vehicle Armour Saves: "for every Hit Scored, add 1D6 for every point of ST higher
    than the target's ARM ... If the number of 0 or less, the Attack can't penetrate";
    "Natural results of 1 and 6 ... are failures and successes ... For every failure
    rolled, remove 1 HP"; Extra Damage: "For every 1, the target's Player rolls another
    Armour Save ... until no more '1' results are rolled, or until the Vehicle is
    destroyed"; "If a Vehicle with more than half its starting HP is destroyed in a single
    Hit, it explodes" (R-MOB-17: the HP it had when the hit landed, against half its
    starting HP, its stat `start_hp`; `hp` is what it has when the attack begins and
    stands for the stat when `start_hp` is not given)."""
    per_hit = strength - arm
    needed = armour_needed(facing, heavy=heavy, open_topped=open_topped, modifier=modifier)
    rolls: list[int] = []
    failed = 0
    left = hp
    explodes = False
    if per_hit <= 0:
        return {"rolls": [], "failed": 0, "hp_lost": 0, "needed": needed,
                "penetrates": False, "explodes": False}
    for _ in range(hits_scored):
        if left <= 0:
            break
        before = left
        pending = per_hit
        while pending > 0 and left > 0:
            pending -= 1
            face = d6(dice)
            rolls.append(face)
            ok = face == 6 or (face != 1 and face >= needed)
            if not ok:
                failed += 1
                left -= 1
            if face == 1:
                pending += 1
        if left <= 0 and before * 2 > (hp if start_hp is None else start_hp):
            explodes = True
    return {"rolls": rolls, "failed": failed, "hp_lost": hp - max(0, left), "needed": needed,
            "penetrates": True, "explodes": explodes}


def ram(dice: Dice, *, rammer_arm: int, target_arm: int) -> Json:
    """Ramming: "both Vehicles roll a poll of D6 equal in size to their ARM values ... For
    every result of 5+, the other Vehicle loses 1 HP and must roll a Panic Test"; "If the
    Ramming Vehicle survives, its Movement Phase immediately ends - and so does the rest
    of their Turn"."""
    mine = d6s(dice, rammer_arm)
    theirs = d6s(dice, target_arm)
    to_target = sum(1 for f in mine if f >= T.RAM_HIT)
    to_rammer = sum(1 for f in theirs if f >= T.RAM_HIT)
    return {"rammer_rolls": mine, "target_rolls": theirs, "target_hp_lost": to_target,
            "rammer_hp_lost": to_rammer, "target_panics": to_target > 0,
            "rammer_panics": to_rammer > 0, "turn_ends": True}


def tank_shock(dice: Dice, *, arm: int, slowest_move: int, members_def: Sequence[int],
               escapist: bool = False) -> Json:
    """Tank Shock: "rolls 2D6. If the result is equal to or higher than their slowest
    member's Move value, the Unit is unharmed. If the result is any lower, they roll as
    many Defence Saves as there are members ... with the ST of the Attacker being the ARM
    ... a member of that Unit loses D3 HP. For every successful Defence Save of 6, the
    Vehicle loses 1 HP"; Escapist "roll 2D6 (instead of 1D6) when running from Tank Shock"
    (R-MOB-18: the 2D6 is the shocked Unit's roll; an Escapist Unit rolls one die more)."""
    rolls = d6s(dice, 3 if escapist else 2)
    total = sum(rolls)
    if total >= slowest_move:
        return {"rolls": rolls, "total": total, "unharmed": True, "saves": [],
                "hp_losses": [], "vehicle_hp_lost": 0}
    saves: list[int] = []
    losses: list[int] = []
    sixes = 0
    for d in members_def:
        face = d6(dice)
        saves.append(face)
        if face == 6:
            sixes += 1
        if face < min(6, T.defence_save_needed(d, arm)) and face != 6:
            losses.append(roll_d3(dice))
    return {"rolls": rolls, "total": total, "unharmed": False, "saves": saves,
            "hp_losses": losses, "vehicle_hp_lost": sixes}


def transport_destroyed(*, enemy_within_3: bool) -> Json:
    """Destroying Vehicles with Transport: "the passengers must make a Rapid Move away
    from the wreckage and roll a Panic Test ... must not pass, or end within 3" of, an
    enemy Unit. If this isn't possible, the Unit's members are all trapped in the burning
    wreck and are removed as Casualties"."""
    return {"passengers_destroyed": enemy_within_3, "panic_test": not enemy_within_3,
            "movement": "rapid", "wreck": "impassable"}


def open_topped_fire(rng: int, weapon_type: str) -> Json:
    """Attacking from an Open-Topped Vehicle: "Ranged Attacks at half range, with a -1
    modifier to their Rolls to Hit ... Artillery and Heavy Weapons may not be used"."""
    if weapon_type in ("heavy", "artillery"):
        return {"fires": False, "range": 0, "modifier": 0}
    return {"fires": True, "range": rng / 2, "modifier": -1}


def artillery_fire(crew: int, *, moved: bool) -> Json:
    """Artillery: "If the Unit makes a Standard Move, the Gun may not Fire"; "If two or more
    Crew members are present to fire their Gun, it fires with a +1 modifier"; "If the Crew
    are removed, so are the Guns"."""
    if crew <= 0:
        return {"fires": False, "modifier": 0, "gun_removed": True}
    if moved:
        return {"fires": False, "modifier": 0, "gun_removed": False}
    return {"fires": True, "modifier": 1 if crew >= 2 else 0, "gun_removed": False}


def spg_modifier(*, stationary: bool) -> int:
    """SPG: "if an SPG remains Stationary, they are given a +1 modifier to their Rolls to
    Hit"."""
    return 1 if stationary else 0


def giant_attacks(weapons: Sequence[Any]) -> list[Any]:
    """Giant: "may make up to two Ranged Attacks per Action and/or Hero Phase. They can't
    use the same Ranged Attack more than once per Turn, but may fire two of the same weapon
    if they have two"."""
    return list(weapons)[:2]


def cohesion(gaps: Sequence[float]) -> Json:
    """Unit Cohesion: "All living members of a Unit must be within 1" of each other" (each
    within 1" of another member); out of cohesion they "must spend their next Movement
    Phase moving back into cohesion"."""
    broken = [g for g in gaps if g > T.COHESION]
    return {"in_cohesion": not broken, "must_regroup": bool(broken)}


def unit_spacing(distance: float, *, melee_lock: bool = False) -> bool:
    """"All separate Units, even friendly ones, must be at least 2" away from each other,
    unless they are in Melee Lock"."""
    return melee_lock or distance >= T.UNIT_GAP


def named_characters(variants: Sequence[Sequence[str]]) -> Json:
    """Named Characters: "No side may have two Named Characters that are Variants Of the
    same Character ... if more than one side has Variants of the same character, all those
    characters are placed aside for a compulsory duel". `variants`: per side."""
    problems = sorted({v for side in variants for v in side if list(side).count(v) > 1})
    seen: dict[str, int] = {}
    for side in variants:
        for v in set(side):
            seen[v] = seen.get(v, 0) + 1
    return {"illegal": problems, "duels": sorted(v for v, n in seen.items() if n > 1)}
