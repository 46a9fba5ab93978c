"""Every table of Unlimit3d 8 (docs/seed-unlimit3d-8.txt), kept once, as data.

Pure Python: no Django import here or anywhere in `campaign.rules`, so the battle
engine can read the tables without a configured project. Every other module reads
buildings, resources, pilot classes, XP thresholds, weapons, templates and vehicles
(what the strategic layer builds, sells and hires) from this module; nothing copies
them. The battle's own tables (the roll, the move table, shields, ranges, action
difficulties, missiles, force fields) are Unlimit3d 8's tactical game's, in
`battles/rulesets/unlimit3d8/tables.py`.

Where the seed cannot be read literally, the reading chosen is a ruling listed in
docs/RULINGS.md ("Tables", ids R-TAB-n) and cited next to the value below.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final


class RuleViolation(ValueError):
    """A request that the rule tables forbid (bad template mix, unknown key, ...)."""


# ---------------------------------------------------------------------------
# Campaign constants ("Beginning the game", building texts, unit card)
# ---------------------------------------------------------------------------

GRID_SIZE: Final = 16  # "The Territorial Map is divided into 16x16 squares."
STARTING_CREDITS: Final = 1000  # "1000 Stellar Credits (SC) ... awarded to each player"
STARTING_BUILDINGS: Final = ("station", "command_center", "power_plant", "radar", "landing_pad")
POWER_PLANT_OUTPUT: Final = 50  # "Each power plant produces 50 points of energy"
ENHANCED_GENERATORS_MULTIPLIER: Final = 2  # "produce twice as much power as normal"
CONTAINER_UNITS: Final = 10  # "Each container may contain up to ten units of one single resource"
WAREHOUSE_CONTAINERS: Final = 8  # "A warehouse can store up to eight containers"
# "A container can contain one armor, or five light weapons, or three medium weapons,
# or one heavy weapon."
CONTAINER_ITEM_CAPACITY: Final = {"armor": 1, "L": 5, "M": 3, "H": 1}
CONTAINERS_PER_PAD: Final = 5  # "You can ship five containers each commercial turn for each pad"
CONVERSION_PER_TURN: Final = 20  # foundry/refinery: "convert 20 units ... every activity turn"
# Factory: "For each 100 Credits ... 1 unit of common gas, 2 units of minerals,
# 2 units of common metal and 1 unit of precious metal" (refined resources).
FACTORY_RECIPE_PER_100: Final = {
    "common_gas": 1, "minerals": 2, "common_metal": 2, "precious_metal": 1,
}
FACTORY_CREDITS_STEP: Final = 100
FACTORY_LIMIT: Final = 500  # "up to 500 Credits worth of material each strategic turn"
FACTORY_LIMIT_EXTENDED: Final = 800  # Extension of production
MISSILE_COST: Final = 100  # "They cost 100 SC each"
SILO_CAPACITY: Final = 5  # "houses up to five tactical missiles"
SURVIVAL_XP: Final = 1  # "After surviving a battle, a character is awarded one XP"
BONUS_XP: Final = 1  # "gains one extra XP if"
MAX_LEVEL: Final = 8
MAX_TEMPLATES: Final = 3  # "up to three different templates ..., only one ... passive"
MAX_PASSIVE_TEMPLATES: Final = 1


# ---------------------------------------------------------------------------
# Buildings
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class UpgradeSpec:
    """A building upgrade. Optional numeric fields give its effect to the services."""

    key: str
    name: str
    cost: int
    effect: str
    energy_after: int | None = None  # new energy / turn of the building
    production_limit_after: int | None = None  # factory credits / turn
    power_multiplier: int | None = None  # enhanced generators (whole territory)
    extra_hit_points: int | None = None  # ablative armor
    extra_armor_value: int | None = None  # armor of the ablative layer
    will_bonus: int | None = None  # tactic control
    one_per_territory: bool = False


@dataclass(frozen=True)
class BuildingSpec:
    key: str
    name: str
    cost: int
    energy: int  # energy consumed per turn when active; the seed's "None" is 0
    armor: int
    hit_points: int
    requires: str | None  # building key that must stand on the same territory
    upgrades: dict[str, UpgradeSpec] = field(default_factory=dict)
    description: str = ""


def _upgrades(*specs: UpgradeSpec) -> dict[str, UpgradeSpec]:
    return {u.key: u for u in specs}


_TURRET_MOUNT = UpgradeSpec(
    "turret", "Turret", 100, "A turret mount: the building fights as the turret described "
    "under Turret (fitted with any one kind of weapon)."
)

# Seed order (the copy lost some headings; matched per /work/shared/seeds/README.md).
BUILDINGS: Final[dict[str, BuildingSpec]] = {b.key: b for b in [
    BuildingSpec("bunker", "Bunker", 50, 0, 4, 30, "command_center", _upgrades(_TURRET_MOUNT),
                 "Shelters up to five operatives in exo armor."),
    BuildingSpec("command_center", "Command center", 200, 20, 3, 25, "station", _upgrades(
        UpgradeSpec("tactic_control", "Tactic Control", 50, "Grants the highest level "
                    "character a +1 to their Will skill for the duration of the battle.",
                    will_bonus=1),
        _TURRET_MOUNT,
    ), "When active, lets units move from an adjacent territory into an attacked one."),
    BuildingSpec("concrete_barricade", "Concrete barricade", 20, 0, 2, 30, "station", _upgrades(
        UpgradeSpec("ablative_armor", "Ablative armor", 20, "An additional 10 Hit Points "
                    "with armor 5; once depleted the barricade returns to its own armor.",
                    extra_hit_points=10, extra_armor_value=5),
    ), "Ranged attacks at a unit behind it take two additional range increments."),
    BuildingSpec("factory", "Factory", 500, 30, 2, 30, "station", _upgrades(
        UpgradeSpec("power_efficiency", "Power efficiency", 100, "The energy needed to make "
                    "the factory work drops from 30 to 15.", energy_after=15),
        UpgradeSpec("extension_of_production", "Extension of production", 50, "The factory "
                    "can produce up to 800 Credits worth of material each strategic turn.",
                    production_limit_after=FACTORY_LIMIT_EXTENDED),
    ), "Assembles products from refined resources, up to 500 SC a turn."),
    BuildingSpec("force_field", "Force Field", 100, 10, 1, 15, "power_plant", _upgrades(),
                 "Protects a 4\" x 4\" area: +5 armor, no projectiles enter."),
    # R-TAB-6: the foundry's upgrade text was copied from the factory ("from 30 to 15");
    # the table says 15. Like the factory (30->15) and refinery (20->10) it halves: 7.
    BuildingSpec("foundry", "Foundry", 200, 15, 1, 15, "mine_shaft", _upgrades(
        UpgradeSpec("power_efficiency", "Power efficiency", 100, "The energy needed to make "
                    "the foundry work is halved, from 15 to 7 (ruling R-TAB-6; the seed "
                    "prints 'from 30 to 15').", energy_after=7),
    ), "Refines raw minerals and metals, 20 units a turn."),
    BuildingSpec("laboratory", "Laboratory", 300, 60, 0, 10, "station", _upgrades(),
                 "One research point a turn, or the level of a scientist present."),
    BuildingSpec("landing_pad", "Landing pad", 100, 10, 1, 15, "radar", _upgrades(),
                 "Ships five containers each commercial turn."),
    BuildingSpec("mine_shaft", "Mine Shaft", 200, 15, 1, 15, "station", _upgrades(),
                 "Produces the territory's resource by its exploration roll."),
    BuildingSpec("missile_silo", "Missile silo", 200, 5, 1, 15, "radar", _upgrades(),
                 "Houses up to five tactical missiles (100 SC each, one per activity phase)."),
    BuildingSpec("power_plant", "Power plant", 100, 0, 1, 15, "station", _upgrades(
        UpgradeSpec("enhanced_generators", "Enhanced generators", 200, "All the power plants "
                    "on the territory produce twice as much power. Only one per territory; "
                    "lost if its power plant is destroyed.", power_multiplier=2,
                    one_per_territory=True),
        UpgradeSpec("extended_power_grid", "Extended power grid", 100, "The power plant may "
                    "give energy to other territories where a power plant with an extended "
                    "power grid has been built."),
    ), "Produces 50 energy for the other buildings of its territory."),
    BuildingSpec("radar", "Radar", 50, 0, 5, 10, "station", _upgrades(),
                 "Lets the landing pads and missile silos of its territory operate."),
    BuildingSpec("refinery", "Refinery", 300, 20, 1, 15, "mine_shaft", _upgrades(
        UpgradeSpec("power_efficiency", "Power efficiency", 100, "The energy needed to make "
                    "the refinery work drops from 20 to 10.", energy_after=10),
    ), "Refines raw water and gases, 20 units a turn."),
    BuildingSpec("station", "Station", 20, 0, 0, 10, None, _upgrades(),
                 "Keeps the territory yours and lets your units travel through it."),
    BuildingSpec("turret", "Turret", 200, 20, 5, 20, "command_center", _upgrades(),
                 "Automated defense fitted with any one kind of weapon."),
    BuildingSpec("warehouse", "Warehouse", 10, 0, 1, 20, "station", _upgrades(),
                 "Stores up to eight containers of ten units."),
]}
BUILDING_KEYS: Final = tuple(BUILDINGS)

# ---------------------------------------------------------------------------
# Exploration: resources, mine yield, purity, instability, discoveries
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ResourceSpec:
    key: str
    name: str
    low: int  # exploration score range (3d8 sum), inclusive
    high: int
    raw_value: int  # SC per unit shipped raw (R-TAB-8)
    refined_value: int  # SC per unit shipped refined
    refined_with: tuple[str, ...]  # building keys


RESOURCES: Final = (
    ResourceSpec("water", "Water", 3, 8, 20, 10, ("refinery",)),
    ResourceSpec("precious_gas", "Precious gas", 9, 10, 15, 30, ("refinery",)),
    ResourceSpec("common_gas", "Common Gas", 11, 12, 10, 20, ("refinery",)),
    ResourceSpec("minerals", "Minerals", 13, 14, 10, 15, ("foundry",)),
    ResourceSpec("common_metal", "Common metal", 15, 16, 10, 20, ("foundry",)),
    ResourceSpec("precious_metal", "Precious metal", 17, 18, 15, 30, ("foundry",)),
    ResourceSpec("unique_material", "Unique Material", 19, 24, 20, 50, ("foundry", "refinery")),
)
RESOURCES_BY_KEY: Final[dict[str, ResourceSpec]] = {r.key: r for r in RESOURCES}


def resource_for_score(total: int) -> ResourceSpec:
    """The resource found by an exploration roll whose three dice sum to `total` (3..24)."""
    for spec in RESOURCES:
        if spec.low <= total <= spec.high:
            return spec
    raise RuleViolation(f"An exploration score must be 3 to 24 (three d8), not {total}.")


def resource(key: str) -> ResourceSpec:
    """The resource with this key; RuleViolation if unknown."""
    try:
        return RESOURCES_BY_KEY[key]
    except KeyError:
        raise RuleViolation(f"Unknown resource {key!r}.") from None


# "The active die states how many resources units are extracted by each mine shaft
# each Strategic turn": 1 -> 1, 2-3 -> 2, 4-5 -> 3, 6-7 -> 4, 8 -> 5.
MINE_YIELD: Final[dict[int, int]] = {1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5}
PURE_PASSIVE_MIN: Final = 7  # "Passive die : on 7+, the resources are exceptionally pure"
PURE_PRICE_PERCENT: Final = 150  # "150% (rounded down) of their raw price"
UNSTABLE_NEMESIS_MAX: Final = 2  # "2- : the ground is unstable"
UNSTABLE_FAIL_FACE: Final = 1  # "Roll a d8 for each mineshaft each turn : on a 1, ... no resource"
DISCOVERY_NEMESIS_MIN: Final = 8  # "8+ : you find something unexpected, roll a d8"


@dataclass(frozen=True)
class DiscoverySpec:
    key: str
    name: str
    low: int  # d8 face range, inclusive
    high: int
    effect: str
    credits_die_multiplier: int | None = None  # worth 1d8 x this many SC
    sell_value: int | None = None
    lab_multiplier: int | None = None
    all_laboratories: bool = False
    unique_per_campaign: bool = False
    duplicate_becomes: str | None = None


DISCOVERIES: Final = (
    DiscoverySpec("shipwreck", "Shipwreck", 1, 4, "A shipwreck, where you can salvage hardware "
                  "worth 1d8x10 SC.", credits_die_multiplier=10),
    DiscoverySpec("xenotech", "Xenotechnologic elements", 5, 6, "Xenotechnologic elements, "
                  "worth d8x20 SC.", credits_die_multiplier=20),
    DiscoverySpec("artifact", "Xenotechnologic artifact", 7, 7, "Sell it for 200 credits or "
                  "house it in a laboratory, which then produces twice as many research "
                  "points a turn.", sell_value=200, lab_multiplier=2),
    DiscoverySpec("xeno_craft", "Xeno craft", 8, 8, "All your laboratories produce twice as "
                  "many research points. Only one craft per campaign; a second becomes a "
                  "simple artifact.", lab_multiplier=2, all_laboratories=True,
                  unique_per_campaign=True, duplicate_becomes="artifact"),
)
DISCOVERIES_BY_KEY: Final[dict[str, DiscoverySpec]] = {d.key: d for d in DISCOVERIES}


def discovery_for_face(face: int) -> DiscoverySpec:
    """What a d8 rolled after an 8+ nemesis exploration die finds."""
    for spec in DISCOVERIES:
        if spec.low <= face <= spec.high:
            return spec
    raise RuleViolation(f"A discovery roll is one d8 (1 to 8), not {face}.")


# ---------------------------------------------------------------------------
# Operatives: pilot classes, XP
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SkillLine:
    level: int
    pilot: int
    fight: int
    tech: int
    will: int
    init: int


@dataclass(frozen=True)
class PilotClassSpec:
    key: str
    name: str
    hiring_cost: int
    levels: tuple[SkillLine, ...]  # levels 1..8, in order
    bonus_xp: tuple[str, ...]  # machine keys of the "gains one extra XP if" conditions


def _lines(rows: Iterable[tuple[int, int, int, int, int]]) -> tuple[SkillLine, ...]:
    return tuple(SkillLine(i, *row) for i, row in enumerate(rows, start=1))


# The level-8 Bandit row as printed: "8 17 13 1 1 5".
BANDIT_L8_AS_PRINTED: Final = SkillLine(8, 17, 13, 1, 1, 5)
# R-TAB-1: what the game uses by default. Tech and Will of the Bandit rise by one every
# second level (8 8 9 9 10 10 11 ...) exactly like the Soldier's, whose level 8 is 11 11;
# "1 1" is "11 11" with a digit lost on each.
BANDIT_L8_CORRECTED: Final = SkillLine(8, 17, 13, 11, 11, 5)
BANDIT_LEVEL8_ROW_CHOICES: Final = ("corrected", "as_printed")

PILOT_CLASSES: Final[dict[str, PilotClassSpec]] = {p.key: p for p in [
    PilotClassSpec("bandit", "Bandit", 10, _lines([
        (10, 8, 8, 8, 1), (11, 9, 8, 8, 1), (12, 10, 9, 9, 1), (13, 10, 9, 9, 3),
        (14, 11, 10, 10, 3), (15, 12, 10, 10, 4), (16, 12, 11, 11, 4), (17, 13, 11, 11, 5),
    ]), ("steal_cargo", "destroy_unit")),
    PilotClassSpec("scientist", "Scientist", 10, _lines([
        (8, 8, 10, 9, 0), (8, 8, 11, 10, 0), (9, 9, 12, 11, 1), (9, 9, 13, 11, 1),
        (10, 10, 14, 12, 1), (10, 10, 15, 13, 2), (11, 11, 16, 13, 2), (12, 12, 17, 14, 2),
    ]), ("piracy_success", "xenotech_discovery")),
    PilotClassSpec("soldier", "Soldier", 5, _lines([
        (10, 8, 8, 8, 0), (11, 9, 8, 8, 1), (12, 10, 9, 9, 1), (13, 11, 9, 9, 2),
        (14, 12, 10, 10, 1), (15, 13, 10, 10, 3), (16, 14, 11, 11, 3), (17, 15, 11, 11, 4),
    ]), ("destroy_unit_once_per_battle", "destroy_building_once_per_battle")),
    PilotClassSpec("worker", "Worker", 5, _lines([
        (9, 9, 9, 9, 0), (9, 9, 10, 9, 1), (10, 10, 11, 10, 1), (11, 11, 11, 11, 1),
        (11, 11, 12, 11, 2), (12, 12, 13, 12, 2), (12, 12, 13, 12, 3), (13, 13, 14, 13, 3),
    ]), ("repair_other_unit", "pure_deposit_discovery")),
]}

# Human wording of the bonus-XP keys (the seed's sentences, shortened).
BONUS_XP_TEXT: Final[dict[str, str]] = {
    "steal_cargo": "Steals a cargo of any kind.",
    "destroy_unit": "Destroys one enemy unit.",
    "piracy_success": "Succeeds in a piracy attempt.",
    "xenotech_discovery": "Is part of the exploration of a territory where xenotech "
                          "material is discovered.",
    "destroy_unit_once_per_battle": "Destroyed an enemy unit during a battle (once per battle).",
    "destroy_building_once_per_battle": "Destroyed an enemy building during a battle "
                                        "(once per battle).",
    "repair_other_unit": "Repairs another unit.",
    "pure_deposit_discovery": "Is part of a team that discovers an exceptionally pure deposit.",
}


def battle_kind(bonus_key: str) -> str:
    """The battle event kind of a pilot-class bonus key
    ("destroy_unit_once_per_battle" -> "destroy_unit")."""
    return bonus_key.removesuffix("_once_per_battle")


def bonus_kinds(class_key: str) -> frozenset[str]:
    """Every XP event kind this class earns a bonus for, battles' and discoveries' (from
    the seed's lists)."""
    return frozenset(battle_kind(k) for k in pilot_class(class_key).bonus_xp)


def battle_bonus_kinds(class_key: str) -> tuple[str, ...]:
    """The bonus-XP conditions of a class that a battle can earn, in the seed's order
    (the others are discoveries: "..._discovery")."""
    return tuple(battle_kind(k) for k in pilot_class(class_key).bonus_xp
                 if not k.endswith("_discovery"))


def pilot_class(key: str) -> PilotClassSpec:
    """The pilot class with this key ("bandit", "scientist", "soldier", "worker")."""
    try:
        return PILOT_CLASSES[key.lower()]
    except KeyError:
        raise RuleViolation(f"Unknown operative class {key!r}.") from None


def skill_line(class_key: str, level: int, *, bandit_level8_row: str = "corrected") -> SkillLine:
    """The skill line of an operative of this class and level (1..8).

    `bandit_level8_row` is the campaign option of ruling R-TAB-1: "corrected" (default,
    17 13 11 11 5) or "as_printed" (17 13 1 1 5).
    """
    spec = pilot_class(class_key)
    if not 1 <= level <= MAX_LEVEL:
        raise RuleViolation(f"An operative's level is 1 to {MAX_LEVEL}, not {level}.")
    if bandit_level8_row not in BANDIT_LEVEL8_ROW_CHOICES:
        raise RuleViolation(f"bandit_level8_row must be one of {BANDIT_LEVEL8_ROW_CHOICES}.")
    if spec.key == "bandit" and level == MAX_LEVEL and bandit_level8_row == "as_printed":
        return BANDIT_L8_AS_PRINTED
    return spec.levels[level - 1]


# "Level 1 2 3 4 5 6 7 8 / XP 5 10 15 20 25 30 35 40", as printed.
XP_LEVELS: Final = ((1, 5), (2, 10), (3, 15), (4, 20), (5, 25), (6, 30), (7, 35), (8, 40))
XP_TABLE_READINGS: Final = ("to_next_level", "to_reach_level")


def level_for_xp(xp: int, *, reading: str = "to_next_level") -> int:
    """The level of an operative holding `xp` experience points (1..8).

    R-TAB-2: the XP printed under a level is what an operative of that level must hold
    to leave it ("to_next_level", default): 0-4 XP level 1, 5 XP level 2, 10 XP level 3,
    ..., 35 XP level 8 (the 40 under level 8 has nothing left to unlock). The literal
    alternative "to_reach_level" reads the XP as the total needed to *be* that level,
    with a floor of level 1: 0-9 level 1, 10 level 2, ..., 40 level 8.
    """
    if xp < 0:
        raise RuleViolation(f"Experience cannot be negative ({xp}).")
    if reading == "to_next_level":
        reached = [level + 1 for level, need in XP_LEVELS if xp >= need]
    elif reading == "to_reach_level":
        reached = [level for level, need in XP_LEVELS if xp >= need]
    else:
        raise RuleViolation(f"xp reading must be one of {XP_TABLE_READINGS}.")
    return min(MAX_LEVEL, max([1, *reached]))


def xp_for_level(level: int, *, reading: str = "to_next_level") -> int:
    """The fewest XP an operative needs to be `level` (inverse of level_for_xp)."""
    if not 1 <= level <= MAX_LEVEL:
        raise RuleViolation(f"An operative's level is 1 to {MAX_LEVEL}, not {level}.")
    if level == 1:
        return 0
    if reading == "to_next_level":
        return XP_LEVELS[level - 2][1]
    if reading == "to_reach_level":
        return XP_LEVELS[level - 1][1]
    raise RuleViolation(f"xp reading must be one of {XP_TABLE_READINGS}.")


# ---------------------------------------------------------------------------
# Weapons and equipment
# ---------------------------------------------------------------------------

WEAPON_TYPES: Final = ("solid", "energy", "projectile", "contact", "equipment")
SPECIAL_KEYS: Final = (
    "spread", "no_line_of_sight", "blast", "weight_lifting", "warping", "piracy", "shield",
    "designator",
)


@dataclass(frozen=True)
class WeaponSpec:
    key: str
    name: str
    type: str  # one of WEAPON_TYPES
    base_damage: int | None  # "A+10" -> 10 (active die + 10); "-"/"Special" -> None
    misfire: int | None  # "1-" -> 1 (misfires when the nemesis die is 1 or less); "-" -> None
    range_increment: int | None  # inches of difficulty per complete 4"
    base_cooldown: int | None
    special: tuple[str, ...]
    cost: int
    blast_radius: int | None = None  # inches
    damage_special: bool = False  # the seed prints "Special" (effect described elsewhere)
    fixed_size: str | None = None  # only the designator: "L"


WEAPONS: Final[dict[str, WeaponSpec]] = {w.key: w for w in [
    WeaponSpec("cannon", "Cannon", "solid", 10, 1, 3, 8, (), 16),
    WeaponSpec("machine_gun", "Machine Gun", "solid", 7, 1, 4, 6, (), 8),
    WeaponSpec("shot_gun", "Shot Gun", "solid", 8, 1, 5, 5, (), 8),
    WeaponSpec("beamer", "Beamer", "energy", 14, None, 5, 6, (), 20),
    WeaponSpec("buster", "Buster", "energy", 5, None, 6, 8, (), 8),
    WeaponSpec("blaster", "Blaster", "energy", 6, None, 6, 5, ("spread",), 8),
    WeaponSpec("grenade_launcher", "Grenade Launcher", "projectile", 8, 2, 3, 6,
               ("no_line_of_sight", "blast"), 10, blast_radius=4),
    WeaponSpec("missile_launcher", "Missile Launcher", "projectile", 10, 1, 2, 8,
               ("no_line_of_sight",), 20),
    WeaponSpec("missile_pod", "Missile Pod", "projectile", 14, 4, 5, 8,
               ("no_line_of_sight", "blast"), 24, blast_radius=4),
    WeaponSpec("grappling_arms", "Grappling arms", "contact", 10, None, None, 5,
               ("weight_lifting",), 8),
    WeaponSpec("road_header", "Road header", "contact", 16, 1, None, 7, (), 12),
    WeaponSpec("warp_drive", "Warp Drive", "equipment", None, None, 5, 10, ("warping",), 40,
               damage_special=True),
    WeaponSpec("thunder_wire", "Thunder wire", "equipment", None, None, None, 8, ("piracy",), 20,
               damage_special=True),
    WeaponSpec("shield", "Shield", "equipment", None, None, None, None, ("shield",), 10),
    # "Designator (cost : 20) (L) : This isn't a weapon as such"
    WeaponSpec("designator", "Designator", "equipment", None, None, None, None,
               ("designator",), 20, fixed_size="L"),
]}

SPECIAL_RULES_TEXT: Final[dict[str, str]] = {
    "spread": "Deals 1 less point of damage for each 4 inches of distance. At pointblank "
              "range, on 7+ on the Nemesis die, its base damage is doubled.",
    "no_line_of_sight": "The firer need not see its target, but an ally must. Does not "
                        "mishap; deviates 1/4 of the target distance in a random direction.",
    "blast": "Every unit and building within the blast radius of the point of impact "
             "sustains the same attack as the original target.",
    "weight_lifting": "Medium or heavy grappling arms can lift a container and carry it.",
    "warping": "Tech test, difficulty 8 per 4\" (2\" if Light, 6\" if Heavy); the unit "
               "crosses the distance and deals 5 x mass damage in a radius equal to the "
               "range increments taken.",
    "piracy": "Take control: a unit gets active die + 5 CDT; a turret on a Tech roll of 20; "
              "a laboratory's technology on a Tech roll equal to its research points.",
    "shield": "Ablative armor: extra hit points, armor and close-combat defense until the "
              "extra hit points are gone.",
    "designator": "Designates a target (within 12\") for a missile from a missile silo.",
}


SIZES: Final = ("L", "M", "H")
# "Each weapon adds 1 to the weight for light weapons, 2 for normal weapons and 3 for heavy"
WEAPON_WEIGHT: Final[dict[str, int]] = {"L": 1, "M": 2, "H": 3}
# Weapon slots: "H" takes H, M or L; "M" takes M or L; "L" takes L.
SLOT_ACCEPTS: Final[dict[str, tuple[str, ...]]] = {
    "H": ("H", "M", "L"), "M": ("M", "L"), "L": ("L",),
}


def weapon(key: str) -> WeaponSpec:
    """The weapon or equipment with this key; RuleViolation if unknown."""
    try:
        return WEAPONS[key]
    except KeyError:
        raise RuleViolation(f"Unknown weapon {key!r}.") from None


# ---------------------------------------------------------------------------
# Templates
# ---------------------------------------------------------------------------

ALL_WEAPON_TYPES: Final = WEAPON_TYPES
SOLID_OR_EXPLOSIVE: Final = ("solid", "projectile")  # R-TAB-9: "Explosive" = projectile type


@dataclass(frozen=True)
class TemplateSpec:
    """A weapon template. `effect` is the seed's text; the other fields structure it.

    Damage and cooldown percentages apply to the weapon's printed base damage / base
    cooldown; unspecified rounding is down (R-TAB-10).
    """

    key: str
    name: str
    effect: str
    cost_percent: int | None  # of the weapon's base cost
    cost_flat: int | None  # SC added
    applies_to: tuple[str, ...]  # weapon types
    passive: bool  # a "Passive N+" effect; at most one per weapon
    excludes: tuple[str, ...]
    group: str = "general"  # general / solid_explosive / energy / explosive (seed headings)
    size: str | None = None  # heavy -> "H", light -> "L"
    only_weapons: tuple[str, ...] = ()  # roaring: ("machine_gun",)
    requires_special: tuple[str, ...] = ()  # tactical warheads: ("blast",)
    damage_percent: int | None = None
    damage_rounding: str = "down"
    damage_flat: int | None = None
    damage_set: int | None = None  # haywire: damage 0
    cooldown_delta: int | None = None
    cooldown_percent: int | None = None
    range_increment_delta: int | None = None
    mishap_delta: int | None = None  # added to the misfire threshold ("-" counts as 0)
    passive_threshold_delta: int | None = None
    passive_min: int | None = None  # "Passive 7+": passive die of 7 or more
    ignore_armor: str | None = None  # "half" or "all"
    blast_radius_delta: int | None = None
    cdt_to_target: int | None = None  # on a hit
    passive_cdt_to_target: int | None = None
    passive_damage_flat: int | None = None
    passive_damage_multiplier: int | None = None
    grants_special: tuple[str, ...] = ()
    counts_as: str | None = None  # explosive warheads: "energy"
    enemy_mishap_delta: int | None = None  # haywire
    enemy_command_difficulty: int | None = None  # haywire
    corrosive_range_increment: int | None = None
    corrosive_max_move: int | None = None

    @property
    def cost_text(self) -> str:
        """The cost column as printed: '+50%', '-50%', '+10'."""
        if self.cost_percent is not None:
            return f"{self.cost_percent:+d}%"
        return f"{self.cost_flat or 0:+d}"


TEMPLATES: Final[dict[str, TemplateSpec]] = {t.key: t for t in [
    # General Templates
    TemplateSpec("heavy", "Heavy", "Dmg +25% (rounded down), CD+1, passive effect threshold -1",
                 50, None, ALL_WEAPON_TYPES, False, ("light",), size="H", damage_percent=25,
                 damage_rounding="down", cooldown_delta=1, passive_threshold_delta=-1),
    TemplateSpec("light", "Light", "Dmg -25% (rounded up), CD-1, passive effect threshold +1",
                 -50, None, ALL_WEAPON_TYPES, False, ("heavy",), size="L", damage_percent=-25,
                 damage_rounding="up", cooldown_delta=-1, passive_threshold_delta=1),
    TemplateSpec("accurate", "Accurate", "Range increment -1", 50, None, ALL_WEAPON_TYPES,
                 False, ("low_quality",), range_increment_delta=-1),
    TemplateSpec("low_quality", "Low quality", "Range increment +1, Mishap Threshold +2", -50,
                 None, ALL_WEAPON_TYPES, False, ("accurate",), range_increment_delta=1,
                 mishap_delta=2),
    # Solid / Explosive
    TemplateSpec("concussion", "Concussion", "Passive 7+ : double damages", None, 10,
                 SOLID_OR_EXPLOSIVE, True, (), group="solid_explosive", passive_min=7,
                 passive_damage_multiplier=2),
    TemplateSpec("corrosive", "Corrosive", "Passive 7+ : target's weapons increase their range "
                 "increment by 1 and reduce their max movement by 2", None, 5,
                 SOLID_OR_EXPLOSIVE, True, (), group="solid_explosive", passive_min=7,
                 corrosive_range_increment=1, corrosive_max_move=-2),
    TemplateSpec("explosive_warheads", "Explosive warheads", "Dmg +2, Mishap Threshold +2, "
                 "count as energy", None, 20, SOLID_OR_EXPLOSIVE, False, (),
                 group="solid_explosive", damage_flat=2, mishap_delta=2, counts_as="energy"),
    TemplateSpec("hardpoint", "Hardpoint", "Ignore half armor", None, 5, SOLID_OR_EXPLOSIVE,
                 False, (), group="solid_explosive", ignore_armor="half"),
    TemplateSpec("haywire", "Haywire", "Dmg 0, target fires all weapon with Mishap Threshold "
                 "+2, and all Command tests have +5 difficulty", None, 5, SOLID_OR_EXPLOSIVE,
                 False, (), group="solid_explosive", damage_set=0, enemy_mishap_delta=2,
                 enemy_command_difficulty=5),
    TemplateSpec("roaring", "Roaring", "Machine gun only, obtains spread quality, Damages+2, "
                 "Mishap +1", None, 5, SOLID_OR_EXPLOSIVE, False, (), group="solid_explosive",
                 only_weapons=("machine_gun",), grants_special=("spread",), damage_flat=2,
                 mishap_delta=1),
    TemplateSpec("rof_up", "RoF up", "Cooldown -50%, Range Increment +1, Mishap Threshold +2",
                 None, 5, SOLID_OR_EXPLOSIVE, False, (), group="solid_explosive",
                 cooldown_percent=-50, range_increment_delta=1, mishap_delta=2),
    # Energy Only
    TemplateSpec("chain_reaction", "Chain Reaction", "Passive 7+ : closest Unit sustains the "
                 "same attack as the original target", None, 10, ("energy",), True, (),
                 group="energy", passive_min=7),
    TemplateSpec("combustion", "Combustion", "Passive 6+ : target loses one point of damage "
                 "each turn until it takes a 2CDT action", None, 10, ("energy",), True, (),
                 group="energy", passive_min=6),
    TemplateSpec("emp", "EMP", "Damage-1, adds 3CDT to target", None, 10, ("energy",), False,
                 (), group="energy", damage_flat=-1, cdt_to_target=3),
    TemplateSpec("high_frequency", "High Frequency", "Ignore armor, Mishap Threshold +2", None,
                 5, ("energy",), False, (), group="energy", ignore_armor="all",
                 mishap_delta=2),
    TemplateSpec("overload", "Overload", "damage + 25%, cooldown +25%", None, 5, ("energy",),
                 False, (), group="energy", damage_percent=25, cooldown_percent=25),
    TemplateSpec("plasma", "Plasma", "Passive 6+ : Damage +4, Target CDT +2. Mishap Threshold "
                 "+2", None, 10, ("energy",), True, (), group="energy", passive_min=6,
                 passive_damage_flat=4, passive_cdt_to_target=2, mishap_delta=2),
    # Explosive Only
    TemplateSpec("tactical_warheads", "Tactical Warheads", "Adds 4\" to blast radius", None, 10,
                 ("projectile",), False, (), group="explosive", requires_special=("blast",),
                 blast_radius_delta=4),
]}


def template(key: str) -> TemplateSpec:
    """The template with this key; RuleViolation if unknown."""
    try:
        return TEMPLATES[key]
    except KeyError:
        raise RuleViolation(f"Unknown template {key!r}.") from None


def validate_templates(weapon_key: str, template_keys: Iterable[str]) -> None:
    """Refuse a weapon/template combination the rules forbid (RuleViolation).

    "A weapon can have up to three different templates added to its stat line, only
    one of which can induce passive effects." Plus each template's own restriction:
    its weapon types, Roaring on the machine gun only, Low quality never with
    Accurate, Heavy never with Light (R-TAB-11), Tactical warheads only on a weapon
    with a blast (R-TAB-12), no template on the designator (R-TAB-3).
    """
    spec = weapon(weapon_key)
    keys = list(template_keys)
    specs = [template(k) for k in keys]
    if len(set(keys)) != len(keys):
        raise RuleViolation(f"A template can be added only once to a weapon: {keys}.")
    if len(keys) > MAX_TEMPLATES:
        raise RuleViolation(f"A weapon can have up to {MAX_TEMPLATES} templates, not {len(keys)}.")
    if keys and spec.fixed_size is not None:
        raise RuleViolation(f"The {spec.name} is not a weapon as such and takes no templates.")
    for t in specs:
        if spec.type not in t.applies_to:
            allowed = "/".join(t.applies_to)
            raise RuleViolation(f"{t.name} applies to {allowed} weapons; the {spec.name} is "
                                f"{spec.type}.")
        if t.only_weapons and spec.key not in t.only_weapons:
            names = ", ".join(WEAPONS[w].name for w in t.only_weapons)
            raise RuleViolation(f"{t.name} can only be added to: {names}.")
        if t.requires_special and not set(t.requires_special) & set(spec.special):
            raise RuleViolation(f"{t.name} needs a weapon with a blast radius; the "
                                f"{spec.name} has none.")
        for other in t.excludes:
            if other in keys:
                raise RuleViolation(f"{t.name} cannot be combined with {TEMPLATES[other].name}.")
    passives = [t.name for t in specs if t.passive]
    if len(passives) > MAX_PASSIVE_TEMPLATES:
        raise RuleViolation(f"Only one template may have a passive effect: {', '.join(passives)}.")


WEAPON_MIN_PRICE: Final = 1  # R-TAB-13


def weapon_price(weapon_key: str, template_keys: Iterable[str] = ()) -> int:
    """Price in SC of a weapon with its templates (validated first).

    R-TAB-13: the percentages are summed and taken of the weapon's base cost (rounded
    down), then the flat costs are added; the price is never below 1 SC.
    """
    keys = list(template_keys)
    validate_templates(weapon_key, keys)
    base = WEAPONS[weapon_key].cost
    percent = sum(TEMPLATES[k].cost_percent or 0 for k in keys)
    flat = sum(TEMPLATES[k].cost_flat or 0 for k in keys)
    price = base + (base * percent) // 100 + flat
    return max(WEAPON_MIN_PRICE, price)


def weapon_size(weapon_key: str, templates: Iterable[str] = ()) -> str:
    """Size class ("L", "M", "H") of a weapon with these templates.

    R-TAB-3: the seed prints no size for the base weapons; they are Medium, the Heavy
    template makes them Heavy and the Light template Light. The designator is Light.
    """
    spec = weapon(weapon_key)
    if spec.fixed_size is not None:
        return spec.fixed_size
    keys = set(templates)
    if "heavy" in keys:
        return "H"
    if "light" in keys:
        return "L"
    return "M"


# ---------------------------------------------------------------------------
# Vehicles
# ---------------------------------------------------------------------------

VEHICLE_CATEGORIES: Final = ("assault", "utility", "exo_armor")


@dataclass(frozen=True)
class VehicleSpec:
    key: str
    name: str
    category: str  # assault / utility / exo_armor
    slots: tuple[str, ...]  # "1M, 1H" -> ("M", "H"); "2M" -> ("M", "M"); None -> ()
    size: int
    weight: int  # unloaded weight class; weapons add WEAPON_WEIGHT
    armor: int
    hit_points: int
    cost: int
    extension: bool = False  # may take the 25 SC extension (R-TAB-14)


VEHICLES: Final[dict[str, VehicleSpec]] = {v.key: v for v in [
    VehicleSpec("arakne", "Arakne", "assault", ("M", "H"), 3, 3, 2, 10, 50),
    VehicleSpec("arbeiter", "Arbeiter", "assault", ("H",), 6, 7, 1, 25, 50),
    VehicleSpec("centaur", "Centaur", "assault", ("M", "H"), 5, 4, 2, 20, 120),
    VehicleSpec("golem", "Golem", "assault", ("H",), 7, 7, 5, 25, 150),
    VehicleSpec("heavy_charger", "Heavy Charger", "assault", ("H",), 4, 8, 4, 15, 120),
    VehicleSpec("hellound", "Hellound", "assault", ("M", "M"), 4, 4, 3, 15, 100,
                extension=True),
    VehicleSpec("kanker", "Kanker", "assault", ("M",), 4, 7, 4, 20, 100),
    VehicleSpec("lycaon", "Lycaon", "assault", ("M", "M"), 4, 3, 2, 15, 100),
    VehicleSpec("minotaur", "Minotaur", "assault", ("M", "H"), 3, 4, 3, 20, 130),
    VehicleSpec("paladin", "Paladin", "assault", ("M", "H"), 5, 5, 4, 20, 170),
    VehicleSpec("pillbug", "Pillbug", "assault", ("H",), 2, 3, 4, 20, 130),
    VehicleSpec("lorry", "Lorry", "utility", (), 2, 3, 0, 10, 20),
    VehicleSpec("epaulard", "Epaulard", "exo_armor", ("L", "L"), 0, 1, 1, 10, 30),
    VehicleSpec("shark", "Shark", "exo_armor", ("L",), 0, 1, 1, 10, 20),
    VehicleSpec("spectre", "Spectre", "exo_armor", ("L",), 0, 1, 2, 12, 30),
    VehicleSpec("stakanov", "Stakanov", "exo_armor", ("M",), 1, 2, 1, 15, 20),
]}

# "Extension : for 25 credits, the Blood Hound can see one of its M slots turned into a
# H slot. It will gain 1 weight." R-TAB-14: the Blood Hound is the Hellound.
EXTENSION_COST: Final = 25
EXTENSION_WEIGHT: Final = 1
EXTENSION_VEHICLES: Final = tuple(k for k, v in VEHICLES.items() if v.extension)
# Exo armor: "count as having a pair of light grappling arms. This does not count in
# the calculation of their weight ... they can always take an additional light shield."
EXO_BUILTIN_WEAPON: Final = "grappling_arms"
EXO_EXTRA_LIGHT_SHIELD: Final = True


def vehicle(key: str) -> VehicleSpec:
    """The vehicle with this key; the seed's name ("Golem") is accepted too."""
    norm = key.strip().lower().replace(" ", "_").replace("-", "_")
    try:
        return VEHICLES[norm]
    except KeyError:
        raise RuleViolation(f"Unknown vehicle {key!r}.") from None


# ---------------------------------------------------------------------------
# Per-campaign options this module reads (declared in campaign/options.py)
# ---------------------------------------------------------------------------

RULE_OPTIONS: Final[dict[str, tuple[str, tuple[str, ...], str]]] = {
    # key: (default, choices, ruling)
    "bandit_level8_row": ("corrected", BANDIT_LEVEL8_ROW_CHOICES, "R-TAB-1"),
    "xp_table_reading": ("to_next_level", XP_TABLE_READINGS, "R-TAB-2"),
}

__all__ = [
    "ALL_WEAPON_TYPES",
    "BANDIT_L8_AS_PRINTED",
    "BANDIT_L8_CORRECTED",
    "BANDIT_LEVEL8_ROW_CHOICES",
    "BONUS_XP",
    "BONUS_XP_TEXT",
    "BUILDINGS",
    "BUILDING_KEYS",
    "CONTAINERS_PER_PAD",
    "CONTAINER_ITEM_CAPACITY",
    "CONTAINER_UNITS",
    "CONVERSION_PER_TURN",
    "DISCOVERIES",
    "DISCOVERIES_BY_KEY",
    "DISCOVERY_NEMESIS_MIN",
    "ENHANCED_GENERATORS_MULTIPLIER",
    "EXO_BUILTIN_WEAPON",
    "EXO_EXTRA_LIGHT_SHIELD",
    "EXTENSION_COST",
    "EXTENSION_VEHICLES",
    "EXTENSION_WEIGHT",
    "FACTORY_CREDITS_STEP",
    "FACTORY_LIMIT",
    "FACTORY_LIMIT_EXTENDED",
    "FACTORY_RECIPE_PER_100",
    "GRID_SIZE",
    "MAX_LEVEL",
    "MAX_PASSIVE_TEMPLATES",
    "MAX_TEMPLATES",
    "MINE_YIELD",
    "MISSILE_COST",
    "PILOT_CLASSES",
    "POWER_PLANT_OUTPUT",
    "PURE_PASSIVE_MIN",
    "PURE_PRICE_PERCENT",
    "RESOURCES",
    "RESOURCES_BY_KEY",
    "RULE_OPTIONS",
    "SILO_CAPACITY",
    "SIZES",
    "SLOT_ACCEPTS",
    "SOLID_OR_EXPLOSIVE",
    "SPECIAL_KEYS",
    "SPECIAL_RULES_TEXT",
    "STARTING_BUILDINGS",
    "STARTING_CREDITS",
    "SURVIVAL_XP",
    "TEMPLATES",
    "UNSTABLE_FAIL_FACE",
    "UNSTABLE_NEMESIS_MAX",
    "VEHICLES",
    "VEHICLE_CATEGORIES",
    "WAREHOUSE_CONTAINERS",
    "WEAPONS",
    "WEAPON_MIN_PRICE",
    "WEAPON_TYPES",
    "WEAPON_WEIGHT",
    "XP_LEVELS",
    "XP_TABLE_READINGS",
    "BuildingSpec",
    "DiscoverySpec",
    "PilotClassSpec",
    "ResourceSpec",
    "RuleViolation",
    "SkillLine",
    "TemplateSpec",
    "UpgradeSpec",
    "VehicleSpec",
    "WeaponSpec",
    "battle_bonus_kinds",
    "battle_kind",
    "bonus_kinds",
    "discovery_for_face",
    "level_for_xp",
    "pilot_class",
    "resource",
    "resource_for_score",
    "skill_line",
    "template",
    "validate_templates",
    "vehicle",
    "weapon",
    "weapon_price",
    "weapon_size",
    "xp_for_level",
]
