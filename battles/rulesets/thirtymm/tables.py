"""The rule tables of 30 Minute Missions: Wargame, core rules (seed 002), written once:
the rules, the engine, the datasheet validation, the catalogue and
`GET /api/rules/?ruleset=thirtymm` all read them.

The copy lost the datasheet-creation page, the movement-options chart (Fig 3), the
structure-defense chart and the mission briefings; what stands in for them is a ruling
(docs/rulings/thirtymm.md, R-30-n) and, where umpires could disagree, a setting in
`OPTIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.rulesets.base import RulesetOption, option_defaults

SEED_FILE = "002_e3eda63acf7c836d.txt"


@dataclass(frozen=True)
class Classification:
    """"Total Defense Classification Base Movement Base Action Points"."""

    low: int
    high: int | None
    number: int
    movement: int
    ap_bonus: int  # Base Action Points: 1d8 + this


CLASSIFICATIONS: tuple[Classification, ...] = (
    Classification(0, 75, 1, 5, 2),
    Classification(76, 150, 2, 4, 2),
    Classification(151, 225, 3, 3, 3),
    Classification(226, 300, 4, 2, 4),
    Classification(301, None, 5, 1, 4),
)

#: "Any Action Points that do not get used are stored ... This is capped at 16 AP".
AP_CAP = 16
#: Freeze: "Upon its next activation, its max AP storage capacity is limited to 8."
FROZEN_AP_CAP = 8
#: "All Command Actions require 2 Action Points".
COMMAND_ACTION_AP = 2
#: Basic attacks: "1 AP Cost, 1 Base Damage, 1 Range".
BASIC_ATTACK = {"ap": 1, "damage": 1, "range": 1}
#: Grappling: "at the cost of 2 AP, the Unit makes an Assault Roll"; rerolls cost 2 more.
GRAPPLE_AP = 2
#: Held: "the enemy gains -5 to Accuracy Rolls".
HELD_ACCURACY = -5
#: All arm limbs destroyed: "The "Break Grapple" Command Action costs 4 Actions Points."
BREAK_GRAPPLE_NO_ARMS_AP = 4
#: Critical hits are rolls of 8, critical misses rolls of 1.
CRITICAL_HIT = 8
CRITICAL_MISS = 1
#: Mounted weapons: "Roll 1d8. If 6+, will explode when destroyed".
MOUNTED_EXPLODES_ON = 6
#: System Error: "On a 5 or higher, the Unit continues ... the pass requirement is lowered
#: by 1" on each later activation.
REBOOT_ON = 5
#: Abyss: "the Unit takes 10 damage to the torso per turn"; Euphotic and Abyss:
#: "Standard Movement is reduced by 2".
ABYSS_DAMAGE = 10
WATER_MOVEMENT_PENALTY = 2
#: Terrestrial vehicles: "Main Cannon has an AP reduction of 3 (to a minimum of 4)".
MAIN_CANNON_REDUCTION = 3
MAIN_CANNON_MIN_AP = 4

SECTION_KINDS: tuple[str, ...] = ("head", "ai_cockpit", "torso", "cockpit", "arm", "tail",
                                  "leg", "aquatic_drive", "aerial_drive", "terra_drive")
#: The section that holds the pilot: "When the Torso Durability Points or Cockpit
#: Durability Points of a Unit are reduced to 0, the Unit is considered destroyed."
MAIN_SECTIONS: frozenset[str] = frozenset({"torso", "cockpit", "ai_cockpit"})
#: R-30-6: a mech's limbs (for "Inoperative") are its arms, tails and legs.
LIMBS: frozenset[str] = frozenset({"arm", "tail", "leg"})
DRIVES: frozenset[str] = frozenset({"aquatic_drive", "aerial_drive", "terra_drive"})
UNIT_TYPES: tuple[str, ...] = ("mech", "terrestrial", "aerial", "aquatic")
VEHICLES: frozenset[str] = frozenset({"terrestrial", "aerial", "aquatic"})
SYSTEMS: tuple[str, ...] = ("thrusters", "hover", "flight", "cruise", "swim", "jump",
                            "rotors")
WEAPON_MOUNTS: tuple[str, ...] = ("equipped", "mounted", "carried")

#: Elevation: "+3 Exclusively used by Flight Types ... -2 The lowest point".
ELEVATIONS: tuple[int, ...] = (-2, -1, 0, 1, 2, 3)
MAX_GROUND_ELEVATION = 2
#: "Units traveling to higher elevations use 2 Movement Points ... lower elevations only
#: use a single Movement Point."
CLIMB_COST = 2

#: High Ground Bonus: "1 +1 to Assault Rolls; 2-3 +1 to Accuracy Rolls; 4-5 +2 to
#: Accuracy Rolls".
HIGH_GROUND: tuple[tuple[int, int, str, int], ...] = (
    (1, 1, "assault", 1),
    (2, 3, "accuracy", 1),
    (4, 5, "accuracy", 2),
)


@dataclass(frozen=True)
class HexColour:
    key: str
    represents: str
    extra_move: int = 0          # Tan, White: "+1 Movement point per hex"
    move_factor: int = 1         # Black: "Movement Point cost ... is doubled"
    accuracy_in_los: int = 0     # Green, Black: "-1 ... for every ... hex within LoS"
    conceal: bool = False        # Green: "If a Unit is on the hex, they gain Conceal"
    status: str | None = None    # Red: Overheat; Light Blue: Euphotic; Dark Blue: Abyss
    water: bool = False


HEX_COLOURS: dict[str, HexColour] = {c.key: c for c in (
    HexColour("grey", "Road or any generic flat land"),
    HexColour("red", "Lava", status="overheat"),
    HexColour("tan", "Desert Area", extra_move=1),
    HexColour("white", "Snowy Area", extra_move=1),
    HexColour("green", "Wooded Area", accuracy_in_los=-1, conceal=True),
    HexColour("black", "Ruined Structures", move_factor=2, accuracy_in_los=-1),
    HexColour("light_blue", "Shallow Ocean", status="euphotic", water=True),
    HexColour("dark_blue", "Deep Ocean", status="abyss", water=True),
)}

STATUS_EFFECTS: dict[str, str] = {
    "conceal": "+1 to Evasion Rolls against ranged attacks.",
    "overheat": "Put into the kneeling position; ends its turn.",
    "freeze": "Ends its turn; next activation its AP storage is limited to 8.",
    "euphotic": "Standard Movement reduced by 2.",
    "abyss": "Standard Movement reduced by 2; 10 damage to the torso per turn.",
    "stuck": "Cannot move; Inoperable until removed.",
    "hold": "Held by another unit; may only Break Hold.",
    "system_error": "Ends its turn; reboots on 5+ (one less each later activation).",
    "airborne": "Elevation +1/+2/+3 (Hover/Fly).",
    "submerged": "Elevation -1/-2 (Cruise/Swim).",
}

#: "Engagement Size Deployment Cost Limit".
ENGAGEMENTS: dict[str, int] = {"scouting": 600, "skirmish": 1200, "operation": 1800,
                               "battle": 2500}

#: The mission tables, in the seed's order (one per engagement size, R-30-11): d8 ranges.
MISSIONS: dict[str, tuple[tuple[int, int, str], ...]] = {
    "scouting": ((1, 4, "Reconnaissance"), (5, 8, "Show of Force")),
    "skirmish": ((1, 2, "Winds of War"), (3, 4, "Endless Pursuit"),
                 (5, 6, "Counterattack!"), (7, 8, "The Call of Darkness")),
    "operation": ((1, 2, "The Order to Destroy"), (3, 4, "Emissary of Darkness!"),
                  (5, 6, "Burning Sandstorm"), (7, 8, "Protect the Relic")),
    "battle": ((1, 4, "Protect the Base"), (5, 8, "Marshall Law")),
}


@dataclass(frozen=True)
class Briefing:
    """R-30-12: the briefings are not in the seed. Each mission's primary objective is
    either holding objective markers ("hold": 1 VP per marker a side controls at the end
    of each round) or destroying the enemy ("destroy": 7 VP times the share of the enemy's
    deployment cost destroyed or inoperable). `markers` lists marker hexes (column, row)."""

    kind: str
    markers: tuple[tuple[int, int], ...] = ()


BRIEFINGS: dict[str, Briefing] = {
    "Reconnaissance": Briefing("hold", ((7, 2), (7, 6), (7, 10))),
    "Show of Force": Briefing("destroy"),
    "Winds of War": Briefing("hold", ((5, 6), (10, 6))),
    "Endless Pursuit": Briefing("destroy"),
    "Counterattack!": Briefing("hold", ((4, 6),)),
    "The Call of Darkness": Briefing("destroy"),
    "The Order to Destroy": Briefing("destroy"),
    "Emissary of Darkness!": Briefing("hold", ((7, 6),)),
    "Burning Sandstorm": Briefing("hold", ((6, 4), (9, 8))),
    "Protect the Relic": Briefing("hold", ((3, 6),)),
    "Protect the Base": Briefing("hold", ((2, 6),)),
    "Marshall Law": Briefing("hold", ((5, 3), (7, 6), (10, 9))),
}

#: "Each player can score a maximum of 7 points from primary objectives and a maximum of 7
#: points from secondary objectives".
MAX_PRIMARY = 7
MAX_SECONDARY = 7
#: R-30-13: secondary objectives: 2 VP per enemy unit destroyed or inoperable, and 1 for
#: the first one ("first blood").
SECONDARY_PER_UNIT = 2
FIRST_BLOOD = 1

#: "rectangular hex-grid battlefields which measure 16x13 hexagonal tiles, or 202 total
#: hexes, with the flat side facing each player": 13 rows of 16 and 15 hexes in turn
#: (7 x 16 + 6 x 15 = 202, R-30-10).
ROWS = 13
LONG_ROW = 16
SHORT_ROW = 15
#: "Standard Deployment Areas are the first 3 hexes from the short side table edge".
DEPLOYMENT_DEPTH = 3
#: R-30-10: a river of shallow ocean runs along the middle row.
RIVER_ROW = 6

#: R-30-15: building (structure) Defense: 10 per hex per level it stands on (0 counts 1):
#: the seed's example "occupying 1 hex and is in +1 elevation ... a total Defense of 20".
STRUCTURE_DEFENSE_PER_LEVEL = 10

#: R-30-9: a deviation roll (the link is lost): 1-6 the neighbour in that direction
#: (clockwise from the attacker's facing), 7-8 the intended hex.
DEVIATION_DIRECTIONS = 6

#: R-30-16: the pilot's rank ladder; each rank above Rookie is one Stat Reduction
#: Modifier (accuracy, then assault, then evasion, one point lower, to a minimum of 2).
RANKS: tuple[str, ...] = ("rookie", "regular", "veteran", "ace")
PILOTS: tuple[str, ...] = (*RANKS, "ai")
MIN_STAT = 2
SRM_ORDER: tuple[str, ...] = ("accuracy", "assault", "evasion")

#: The ruleset's campaign settings (`ruleset_options`), with their defaults and rulings.
OPTION_SPECS: tuple[RulesetOption, ...] = (
    RulesetOption("thirtymm_cost_per_sc", 5, "Deployment cost per Stellar Credit",
                  "Deployment cost one Stellar Credit buys.", minimum=1, maximum=1000,
                  ruling="R-30-2"),
    RulesetOption("thirtymm_max_rounds", 6, "Rounds", "The mission's turn limit.",
                  minimum=1, maximum=50, ruling="R-30-12"),
    RulesetOption("thirtymm_regular_after", 2, "Battles to rank Regular",
                  "Battles a pilot survives to rank Regular.", minimum=0, maximum=100,
                  ruling="R-30-16"),
    RulesetOption("thirtymm_veteran_after", 5, "Battles to rank Veteran",
                  "Battles a pilot survives to rank Veteran.", minimum=0, maximum=100,
                  ruling="R-30-16"),
    RulesetOption("thirtymm_ace_after", 9, "Battles to rank Ace",
                  "Battles a pilot survives to rank Ace.", minimum=0, maximum=100,
                  ruling="R-30-16"),
    RulesetOption("thirtymm_engagement", "auto", "Engagement size",
                  "The engagement size of every battle (auto: from the forces fielded).",
                  choices=("auto", *ENGAGEMENTS), ruling="R-30-11"),
    RulesetOption("thirtymm_half_legs", "reduction_rounded_up", "Half the legs lost",
                  "\"Reduce standard movement points by 50% (rounded up)\": take half the "
                  "base movement away, rounded up, as the seed reads (5 -> 2); or leave half, "
                  "rounded up (5 -> 3).",
                  choices=("reduction_rounded_up", "remainder_rounded_up"), ruling="R-30-7"),
    RulesetOption("thirtymm_datasheets", [], "Imported datasheets",
                  "Datasheets the umpire imported.", ruling="R-30-1"),
)
OPTIONS: dict[str, object] = option_defaults(OPTION_SPECS)


def classification(total_defense: int) -> Classification:
    if total_defense < 0:
        raise ValueError("total defense cannot be negative")
    for c in CLASSIFICATIONS:
        if c.high is None or total_defense <= c.high:
            return c
    raise AssertionError("unreachable")  # pragma: no cover


def row_length(row: int) -> int:
    return LONG_ROW if row % 2 == 0 else SHORT_ROW


def as_json() -> dict[str, object]:
    return {
        "ruleset": "thirtymm", "seed": SEED_FILE,
        "dice": "d8: roll equal to or higher than the modified stat; 8 is a critical hit, "
                "1 a critical miss",
        "classifications": [{"total_defense": [c.low, c.high], "class": c.number,
                             "base_movement": c.movement,
                             "base_action_points": f"1d8 + {c.ap_bonus}"}
                            for c in CLASSIFICATIONS],
        "ap_cap": AP_CAP, "command_action_ap": COMMAND_ACTION_AP,
        "basic_attack": BASIC_ATTACK, "grapple_ap": GRAPPLE_AP,
        "section_kinds": list(SECTION_KINDS), "unit_types": list(UNIT_TYPES),
        "systems": list(SYSTEMS), "elevations": list(ELEVATIONS),
        "high_ground": [{"difference": [lo, hi], "roll": roll, "bonus": bonus}
                        for lo, hi, roll, bonus in HIGH_GROUND],
        "hex_colours": {k: {"represents": c.represents, "extra_move": c.extra_move,
                            "move_factor": c.move_factor,
                            "accuracy_in_los": c.accuracy_in_los, "conceal": c.conceal,
                            "status": c.status, "water": c.water}
                        for k, c in HEX_COLOURS.items()},
        "status_effects": STATUS_EFFECTS, "engagements": ENGAGEMENTS,
        "missions": {size: [{"d8": [lo, hi], "mission": name} for lo, hi, name in rows]
                     for size, rows in MISSIONS.items()},
        "briefings": {name: {"kind": b.kind, "markers": [list(m) for m in b.markers]}
                      for name, b in BRIEFINGS.items()},
        "victory_points": {"primary": MAX_PRIMARY, "secondary": MAX_SECONDARY},
        "board": {"rows": ROWS, "row_lengths": [LONG_ROW, SHORT_ROW],
                  "hexes": sum(row_length(r) for r in range(ROWS)),
                  "deployment_depth": DEPLOYMENT_DEPTH},
        "ranks": list(RANKS), "options": dict(OPTIONS),
    }
