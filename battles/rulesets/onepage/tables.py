"""The rule tables of the one-page sci-fi skirmish rules (seed 001), written once: the
engine, the probes, the catalogue and `GET /api/rules/?ruleset=onepage` all read them."""

from __future__ import annotations

from dataclasses import dataclass

from battles.rulesets.base import RulesetOption, option_defaults

SEED_FILE = "001_e42978e90e231d5b.txt"


@dataclass(frozen=True)
class Training:
    """Unit Training/Experience: "Level Activation Expertise Suppress"."""

    key: str
    name: str
    activation: int
    expertise: int
    suppress: int


#: "Green 5+ 6+ 1 / Seasoned 4+ 5+ 2 / Veteran 3+ 4+ 3 / Elite 2+ 4+ 4"
TRAINING: dict[str, Training] = {t.key: t for t in (
    Training("green", "Green", 5, 6, 1),
    Training("seasoned", "Seasoned", 4, 5, 2),
    Training("veteran", "Veteran", 3, 4, 3),
    Training("elite", "Elite", 2, 4, 4),
)}
LADDER: tuple[str, ...] = tuple(TRAINING)


@dataclass(frozen=True)
class UnitType:
    """Movement: "Unit Type Movement Terrain Effects"."""

    key: str
    name: str
    move_cm: int
    vehicle: bool


UNIT_TYPES: dict[str, UnitType] = {t.key: t for t in (
    UnitType("infantry", "Infantry", 6, False),
    UnitType("walker", "Walker", 9, True),
    UnitType("ground", "Ground", 12, True),
    UnitType("hover", "Hover", 18, True),
)}


@dataclass(frozen=True)
class Weapon:
    """A row of the Small Arms or Heavy Weapons table: range (cm) and fire points.
    `close_fp` within `close_cm` (the assault rifle's 2 FP at 12 cm or less); `single_shot`
    for rockets and missiles ("Most rockets/missiles are single shot weapons")."""

    key: str
    name: str
    range_cm: int
    fire_points: int
    small_arms: bool
    single_shot: bool = False
    close_cm: int = 0
    close_fp: int = 0


WEAPONS: dict[str, Weapon] = {w.key: w for w in (
    # Small Arms: "Pistol 8cm 1FP ... Grenade Launcher 16cm 3FP";
    # "*Assault Rifles get 2FP at 12cm or less".
    Weapon("pistol", "Pistol", 8, 1, True),
    Weapon("rifle", "Rifle", 24, 1, True),
    Weapon("assault_rifle", "Assault Rifle", 24, 1, True, close_cm=12, close_fp=2),
    Weapon("sniper_rifle", "Sniper Rifle", 32, 2, True),
    Weapon("smg", "SMG", 16, 3, True),
    Weapon("lmg", "LMG", 32, 3, True),
    Weapon("grenade_launcher", "Grenade Launcher", 16, 3, True),
    # Heavy Weapons: "RPG 24cm 3FP ... Heavy Cannon 48cm 6FP";
    # "**Most rockets/missiles are single shot weapons".
    Weapon("rpg", "RPG", 24, 3, False),
    Weapon("light_at_gun", "Light AT Gun", 32, 3, False),
    Weapon("light_mortar", "Light Mortar", 40, 3, False),
    Weapon("rocket", "Rocket", 40, 6, False, single_shot=True),
    Weapon("missile", "Missile", 60, 6, False, single_shot=True),
    Weapon("light_cannon", "Light Cannon", 32, 4, False),
    Weapon("heavy_cannon", "Heavy Cannon", 48, 6, False),
)}

#: Personal Armour Save: "Light 6+ Medium 5+ Heavy 4+ Power Armour 3+".
PERSONAL_ARMOUR: dict[str, int] = {"light": 6, "medium": 5, "heavy": 4, "power": 3}
#: Vehicle Armour Save: "None 6+ Light 5+ Medium 4+ Heavy 3+ Very Heavy 2+".
VEHICLE_ARMOUR: dict[str, int] = {"none": 6, "light": 5, "medium": 4, "heavy": 3,
                                  "very_heavy": 2}

#: The vehicle damage table, effects from least to worst ("If the same result is rolled
#: twice in a single turn, take the next highest effect").
DAMAGE_EFFECTS: tuple[str, ...] = ("stunned", "weapon_destroyed", "immobilised", "destroyed")
#: "1-2 Crew Stunned, -2 to next activation. 3-4 Weapon Destroyed (owner chooses).
#: 5 Vehicle immobilised for the rest of game. 6 Vehicle destroyed."
DAMAGE_TABLE: dict[int, str] = {1: "stunned", 2: "stunned", 3: "weapon_destroyed",
                                4: "weapon_destroyed", 5: "immobilised", 6: "destroyed"}
STUNNED_PENALTY = 2

#: Cover: "Soft +1, Moderate +2, Hard +3"; "No cover modifier can make a Unit's expertise
#: worse than 6+".
COVER: dict[str, int] = {"open": 0, "soft": 1, "moderate": 2, "hard": 3}
WORST_NEEDED = 6
COHERENCY_CM = 3
CONCEALED_BEYOND_CM = 3
SHARED_COVER_CM = 6
#: Ground vehicles: "Only Heavy (4+ save) vehicles may move through Moderate Cover"
#: (R-OP-4: a save of 4+ or better).
GROUND_MODERATE_SAVE = 4

#: The ruleset's campaign settings (`ruleset_options`), with their defaults and rulings.
OPTION_SPECS: tuple[RulesetOption, ...] = (
    RulesetOption("onepage_seasoned_after", 1, "Battles to become Seasoned",
                  "Battles a unit survives to climb to Seasoned.", minimum=0, maximum=100,
                  ruling="R-OP-2"),
    RulesetOption("onepage_veteran_after", 3, "Battles to become Veteran",
                  "Battles a unit survives to climb to Veteran.", minimum=0, maximum=100,
                  ruling="R-OP-2"),
    RulesetOption("onepage_elite_after", 6, "Battles to become Elite",
                  "Battles a unit survives to climb to Elite.", minimum=0, maximum=100,
                  ruling="R-OP-2"),
    RulesetOption("onepage_max_turns", 6, "Turns", "Turns before the defender holds the "
                  "field.", minimum=1, maximum=50, ruling="R-OP-6"),
    RulesetOption("onepage_deploy_gap_cm", 36, "Gap between deployment lines (cm)",
                  "Centimetres between the two deployment lines.", minimum=1, maximum=500,
                  ruling="R-OP-5"),
    RulesetOption("onepage_suppress_first", True, "Infantry suppressed first",
                  "Infantry is suppressed before it takes casualties.", ruling="R-OP-8"),
    RulesetOption("onepage_passenger_hits", "shared", "Hits on a transport's passengers",
                  "Each hit a transport fails to save strikes its passengers too, who save "
                  "it with their own armour (the seed: 'If a vehicle makes its save, "
                  "passengers inside do not have to'), or passengers are only hurt when "
                  "they bail out.", choices=("shared", "bail_out_only"), ruling="R-OP-14"),
    RulesetOption("onepage_bail_out_saves", True, "Armour saves when bailing out",
                  "Each figure bailing out of a destroyed transport takes one hit and may "
                  "save it with its armour; off: each hit is a casualty.", ruling="R-OP-14"),
)
OPTIONS: dict[str, object] = option_defaults(OPTION_SPECS)


def training(key: str) -> Training:
    try:
        return TRAINING[str(key).lower()]
    except KeyError:
        raise KeyError(f"unknown training level {key!r} (one of {', '.join(TRAINING)})") \
            from None


def weapon(key: str) -> Weapon:
    found = WEAPONS.get(key)
    if found is not None:
        return found
    try:
        return WEAPONS[str(key).lower()]
    except KeyError:
        raise KeyError(f"unknown weapon {key!r}") from None


def as_json() -> dict[str, object]:
    return {
        "ruleset": "onepage", "seed": SEED_FILE,
        "dice": "d6: an unmodified 6 succeeds, an unmodified 1 fails",
        "training": [{"key": t.key, "name": t.name, "activation": t.activation,
                      "expertise": t.expertise, "suppress": t.suppress}
                     for t in TRAINING.values()],
        "unit_types": [{"key": u.key, "name": u.name, "move_cm": u.move_cm,
                        "vehicle": u.vehicle} for u in UNIT_TYPES.values()],
        "weapons": [{"key": w.key, "name": w.name, "range_cm": w.range_cm,
                     "fire_points": w.fire_points, "small_arms": w.small_arms,
                     "single_shot": w.single_shot, "close_cm": w.close_cm,
                     "close_fire_points": w.close_fp} for w in WEAPONS.values()],
        "personal_armour": PERSONAL_ARMOUR, "vehicle_armour": VEHICLE_ARMOUR,
        "vehicle_damage": {str(k): v for k, v in DAMAGE_TABLE.items()},
        "cover": COVER, "options": dict(OPTIONS),
    }
