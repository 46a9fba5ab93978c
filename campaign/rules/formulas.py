"""The seed's derived formulas, computed from the tables (pure Python, no Django).

Cool-down, shipping value, weights and slots, buildings' energy, and a weapon's stat
line after its templates. The battle's formulas (base defense, skill columns, damage
ticks, shields) are in `battles/rulesets/unlimit3d8/rules.py`.
Readings that needed a ruling cite it (docs/RULINGS.md, "Tables").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from campaign.rules.tables import (
    BUILDINGS,
    EXTENSION_WEIGHT,
    FACTORY_LIMIT,
    MAX_LEVEL,
    POWER_PLANT_OUTPUT,
    PURE_PRICE_PERCENT,
    SLOT_ACCEPTS,
    TEMPLATES,
    WEAPON_WEIGHT,
    RuleViolation,
    resource,
    validate_templates,
    vehicle,
    weapon,
    weapon_price,
    weapon_size,
)

MIN_COOLDOWN: Final = 1  # R-TAB-7


# ---------------------------------------------------------------------------
# Unit card
# ---------------------------------------------------------------------------


def weapon_cooldown(base_cooldown: int, pilot_skill_level: int) -> int:
    """ "Cool-down is the weapon base minus the Pilot Skill level", never below 1 (R-TAB-7)."""
    return max(MIN_COOLDOWN, base_cooldown - pilot_skill_level)


# ---------------------------------------------------------------------------
# Economy
# ---------------------------------------------------------------------------


def unit_value(resource_key: str, *, refined: bool, pure: bool) -> int:
    """SC one unit of a resource is worth when shipped.

    Refined: the refined value ("the refined price of the resource doesn't change").
    Raw and pure: 150% of the raw value, rounded down per unit (R-TAB-8).
    """
    spec = resource(resource_key)
    if refined:
        return spec.refined_value
    if pure:
        return spec.raw_value * PURE_PRICE_PERCENT // 100
    return spec.raw_value


def shipping_value(resource_key: str, units: int, refined: bool, pure: bool) -> int:
    """SC earned by shipping `units` of a resource (values are per unit, R-TAB-8)."""
    if units < 0:
        raise RuleViolation(f"Cannot ship a negative number of units ({units}).")
    return units * unit_value(resource_key, refined=refined, pure=pure)


def building_energy(building_key: str, upgrade_keys: Iterable[str] = ()) -> int:
    """Energy / turn an active building consumes, after a Power efficiency upgrade."""
    spec = BUILDINGS[building_key]
    energy = spec.energy
    for key in upgrade_keys:
        upgrade = spec.upgrades.get(key)
        if upgrade is not None and upgrade.energy_after is not None:
            energy = min(energy, upgrade.energy_after)
    return energy


def power_output(power_plants: int, *, enhanced: bool = False) -> int:
    """Energy produced on a territory: 50 per plant, doubled by Enhanced generators."""
    return power_plants * POWER_PLANT_OUTPUT * (2 if enhanced else 1)


def factory_limit(upgrade_keys: Iterable[str] = ()) -> int:
    """SC worth of material a factory may build each strategic turn (500, or 800)."""
    limit = FACTORY_LIMIT
    for key in upgrade_keys:
        upgrade = BUILDINGS["factory"].upgrades.get(key)
        if upgrade is not None and upgrade.production_limit_after is not None:
            limit = max(limit, upgrade.production_limit_after)
    return limit


# ---------------------------------------------------------------------------
# Vehicles: weight and slots
# ---------------------------------------------------------------------------


def vehicle_slots(vehicle_key: str, *, extension: bool = False) -> tuple[str, ...]:
    """The vehicle's weapon slots; the extension turns one M slot into an H (R-TAB-14)."""
    spec = vehicle(vehicle_key)
    slots = list(spec.slots)
    if extension:
        if not spec.extension or "M" not in slots:
            raise RuleViolation(f"The {spec.name} cannot take the extension.")
        slots[slots.index("M")] = "H"
    return tuple(slots)


def total_weight(vehicle_key: str, weapon_sizes: Iterable[str], extension: bool = False) -> int:
    """Vehicle weight + 1/2/3 per light/medium/heavy weapon (+1 with the extension).

    The exo armor's built-in light grappling arms do not count ("This does not count
    in the calculation of their weight").
    """
    spec = vehicle(vehicle_key)
    weight = spec.weight + (EXTENSION_WEIGHT if extension else 0)
    for size in weapon_sizes:
        if size not in WEAPON_WEIGHT:
            raise RuleViolation(f"Weapon size must be L, M or H, not {size!r}.")
        weight += WEAPON_WEIGHT[size]
    return weight


def slots_fit(slots: Iterable[str], weapon_sizes: Iterable[str]) -> bool:
    """Whether each weapon finds its own slot ("H" takes H/M/L, "M" takes M/L, "L" L)."""
    free = sorted(slots, key="LMH".index)  # smallest slots first
    for size in sorted(weapon_sizes, key="LMH".index, reverse=True):  # biggest first
        for i, slot in enumerate(free):
            if size in SLOT_ACCEPTS[slot]:
                del free[i]
                break
        else:
            return False
    return True


def validate_loadout(vehicle_key: str, weapon_sizes: Iterable[str], *,
                     extension: bool = False, light_shield: bool = False) -> None:
    """Refuse weapons that do not fit the vehicle's slots (RuleViolation).

    `light_shield`: an exo armor "can always take an additional light shield" on top of
    its slots.
    """
    spec = vehicle(vehicle_key)
    sizes = list(weapon_sizes)
    if light_shield and spec.category != "exo_armor":
        raise RuleViolation("Only an exo armor takes a light shield beyond its slots.")
    slots = vehicle_slots(vehicle_key, extension=extension)
    if not slots_fit(slots, sizes):
        have = ", ".join(slots) or "none"
        raise RuleViolation(f"The {spec.name} has slots {have}; it cannot carry weapons of "
                            f"size {', '.join(sizes)}.")


# ---------------------------------------------------------------------------
# Weapons after templates
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectiveWeapon:
    """A weapon's stat line with its templates applied (R-TAB-10, R-TAB-15)."""

    key: str
    templates: tuple[str, ...]
    size: str
    type: str
    base_damage: int | None
    misfire: int | None  # misfires when the nemesis die is <= this; None: never
    range_increment: int | None
    base_cooldown: int | None  # before subtracting the pilot's level
    special: tuple[str, ...]
    blast_radius: int | None
    passive_template: str | None
    passive_min: int | None  # passive die needed, after Heavy/Light threshold shifts
    ignore_armor: str | None  # "half" / "all"
    cdt_to_target: int
    counts_as: str | None
    price: int

    def cooldown_for(self, pilot_skill_level: int) -> int | None:
        """The unit-card cool-down for a pilot of this level."""
        if self.base_cooldown is None:
            return None
        return weapon_cooldown(self.base_cooldown, pilot_skill_level)


def _percent(value: int, percent: int) -> int:
    """`value` changed by `percent`: increases round down, decreases round up."""
    change = value * percent
    return value + (change // 100 if percent >= 0 else -((-change) // 100))


def effective_weapon(weapon_key: str, template_keys: Iterable[str] = ()) -> EffectiveWeapon:
    """Apply templates to a weapon's printed stat line (validates the mix first).

    R-TAB-10: damage and cool-down percentages are summed and taken of the printed
    value (a rise rounds down, a cut rounds up: Heavy "rounded down", Light "rounded
    up"), then flat changes are added; Haywire's "Dmg 0" wins over everything.
    Damage never drops below 0, range increment below 0, cool-down below 1.
    R-TAB-15: a "-" misfire counts as 0 for Mishap Threshold changes.
    """
    keys = tuple(template_keys)
    validate_templates(weapon_key, keys)
    spec = weapon(weapon_key)
    temps = [TEMPLATES[k] for k in keys]

    damage = spec.base_damage
    if damage is not None:
        damage = _percent(damage, sum(t.damage_percent or 0 for t in temps))
        damage += sum(t.damage_flat or 0 for t in temps)
        if any(t.damage_set is not None for t in temps):
            damage = min(t.damage_set for t in temps if t.damage_set is not None)
        damage = max(0, damage)

    cooldown = spec.base_cooldown
    if cooldown is not None:
        cooldown = _percent(cooldown, sum(t.cooldown_percent or 0 for t in temps))
        cooldown += sum(t.cooldown_delta or 0 for t in temps)
        cooldown = max(MIN_COOLDOWN, cooldown)

    mishap = sum(t.mishap_delta or 0 for t in temps)
    misfire = spec.misfire
    if mishap:
        misfire = (misfire or 0) + mishap

    range_increment = spec.range_increment
    if range_increment is not None:
        range_increment = max(0, range_increment + sum(t.range_increment_delta or 0
                                                       for t in temps))

    blast = spec.blast_radius
    if blast is not None:
        blast += sum(t.blast_radius_delta or 0 for t in temps)

    special = list(spec.special)
    for t in temps:
        special.extend(s for s in t.grants_special if s not in special)

    passive = next((t for t in temps if t.passive), None)
    passive_min = None
    if passive is not None and passive.passive_min is not None:
        shift = sum(t.passive_threshold_delta or 0 for t in temps)
        passive_min = min(8, max(1, passive.passive_min + shift))

    ignore = None
    for t in temps:
        if t.ignore_armor == "all" or (t.ignore_armor == "half" and ignore is None):
            ignore = t.ignore_armor

    return EffectiveWeapon(
        key=spec.key,
        templates=keys,
        size=weapon_size(spec.key, keys),
        type=spec.type,
        base_damage=damage,
        misfire=misfire,
        range_increment=range_increment,
        base_cooldown=cooldown,
        special=tuple(special),
        blast_radius=blast,
        passive_template=passive.key if passive else None,
        passive_min=passive_min,
        ignore_armor=ignore,
        cdt_to_target=sum(t.cdt_to_target or 0 for t in temps),
        counts_as=next((t.counts_as for t in temps if t.counts_as), None),
        price=weapon_price(spec.key, keys),
    )


def clamp_level(level: int) -> int:
    """A level within 1..8."""
    return min(max(level, 1), MAX_LEVEL)


__all__ = [
    "MIN_COOLDOWN",
    "EffectiveWeapon",
    "building_energy",
    "clamp_level",
    "effective_weapon",
    "factory_limit",
    "power_output",
    "shipping_value",
    "slots_fit",
    "total_weight",
    "unit_value",
    "validate_loadout",
    "vehicle_slots",
    "weapon_cooldown",
]
