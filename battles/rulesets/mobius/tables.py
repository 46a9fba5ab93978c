"""The rule tables of Mobius (SAGE 2021 Edition, seed 000), written once: the rules, the
engine, the army-list schema, the catalogue and `GET /api/rules/?ruleset=mobius` all read
them. Distances are inches, as in the book ("distance must be measured in inches")."""

from __future__ import annotations

from dataclasses import dataclass

from battles.rulesets.base import RulesetOption, option_defaults

SEED_FILE = "000_8a487fefb02227dd.txt"

#: "Several D6 ... You may also need to roll a D3 or D2, but fortunately you can do this
#: with a D6": 1-2 -> 1, 3-4 -> 2, 5-6 -> 3; 1-3 -> 1, 4-6 -> 2.
D3: dict[int, int] = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
D2: dict[int, int] = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}

#: Army Size (Points): "Skirmish (Short) 500 - 1,000 / Large Skirmish (Medium) 1,500 -
#: 2,000 / Battle (Long) Over 2,000"; "Any game larger than 3,000pts would be quite long".
GAME_SIZES: dict[str, tuple[int, int | None]] = {
    "skirmish": (500, 1000),
    "large_skirmish": (1500, 2000),
    "battle": (2001, None),
}
LONG_GAME_POINTS = 3000

#: Ranks & Structure: "HQ ... Troops ... Support ... Transport ... Heroes".
RANKS: tuple[str, ...] = ("hq", "troops", "support", "transport", "heroes", "bodyguard")
#: "Every Army must contain ... 1x HQ, 2x Troops - This minimum is increased to 3 if your
#: game's Points Limit is 2,000pts or above ... no more than 3 HQ Units".
MIN_HQ = 1
MAX_HQ = 3
MIN_TROOPS = 2
MIN_TROOPS_LARGE = 3
LARGE_ARMY_POINTS = 2000

#: Standard Stat-Lines: "Average 6" 3 4+ 6 1 3" (Move CQC RC PAN HP DEF) and "Sonic 18" 9
#: - 10 16 4"; Vehicle Stat-Lines: "Car 6" 4+ 7 4 4 -" (Move RC PAN ARM HP Type).
STAT_LINE: tuple[str, ...] = ("move", "cqc", "rc", "pan", "hp", "def")
VEHICLE_STAT_LINE: tuple[str, ...] = ("move", "rc", "pan", "arm", "hp", "type")
AVERAGE = {"move": 6, "cqc": 3, "rc": 4, "pan": 6, "hp": 1, "def": 3}
SONIC = {"move": 18, "cqc": 9, "rc": None, "pan": 10, "hp": 16, "def": 4}
CAR = {"move": 6, "rc": 4, "pan": 7, "arm": 4, "hp": 4}
#: Weapon Stat-Lines: "Sword CQC 3 1 1 Melee / Pistol 12" 4 1 1 Assault" (RNG ST AK DAM).
SWORD = {"rng": 0, "st": 3, "ak": 1, "dam": 1, "type": "melee"}
PISTOL = {"rng": 12, "st": 4, "ak": 1, "dam": 1, "type": "assault"}


@dataclass(frozen=True)
class WeaponType:
    """A row of "Ranged Attacks & Movement": what the type may do stationary and after a
    Standard Move ("Automatic: Fire with the second AK stat / Fire with the first AK
    stat")."""

    key: str
    stationary: str
    after_standard: str


WEAPON_TYPES: dict[str, WeaponType] = {t.key: t for t in (
    WeaponType("melee", "melee only", "melee only"),
    WeaponType("assault", "fire normally", "fire normally"),
    WeaponType("heavy", "fire normally", "can't fire"),
    WeaponType("artillery", "fire normally", "can't fire"),
    WeaponType("automatic", "second AK", "first AK"),
    WeaponType("focus", "fire normally", "can't fire"),
)}
#: Types that cannot fire after a Standard Move (Heavy Duty lifts it for heavy weapons).
NO_FIRE_AFTER_MOVE: frozenset[str] = frozenset({"heavy", "artillery", "focus"})

#: Attack Special Rules (every one the book lists), with the seed's words.
WEAPON_RULES: dict[str, str] = {
    "anti_air": "Anti-Air Weapons do not suffer any penalties for firing at Units in Flight.",
    "blast": "All Units within X inches of that Model ... are attacked - the AK of each "
             "Attack being multiplied by the number of members within the radius.",
    "bomb": "Bombs require their user to be in Flight and to have Moved during their "
            "Movement Phase ... do not count towards a Vehicle's number of weapons fired.",
    "combined": "Combined Weapons have two stat-lines: one for Ranged Combat and one for "
                "Melee.",
    "dual_wield": "the controlling Player may re-roll all misses once.",
    "fast_strike": "the controlling Player may re-roll all misses once.",
    "twin_linked": "the controlling Player may re-roll all misses once.",
    "indirect_fire": "don't need to draw a Line of Sight ... if the target is not in their "
                     "Line of Sight, the weapon's Rolls to Hit receive a -1 modifier.",
    "instant_hit": "This weapon automatically passes every Roll to Hit.",
    "ignores_cover": "This weapon automatically passes every Roll for Cover.",
    "multi_use": "the controlling Player must pick one Stat-Line to use.",
    "power": "When attacking with a Power Weapon, the target subtracts X from their "
             "Defence Saves. This does not affect Shield Saves or Vehicle Armour Saves.",
    "tankbuster": "They gain +2 Strength when firing at a Vehicle.",
    "unwieldy": "Unwieldy Weapons give the users' Rolls to Hit a -1 modifier.",
}
REROLL_MISSES: frozenset[str] = frozenset({"dual_wield", "fast_strike", "twin_linked"})
TANKBUSTER_ST = 2
MAX_POWER = 4

#: Unit and model Special Rules (every one the book lists), with the seed's words.
UNIT_RULES: dict[str, str] = {
    "independent": "Independents can join friendly Units by entering Unit Cohesion.",
    "all_terrain": "do not suffer any negative effects from being in Difficult Terrain.",
    "anti_air": "do not suffer any penalties for firing at Units in Flight.",
    "camouflage": "add X to the Level of whatever Cover they're stood behind. If they're "
                  "in the Open, they are in Level X Cover.",
    "climb": "do not suffer any negative effects from being in Difficult or Dangerous "
             "Terrain. They may also move up vertical terrain ... every 3\" moved up "
             "vertical terrain is treated as 1\" of Movement.",
    "furious_charge": "they get +2 AK and +1 to Hit when Charging.",
    "heavy_duty": "Heavy Duty Models may fire Heavy Weapons even after a Standard Move.",
    "shielded": "Shielded Models always pass their Saving Throws if they roll X or higher.",
    "ambush": "may deploy anywhere on the battlefield, providing it's at least 12\" away "
              "from any enemy Units.",
    "escapist": "always pass when attempting to Escape a Melee Lock ... roll 2D6 (instead "
                "of 1D6) when running from Tank Shock.",
    "fearless": "always pass Panic Tests unless another Special Rule specifically negates "
                "it.",
    "immortal": "recover D3 HP on the Start Phase of their every Turn ... once per game "
                "... If the result is 4 or higher, they get back up with half their "
                "starting HP.",
    "terrifying": "all Units within 18\" of a Terrifying enemy Unit must roll a Panic Test "
                  "... -1 modifier to their PAN for every Terrifying Unit within 24\".",
    "teleport": "Teleporting Units ignore all terrain and obstacles when moving.",
    "vanguard": "they may Deploy anywhere on the board, providing they are at least 18\" "
                "away from the nearest enemy Unit.",
    # Faction rules the seed names in "Factions Summarised" (effects: the rulings).
    "in_the_name_of_freedom": "makes all their Units far less likely to flee (R-MOB-20).",
    "stand_together": "allow all the Army's Troops to sacrifice Movement to enhance their "
                      "Shooting, or sacrifice Shooting to improve their Melee (R-MOB-21).",
    "strength_in_numbers": "All their troops are cheap and bought in large numbers "
                           "(R-MOB-22).",
    "armoured_ace": "Commanders pilot an applicable Vehicle or Giant Infantry Unit as if "
                    "it were a Bodyguard choice (R-MOB-23).",
    "extremely_stupid": "can't even Take Cover.",
    "chain_of_command": "essentially gives the Hero Phase to the Unit they've joined "
                        "(R-MOB-23).",
    "overwatch": "make an inaccurate Ranged Attack while being Charged (R-MOB-24).",
    "cry_of_the_wolf": "skip their Turn to make a War Howl ... make enemy fire less "
                       "accurate (R-MOB-25).",
    "steel_skin": "grants them a +1 modifier to their Saving Throws.",
    "blitz": "treats them as Heroes for one Turn (R-MOB-26).",
    "hatred_echidnas": "gives them a distinct advantage against ... Echidnas (R-MOB-26).",
    "surprise_strike": "move and/or attack as a response to an enemy revealing their Blip "
                       "(R-MOB-23).",
}
#: Rules the engine does not play (their reason is in the rulings, R-MOB-23).
NOT_PLAYED_RULES: frozenset[str] = frozenset({
    "independent", "climb", "ambush", "vanguard", "armoured_ace", "chain_of_command",
    "surprise_strike", "teleport"})

#: Unit types and subtypes (Unit Types, Vehicle Subtypes) and what the engine reads of
#: each: the Rapid Move bonus ("Rapid Move: Up to Move Value +6", +12" if Super Speed
#: Infantry, Cavalry, or a Fast Vehicle"; Heavy: "+D6" (NOT +6")").
UNIT_TYPES: tuple[str, ...] = ("infantry", "vehicle")
SUBTYPES: tuple[str, ...] = ("cavalry", "giant", "super_speed", "artillery", "flying",
                             "airborne", "hover", "fast", "spg", "heavy", "open_topped",
                             "transport")
RAPID_BONUS = 6
RAPID_BONUS_FAST = 12
FAST_SUBTYPES: frozenset[str] = frozenset({"cavalry", "super_speed", "fast"})
#: "Cavalry ... Giant ... all have the Heavy Duty and All-Terrain Special Rules";
#: "Flying ... Hover Units have the Escapists Special Rule".
GRANTED_RULES: dict[str, tuple[str, ...]] = {
    "cavalry": ("heavy_duty", "all_terrain"), "super_speed": ("heavy_duty", "all_terrain"),
    "giant": ("heavy_duty", "all_terrain"), "flying": ("escapist",),
    "airborne": ("escapist",), "hover": ("escapist",),
}
#: "Cavalry may not Take Cover"; "Giant Units may not Take Cover"; "Vehicles may not Take
#: Cover"; Super Speed Infantry "may Take Cover".
NO_TAKE_COVER: frozenset[str] = frozenset({"cavalry", "giant"})
FLYING_HEIGHT = 6
FLYING_HIT_PENALTY = 1
FLYING_RAPID_HIT_PENALTY = 2

#: Cover Levels: "Soft Cover ... 2 / Hard Cover ... 3 / Buildings, Trenches, Forests 4 /
#: Target Unit is Dug In +1 / Some members of Target Unit are in the Open -1"; Trenches
#: "Level 5 Cover"; Dense Forests "Level 3 Cover"; Ruins "(usually) Level 2 Cover".
COVER_LEVELS: dict[str, int] = {"open": 0, "soft": 2, "hard": 3, "building": 4,
                                "forest": 3, "ruins": 2, "trench": 5, "dangerous": 0}
DUG_IN = 1
SOME_IN_OPEN = -1
DUG_IN_OPEN_LEVEL = 1
VEHICLE_COVER_PENALTY = 1


@dataclass(frozen=True)
class Terrain:
    """A kind of ground: its cover level and how it affects movement."""

    key: str
    cover: int
    difficult: bool = False
    dangerous: bool = False
    impassable: bool = False
    infantry_only: bool = False


#: Terrain Affecting Movement and Special Terrain.
TERRAIN: dict[str, Terrain] = {t.key: t for t in (
    Terrain("open", 0),
    Terrain("soft", COVER_LEVELS["soft"]),
    Terrain("hard", COVER_LEVELS["hard"]),
    Terrain("ruins", COVER_LEVELS["ruins"], difficult=True),
    Terrain("forest", COVER_LEVELS["forest"], difficult=True),
    Terrain("trench", COVER_LEVELS["trench"]),
    Terrain("building", COVER_LEVELS["building"], infantry_only=True),
    Terrain("dangerous", 0, dangerous=True),
    Terrain("impassable", 0, impassable=True),
)}
FOREST_SIGHT = 6
LADDER_REACH = 2
LADDER_COST = 3
RUIN_LEVEL_COST = 3
BUILDING_COST = 3
OBSTACLE_VAULT_HEIGHT = 1
CLIMB_RATIO = 3

#: Windows and Other Firing Points: "Whole Wall All / Wide 4 / Medium 3 / Narrow 2 /
#: Very Narrow 1"; Attacking Units in Buildings: "Whole Wall -or- Wide 2 / Medium -or-
#: Narrow 3 / Very Narrow 4 / cannot be seen through +1 / taller than half a human -1".
WINDOW_FIRERS: dict[str, int | None] = {"whole_wall": None, "wide": 4, "medium": 3,
                                        "narrow": 2, "very_narrow": 1}
WINDOW_COVER: dict[str, int] = {"whole_wall": 2, "wide": 2, "medium": 3, "narrow": 3,
                                "very_narrow": 4}
BUILDING_FIGHT_ATTACKERS = 6

#: Defence Saves: "Target's DEF is 1-2 HIGHER than attack's STR 3+ / EQUAL 4+ / 1-2 LOWER
#: 5+ / 3+ LOWER 6+" (rows: name, the least DEF - ST difference, the save); "If the
#: required Save becomes higher than 6 ... automatically fails".
DEFENCE_SAVES: tuple[tuple[str, int, int], ...] = (
    ("higher", 1, 3), ("equal", 0, 4), ("lower_1_2", -2, 5), ("lower_3_or_more", -99, 6))
#: Roll to Hit (Melee): "3+ HIGHER 2+ / 1-2 HIGHER 3+ / EQUAL 4+ / 1-2 LOWER 5+ / 3+
#: LOWER 6+" (rows: name, the least attacker - target CQC difference, the score).
MELEE_TO_HIT: tuple[tuple[str, int, int], ...] = (
    ("higher_3_or_more", 3, 2), ("higher_1_2", 1, 3), ("equal", 0, 4), ("lower_1_2", -2, 5),
    ("lower_3_or_more", -99, 6))


def _row(table: tuple[tuple[str, int, int], ...], diff: int) -> int:
    return next(score for _, least, score in table if diff >= least)


#: The two tables read once for every difference a battle meets (a pure function of it).
_SAVE_BY_DIFF: dict[int, int] = {}
_MELEE_BY_DIFF: dict[int, int] = {}


def defence_save_needed(defence: int, strength: int) -> int:
    diff = defence - strength
    found = _SAVE_BY_DIFF.get(diff)
    if found is None:
        found = _SAVE_BY_DIFF[diff] = _row(DEFENCE_SAVES, diff)
    return found


def melee_hit_needed(attacker_cqc: int, target_cqc: int) -> int:
    diff = attacker_cqc - target_cqc
    found = _MELEE_BY_DIFF.get(diff)
    if found is None:
        found = _MELEE_BY_DIFF[diff] = _row(MELEE_TO_HIT, diff)
    return found


#: Vehicle Shooting/Movement: "Remained Stationary All Weapons / Standard Move 1 Weapon /
#: Rapid Move No Weapons".
VEHICLE_WEAPONS: dict[str, int | None] = {"stationary": None, "standard": 1, "rapid": 0}
#: Hitting Vehicles (Melee): "Remained Stationary 1 / Standard Move 4 / Rapid Move 7".
VEHICLE_CQC: dict[str, int] = {"stationary": 1, "standard": 4, "rapid": 7}
#: Vehicle Armour Saves: "Front 4+ / Side 5+ / Rear 6+ / Melee assailant is a Giant -1";
#: Heavy "+1 modifier to their Side and Rear Armour Saves"; Open-Topped "-1".
ARMOUR_SAVE: dict[str, int] = {"front": 4, "side": 5, "rear": 6}
RAM_HIT = 5
EXPLODE_RADIUS = 6

#: Melee and escape: "within 1" of each other"; "attack any enemy Unit within 2""; "roll
#: 2D6 and add the Unit's Move Value. If the number rolled is 10 or higher, they may
#: escape"; "Pile In! ... may move 3" closer".
LOCK_RANGE = 1
MELEE_REACH = 2
ESCAPE_TARGET = 10
PILE_IN = 3
UNIT_GAP = 2
COHESION = 1
#: Panic: non-vehicles "move 4D6" away"; vehicles "1D6""; "Units suffer from a +1 PAN
#: modifier during any End Phase in which their Panicked status was removed".
PANIC_FLEE_DICE = 4
PANIC_VEHICLE_DICE = 1
TERRIFYING_TEST = 18
TERRIFYING_PENALTY = 24
#: "If a Unit loses a quarter of their total HP from a single volley of Ranged Attacks".
PANIC_FRACTION = 4
#: Second in Command: "If they roll 4 or higher"; Immortal: "If the result is 4 or higher".
SECOND_IN_COMMAND = 4
IMMORTAL_RISE = 4
#: Reserves: "within 12" of their designated table edge"; "at least 6" away"; "up to two
#: additional Units from Reserve per Turn" with the Commander.
#: Vanguard: "at least 18" away from the nearest enemy Unit".
VANGUARD_GAP = 18
#: Transport: "To get out of a Vehicle, the Unit is placed within 6" of it".
DISEMBARK = 6
RESERVE_EDGE = 12
RESERVE_GAP = 6
RESERVES_PER_TURN = 1
COMMANDER_EXTRA_RESERVES = 2
REVEAL_BLIP_RANGE = 36
#: Cry of the Wolf (R-MOB-25): a War Howl reaches 18" and costs the enemy 1 to Hit.
WAR_HOWL_RANGE = 18
WAR_HOWL_PENALTY = 1
#: The Rule of Quarters: "no more than 25% of your Army's total Points Value".
VEHICLE_SHARE = 0.25

#: Scenarios: deployment zones (inches from the corner or edge).
DEPLOYMENTS: dict[str, int] = {"encounter": 24, "lines_drawn": 12, "no_mans_land": 18}
#: Basic Missions: "D3 Mission Type 1 King of the Hill 2 Control Points 3 Struggle for
#: Survival".
MISSIONS: dict[int, str] = {1: "king_of_the_hill", 2: "control_points",
                            3: "struggle_for_survival"}
OBJECTIVE_RANGE = 2
CONTROL_POINTS = 5
CONTROL_POINT_SPACING = 24
KING_HOLD_VP = 1
KING_ALONE_VP = 1
KING_END_VP = 3

#: The factions the seed names ("Factions Summarised"), with their unique abilities.
FACTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "kingdom_of_acorn": ("Kingdom of Acorn", ("in_the_name_of_freedom", "stand_together")),
    "eggman_empire": ("Eggman Empire", ("strength_in_numbers", "armoured_ace")),
    "gun": ("GUN", ("overwatch", "chain_of_command")),
    "wolf_pack_nation": ("Wolf Pack Nation", ("cry_of_the_wolf",)),
    "dark_egg_legion": ("Dark Egg Legion", ("steel_skin",)),
    "felidae_kingdom": ("Felidae Kingdom", ()),
    "echidna_covenants": ("Echidna Covenants", ()),
    "dingo_regime": ("Dingo Regime", ("blitz", "hatred_echidnas")),
    "kingdom_of_mercia": ("Kingdom of Mercia", ()),
    "iron_dominion": ("Iron Dominion", ("surprise_strike",)),
}

#: Veterancy levels (R-MOB-8) from worst to best.
LADDER: tuple[str, ...] = ("regular", "veteran", "elite")

DEFAULT_POINTS_PER_SC = 2

#: The ruleset's campaign settings (`ruleset_options`), with their defaults and rulings.
MISSION_SETTINGS: tuple[str, ...] = ("struggle_for_survival", "king_of_the_hill",
                                     "control_points", "random", "last_standing")
#: R-MOB-2: the Rule of Quarters as the seed says it ("just a recommendation") or enforced.
QUARTERS_SETTINGS: tuple[str, ...] = ("recommendation", "enforced")
OPTION_SPECS: tuple[RulesetOption, ...] = (
    RulesetOption("mobius_points_per_sc", DEFAULT_POINTS_PER_SC, "Points per Stellar Credit",
                  "Army points one Stellar Credit buys.", minimum=1, maximum=1000,
                  ruling="R-MOB-1"),
    RulesetOption("mobius_points_limit", 1000, "Points limit per side",
                  "Points one side may field in a battle.", minimum=1, maximum=100000,
                  ruling="R-MOB-2"),
    RulesetOption("mobius_rule_of_quarters", "recommendation", "Rule of Quarters",
                  "recommendation (the seed: \"just a recommendation\"): a side fields any "
                  "share of vehicles; enforced: a side fields its vehicles, in the order "
                  "they were bought, only while they cost no more than a quarter of the "
                  "points it fields, and the others are held back.",
                  choices=QUARTERS_SETTINGS, ruling="R-MOB-2"),
    RulesetOption("mobius_rounds", 5, "Rounds", "Rounds before the mission is scored.",
                  minimum=1, maximum=20, ruling="R-MOB-5"),
    RulesetOption("mobius_mission", "struggle_for_survival", "Mission",
                  "The mission every battle plays (random: a D3 roll).",
                  choices=MISSION_SETTINGS, ruling="R-MOB-6"),
    RulesetOption("mobius_deploy_gap", 24, "Gap between deployment zones (inches)",
                  "Inches between the two deployment zones.", minimum=6, maximum=72,
                  ruling="R-MOB-3"),
    RulesetOption("mobius_veteran_after", 2, "Battles to become Veteran",
                  "Battles a unit survives to become Veteran.", minimum=0, maximum=100,
                  ruling="R-MOB-8"),
    RulesetOption("mobius_elite_after", 5, "Battles to become Elite",
                  "Battles a unit survives to become Elite.", minimum=0, maximum=100,
                  ruling="R-MOB-8"),
    RulesetOption("mobius_army_lists", [], "Imported army lists",
                  "Army lists the umpire imported.", ruling="R-MOB-9"),
)
OPTIONS: dict[str, object] = option_defaults(OPTION_SPECS)


def d3(face: int) -> int:
    return D3[face]


def d2(face: int) -> int:
    return D2[face]


def as_json() -> dict[str, object]:
    return {
        "ruleset": "mobius", "seed": SEED_FILE,
        "dice": "a bucket of D6 (D3 and D2 read from a D6); natural 6 hits, natural 1 misses",
        "d3": {str(k): v for k, v in D3.items()}, "d2": {str(k): v for k, v in D2.items()},
        "game_sizes": {k: {"min": lo, "max": hi} for k, (lo, hi) in GAME_SIZES.items()},
        "army_structure": {"min_hq": MIN_HQ, "max_hq": MAX_HQ, "min_troops": MIN_TROOPS,
                           "min_troops_from_2000": MIN_TROOPS_LARGE, "ranks": list(RANKS)},
        "stat_line": list(STAT_LINE), "vehicle_stat_line": list(VEHICLE_STAT_LINE),
        "average": AVERAGE, "sonic": SONIC, "car": CAR, "sword": SWORD, "pistol": PISTOL,
        "weapon_types": {k: {"stationary": t.stationary, "after_standard_move":
                             t.after_standard} for k, t in WEAPON_TYPES.items()},
        "weapon_rules": WEAPON_RULES, "unit_rules": UNIT_RULES,
        "unit_types": list(UNIT_TYPES), "subtypes": list(SUBTYPES),
        "cover_levels": COVER_LEVELS,
        "terrain": {k: {"cover": t.cover, "difficult": t.difficult, "dangerous": t.dangerous,
                        "impassable": t.impassable, "infantry_only": t.infantry_only}
                    for k, t in TERRAIN.items()},
        "defence_saves": {name: save for name, _, save in DEFENCE_SAVES},
        "melee_to_hit": {name: score for name, _, score in MELEE_TO_HIT},
        "vehicle_weapons": VEHICLE_WEAPONS, "vehicle_cqc": VEHICLE_CQC,
        "armour_saves": ARMOUR_SAVE, "window_firers": WINDOW_FIRERS,
        "window_cover": WINDOW_COVER, "deployments": DEPLOYMENTS,
        "missions": {str(k): v for k, v in MISSIONS.items()},
        "factions": {k: {"name": n, "abilities": list(a)} for k, (n, a) in FACTIONS.items()},
        "options": dict(OPTIONS),
    }
