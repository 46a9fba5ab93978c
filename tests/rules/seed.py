"""A small, independent parser of the seed text (docs/seed-unlimit3d-8.txt).

The tests compare what this parser reads from the seed, row by row, with the
dataclasses of `campaign.rules`. It deliberately shares no code with the tables.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

SEED_PATH = Path(__file__).resolve().parents[2] / "docs" / "seed-unlimit3d-8.txt"

# /work/shared/seeds/README.md: the building sections, in seed order.
BUILDING_ORDER = (
    "bunker", "command_center", "concrete_barricade", "factory", "force_field", "foundry",
    "laboratory", "landing_pad", "mine_shaft", "missile_silo", "power_plant", "radar",
    "refinery", "station", "turret", "warehouse",
)
# Pilot-class tables in seed order (README): Bandit, Scientist, Soldier, Worker.
PILOT_ORDER = ("bandit", "scientist", "soldier", "worker")

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10}


def snake(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


@cache
def text() -> str:
    # The copy uses non-breaking spaces before colons ("Passive 7+\xa0:"); read them as spaces.
    return SEED_PATH.read_text(encoding="utf-8").replace("\xa0", " ")


@cache
def lines() -> tuple[str, ...]:
    return tuple(line.strip() for line in text().splitlines())


def _int_or_zero(cell: str) -> int:
    return 0 if cell.lower() == "none" else int(cell)


@cache
def building_rows() -> list[dict]:
    """Each 'Cost Energy / tun ...' table row, in seed order, with its section text."""
    ls = lines()
    starts = [i for i, line in enumerate(ls) if line.startswith("Cost Energy / tun")]
    end_of_buildings = ls.index("Level and experience[edit]")
    rows = []
    for n, i in enumerate(starts):
        m = re.fullmatch(r"(\d+) (\S+) (\d+) (\d+) (.+)", ls[i + 1])
        assert m, ls[i + 1]
        stop = starts[n + 1] if n + 1 < len(starts) else end_of_buildings
        section = "\n".join(ls[i + 2:stop])
        req = m.group(5)
        rows.append({
            "cost": int(m.group(1)),
            "energy": _int_or_zero(m.group(2)),
            "armor": int(m.group(3)),
            "hit_points": int(m.group(4)),
            "requires": None if req == "None" else snake(req),
            "section": section,
        })
    return rows


UPGRADE_RE = re.compile(
    r"(?:•\s*|Upgrade )(?P<name>[A-Z][A-Za-z ]+?)\s*\((?:[Cc]ost\s*:?\s*)?(?P<cost>\d+)\)"
)


def upgrades_in(section: str) -> dict[str, int]:
    """Upgrade name (snake case) -> cost, as listed in a building's section."""
    return {snake(m.group("name")): int(m.group("cost")) for m in UPGRADE_RE.finditer(section)}


@cache
def resource_rows() -> list[dict]:
    rows = []
    for line in lines():
        m = re.fullmatch(r"(\d+)-(\d+) (.+?) (\d+) (\d+) (Refinery|Foundry|Foundry or Refinery)",
                         line)
        if m:
            rows.append({
                "low": int(m.group(1)), "high": int(m.group(2)), "key": snake(m.group(3)),
                "raw_value": int(m.group(4)), "refined_value": int(m.group(5)),
                "refined_with": tuple(sorted(snake(b) for b in m.group(6).split(" or "))),
            })
    return rows


def _block_after(header: str, *, count: int | None = None, start: int = 0) -> list[str]:
    ls = lines()
    i = ls.index(header, start) + 1
    out = []
    while i < len(ls) and ls[i] and (count is None or len(out) < count):
        out.append(ls[i])
        i += 1
    return out


@cache
def mine_yield_rows() -> dict[int, int]:
    yields = {}
    for line in _block_after("Result Units / Turn"):
        m = re.fullmatch(r"(\d+)(?:-(\d+))? (\d+)", line)
        assert m, line
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        for face in range(low, high + 1):
            yields[face] = int(m.group(3))
    return yields


@cache
def pilot_tables() -> dict[str, dict]:
    ls = lines()
    hires = [i for i, line in enumerate(ls) if line.startswith("Hiring Cost")]
    assert len(hires) == 4
    tables = {}
    for key, i in zip(PILOT_ORDER, hires, strict=True):
        cost = int(ls[i].split(":")[1])
        assert ls[i + 2] == "Level Pilot Fight Tech Will Init"
        rows = [tuple(int(c) for c in ls[i + 3 + k].split()) for k in range(8)]
        bonus = []
        j = i + 11
        while not ls[j].startswith(("Hiring Cost", "Weapons and Equipment")):
            if ls[j].startswith("•"):
                bonus.append(ls[j].lstrip("• ").strip())
            j += 1
        tables[key] = {"hiring_cost": cost, "rows": rows, "bonus": bonus}
    return tables


@cache
def xp_row() -> list[tuple[int, int]]:
    ls = lines()
    i = ls.index("Level 1 2 3 4 5 6 7 8")
    levels = [int(c) for c in ls[i].split()[1:]]
    xps = [int(c) for c in ls[i + 1].split()[1:]]
    assert ls[i + 1].startswith("XP")
    return list(zip(levels, xps, strict=True))


WEAPON_NAMES = {
    "Cannon": "cannon", "Machine Gun": "machine_gun", "Shot Gun": "shot_gun",
    "Beamer": "beamer", "Buster": "buster", "Blaster": "blaster",
    "Grenade Lnchr": "grenade_launcher", "Missile Lnchr": "missile_launcher",
    "Missile Pod": "missile_pod", "Grappling arms": "grappling_arms",
    "Road header": "road_header", "Warp Drive": "warp_drive", "Thunder wire": "thunder_wire",
    "Shield": "shield",
}
WEAPON_RE = re.compile(
    r"(?P<name>.+?) (?P<type>Solid|Energy|Projectile|Contact|Equipment) (?P<dmg>\S+) "
    r"(?P<mis>\S+) (?P<rng>\S+) (?P<cd>\S+)(?: (?P<special>.+?))? (?P<cost>\d+)"
)


def _cell(cell: str) -> int | None:
    return None if cell in ("-", "Special") else int(cell)


@cache
def weapon_rows() -> dict[str, dict]:
    rows = {}
    for line in _block_after("Weapon Type Base Dmg. Misfire Range Inc. Base CDwn Special Cost"):
        m = WEAPON_RE.fullmatch(line)
        assert m, line
        dmg = m.group("dmg")
        special_text = m.group("special") or "-"
        special, blast = [], None
        if special_text != "-":
            for part in special_text.split(","):
                part = part.strip()
                b = re.fullmatch(r'Blast radius (\d+)"', part)
                if b:
                    special.append("blast")
                    blast = int(b.group(1))
                else:
                    special.append(snake(part))
        rows[WEAPON_NAMES[m.group("name")]] = {
            "type": m.group("type").lower(),
            "base_damage": int(dmg[2:]) if dmg.startswith("A+") else None,
            "damage_printed": dmg,
            "misfire": int(m.group("mis").rstrip("-")) if m.group("mis") != "-" else None,
            "range_increment": _cell(m.group("rng")),
            "base_cooldown": _cell(m.group("cd")),
            "special": tuple(special),
            "blast_radius": blast,
            "cost": int(m.group("cost")),
        }
    return rows


@cache
def template_rows() -> dict[str, dict]:
    """Template rows by snake-case name: group heading, effect text, printed cost."""
    ls = lines()
    headings = {"General Templates[edit]": "general", "Solid / Explosive[edit]": "solid_explosive",
                "Energy Only[edit]": "energy", "Explosive Only[edit]": "explosive"}
    names = ["Heavy", "Light", "Accurate", "Low quality", "Concussion", "Corrosive",
             "Explosive warheads", "Hardpoint", "Haywire", "Roaring", "RoF up",
             "Chain Reaction", "Combustion", "EMP", "High Frequency", "Overload", "Plasma",
             "Tactical Warheads"]
    rows: dict[str, dict] = {}
    group = None
    in_table = False
    for line in ls:
        if line in headings:
            group = headings[line]
            continue
        if line == "Template Effects Cost":
            in_table = True
            continue
        if not line:
            in_table = False
            continue
        if in_table:
            name = next(n for n in names if line.startswith(n + " "))
            m = re.fullmatch(r"(?P<effect>.+) (?P<cost>[+-]\d+%?)", line[len(name) + 1:])
            assert m, line
            rows[snake(name)] = {"group": group, "effect": m.group("effect"),
                                 "cost": m.group("cost")}
    return rows


@cache
def vehicle_rows() -> dict[str, dict]:
    ls = lines()
    headings = {"Assault Vehicles[edit]": "assault", "Utility Vehicles[edit]": "utility",
                "Exo Armor[edit]": "exo_armor"}
    rows: dict[str, dict] = {}
    for heading, category in headings.items():
        i = ls.index(heading)
        for line in _block_after("Vehicle Weapon Slots Size Weight Armor Hit Points Cost",
                                 start=i):
            m = re.fullmatch(r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?P<slots>.+?) "
                             r"(\d+) (\d+) (\d+) (\d+) (\d+)", line)
            assert m, line
            slots: list[str] = []
            if m.group("slots") != "None":
                for part in m.group("slots").split(","):
                    s = re.fullmatch(r"(\d*)([LMH])", part.strip())
                    assert s, part
                    slots.extend([s.group(2)] * int(s.group(1) or 1))
            size, weight, armor, hp, cost = (int(m.group(k)) for k in range(3, 8))
            rows[snake(m.group("name"))] = {
                "category": category, "slots": tuple(slots), "size": size, "weight": weight,
                "armor": armor, "hit_points": hp, "cost": cost,
            }
    return rows


@cache
def move_rows() -> list[tuple[tuple[int, int], list[tuple[int, int]]]]:
    out = []
    for line in lines():
        m = re.fullmatch(r"(\d+)-(\d+) ((?:\d / \d ?){8})", line)
        if m:
            cells = [(int(a), int(b)) for a, b in re.findall(r"(\d) / (\d)", m.group(3))]
            out.append(((int(m.group(1)), int(m.group(2))), cells))
    return out


@cache
def shield_rows() -> dict[str, tuple[int, int, int]]:
    rows = {}
    for line in _block_after("Size Extra HP Armor bonus to defense"):
        m = re.fullmatch(r"(Light|Medium|Heavy) (\d+) \+(\d+) \+(\d+)", line)
        assert m, line
        rows[m.group(1).lower()] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
    return rows


def number(pattern: str) -> int:
    """The number (digits or a word) captured by `pattern`'s first group in the seed."""
    m = re.search(pattern, text())
    assert m, f"pattern not in seed: {pattern}"
    raw = m.group(1).lower()
    return WORDS[raw] if raw in WORDS else int(raw)
