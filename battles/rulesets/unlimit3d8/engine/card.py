"""The unit card (seed, "The Unit Card"), computed from the rule tables.

- C: size and weight class from the vehicle; D: "Base Defense depend on Size, Weight
  class and Pilot Skill level" (`campaign.rules.formulas.unit_base_defense`: Fight for
  exo armour, total weight with weapons).
- E: move increment and max move from the move table by total weight and the pilot's
  level (R-TAB-5; R-BAT-9: exo armour reads the same column, its Fight *score* has no
  column in a 1..8 table).
- H: the seven skill columns ("skill scores multiplied by 0.5 ... 3.5, halves rounded
  down"); I: "Cool-down is the weapon base minus the Pilot Skill level".
- Weapons: the stat line after templates (`campaign.rules.formulas.effective_weapon`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Final

from battles.rulesets.unlimit3d8 import rules as BF
from battles.rulesets.unlimit3d8 import tables as BT
from battles.rulesets.unlimit3d8.engine.model import Id, UnitInput, WeaponInput
from campaign.rules import formulas as F
from campaign.rules import tables as T

SKILLS = ("pilot", "fight", "tech", "will", "init")


@dataclass(frozen=True)
class WeaponCard:
    """A weapon line of the card: effective stats and this pilot's cool-down."""

    def __deepcopy__(self, memo: dict[int, object]) -> WeaponCard:
        """Immutable: a copy of a battle state shares it (the action layer keeps a copy
        to restore after a refusal; compiled, a frozen class cannot be rebuilt field by
        field)."""
        return self

    key: str
    name: str
    templates: tuple[str, ...]
    size: str
    type: str
    base_damage: int | None
    misfire: int  # misfires when the nemesis die is <= this (0: never)
    range_increment: int | None
    cooldown: int
    special: frozenset[str]
    blast_radius: int
    passive: str | None  # template key of the passive effect
    passive_min: int  # passive die needed (9: never)
    ignore_armor: str | None
    cdt_to_target: int
    builtin: bool = False  # exo armour's own light grappling arms

    # The few-comparison tests below are plain properties: compiled, a property is a
    # native call, while a `cached_property` is a generic attribute lookup through the
    # instance dict on every read (the policy reads them for every candidate shot).
    @property
    def is_contact(self) -> bool:
        return self.type == "contact"

    @property
    def is_ranged(self) -> bool:
        """Fires at a distance with a damage line (not contact weapons nor equipment)."""
        return (self.range_increment is not None and self.base_damage is not None
                and self.type != "contact" and self.type != "equipment")

    @property
    def no_line_of_sight(self) -> bool:
        return "no_line_of_sight" in self.special

    @property
    def is_projectile(self) -> bool:
        """Missiles and grenades: stopped by force fields."""
        return self.type == "projectile"


@lru_cache(maxsize=1024)
def weapon_card(key: str, templates: tuple[str, ...], level: int,
                builtin: bool = False) -> WeaponCard:
    """The card line of a weapon with its templates for a pilot of this level."""
    eff = F.effective_weapon(key, templates)
    spec = T.weapon(key)
    cooldown = F.weapon_cooldown(eff.base_cooldown, level) if eff.base_cooldown else 1
    return WeaponCard(
        key=key, name=spec.name, templates=templates, size=eff.size, type=spec.type,
        base_damage=eff.base_damage, misfire=eff.misfire or 0,
        range_increment=eff.range_increment, cooldown=cooldown,
        special=frozenset(eff.special), blast_radius=eff.blast_radius or 0,
        passive=eff.passive_template, passive_min=eff.passive_min or 9,
        ignore_armor=eff.ignore_armor, cdt_to_target=eff.cdt_to_target, builtin=builtin,
    )


@dataclass(frozen=True)
class UnitCard:
    """Everything about a unit that does not change during a battle."""

    def __deepcopy__(self, memo: dict[int, object]) -> UnitCard:
        """Immutable: a copy of a battle state shares it (the action layer keeps a copy
        to restore after a refusal; compiled, a frozen class cannot be rebuilt field by
        field)."""
        return self

    id: Id
    side: str
    name: str
    pilot_id: Id | None
    pilot_class: str
    level: int
    is_character: bool
    vehicle: str
    category: str
    size: int
    weight: int  # total weight, weapons included
    vehicle_weight: int  # the vehicle's weight class (ramming damage)
    armor: int
    hit_points: int
    base_defense: int
    move_increment: int
    max_move: int
    skills: dict[str, int]
    weapons: tuple[WeaponCard, ...]
    shield: BT.ShieldSpec | None
    has_designator: bool = False  # "used by a unit to designate a target to a missile"
    # `ranged_weapons` and `contact_weapons`, made once with the card: compiled, a
    # `functools.cached_property` caches nothing (a native instance has no __dict__), the
    # tuples were rebuilt on every read, and the policy reads them for every unit it weighs.
    _ranged: tuple[WeaponCard, ...] = field(init=False, default=(), compare=False, repr=False)
    _contact: tuple[WeaponCard, ...] = field(init=False, default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        _set = object.__setattr__  # frozen: set once, as the dataclass's own __init__ does
        _set(self, "_ranged", tuple(w for w in self.weapons if w.is_ranged))
        _set(self, "_contact", tuple(w for w in self.weapons if w.is_contact))

    @property
    def is_lorry(self) -> bool:
        """The Lorry "can receive the content of a container"."""
        return self.vehicle == "lorry"

    @cached_property
    def has_piracy(self) -> bool:
        return any("piracy" in w.special for w in self.weapons)

    @cached_property
    def lifting_arms(self) -> WeaponCard | None:
        """ "Any Unit equiped with Medium or Heavy Grappling Arms can lift a container"."""
        return next((w for w in self.weapons
                     if w.key == "grappling_arms" and w.size in ("M", "H")), None)

    @property
    def is_infantry(self) -> bool:
        """Exo armour: the seed's infantry (2" range increments, moves max move inches)."""
        return self.category == "exo_armor"

    @property
    def max_move_inches(self) -> float:
        """Seed, "Move": "A vehicle can move up to its max move x 2 inches in a turn, an exo
        armor can move up to its max move inches." """
        return float(self.max_move if self.is_infantry else self.max_move * 2)

    def column(self, skill: str) -> tuple[int, ...]:
        return BF.skill_columns(self.skills[skill])

    @property
    def ranged_weapons(self) -> tuple[WeaponCard, ...]:
        return self._ranged

    @property
    def contact_weapons(self) -> tuple[WeaponCard, ...]:
        return self._contact

    @property
    def has_repair_tools(self) -> bool:
        """R-BAT-14: grappling arms (an exo armour's own included) are repair tools."""
        return any(w.key == "grappling_arms" for w in self.weapons)

    def equipment(self, special: str) -> WeaponCard | None:
        return next((w for w in self.weapons if special in w.special), None)


def _shield(unit: UnitInput) -> BT.ShieldSpec | None:
    size = unit.shield
    if size is None:
        shield_weapon = next((w for w in unit.weapons if w.key == "shield"), None)
        if shield_weapon is None:
            return None
        size = T.weapon_size("shield", shield_weapon.templates)
    if size in BT.SHIELDS:
        return BT.SHIELDS[size]
    return BF.shield_for(size)


#: Cards already built, by (unit's fields, will bonus, row): a card is immutable and
#: depends on nothing else (like `weapon_card`'s cache), and Monte Carlo odds deploy the
#: same units for every simulation. The key is `_unit_key`'s tuple, not the `UnitInput`
#: itself: hashing that (an interpreted frozen dataclass, its weapons too) cost more than
#: a card's whole deployment.
_CARDS: Final[dict[tuple[object, ...], UnitCard]] = {}
_CARDS_MAX: Final = 4096
#: The same cards by the very `UnitInput` object (its id, the object kept to make sure
#: the id is still its): the odds simulate one battle input over and over.
_BY_OBJECT: Final[dict[tuple[int, int, str], tuple[UnitInput, UnitCard]]] = {}


def _unit_key(unit: UnitInput) -> tuple[object, ...]:
    """Every field of the unit (weapons as their own fields): equal exactly when the units
    are equal (`UnitInput.__eq__` compares these very fields)."""
    weapons = tuple([(w.key, w.templates) for w in unit.weapons])
    return (unit.id, unit.side, unit.name, unit.vehicle, unit.pilot_class, unit.pilot_level,
            weapons, unit.shield, unit.hit_points_lost_repairable,
            unit.hit_points_lost_unrepairable, unit.is_character, unit.pilot_id, unit.position)


def build_card(unit: UnitInput, *, will_bonus: int = 0,
               bandit_level8_row: str = "corrected") -> UnitCard:
    """The unit card of `unit` (raises `campaign.rules.tables.RuleViolation` on bad keys)."""
    mark = (id(unit), will_bonus, bandit_level8_row)
    seen = _BY_OBJECT.get(mark)
    if seen is not None and seen[0] is unit:
        return seen[1]
    key = (_unit_key(unit), will_bonus, bandit_level8_row)
    try:
        card = _CARDS.get(key)
    except TypeError:  # a unit built with a list somewhere (not hashable): no cache
        return _build_card(unit, will_bonus, bandit_level8_row)
    if card is None:
        card = _build_card(unit, will_bonus, bandit_level8_row)
        if len(_CARDS) < _CARDS_MAX:
            _CARDS[key] = card
    if len(_BY_OBJECT) >= _CARDS_MAX:
        _BY_OBJECT.clear()  # the objects it keeps alive: at most this many
    _BY_OBJECT[mark] = (unit, card)
    return card


def _build_card(unit: UnitInput, will_bonus: int, bandit_level8_row: str) -> UnitCard:
    spec = T.vehicle(unit.vehicle)
    line = T.skill_line(unit.pilot_class, unit.pilot_level, bandit_level8_row=bandit_level8_row)
    armed = [w for w in unit.weapons if w.key not in ("shield", "designator")]
    shield = _shield(unit)
    sizes = [T.weapon_size(w.key, w.templates) for w in unit.weapons if w.key != "shield"]
    if shield is not None:
        # R-BAT-10: a shield weighs as a weapon of its size (it fills a slot).
        sizes.append({"light": "L", "medium": "M", "heavy": "H"}[shield.size])
    weight = F.total_weight(spec.key, sizes)
    weapons = [weapon_card(w.key, tuple(w.templates), unit.pilot_level) for w in armed]
    if spec.category == "exo_armor" and not armed:
        # "All exo armor count as having a pair of light grappling arms ... They lose the
        # use of the base arms if they take a weapon".
        weapons.append(weapon_card(T.EXO_BUILTIN_WEAPON, ("light",), unit.pilot_level, True))
    increment, max_move = BT.move_stats(weight, unit.pilot_level)
    skills = {s: getattr(line, s) for s in SKILLS}
    skills["will"] += will_bonus
    return UnitCard(
        id=unit.id, side=unit.side, name=unit.name, pilot_id=unit.pilot_id,
        pilot_class=T.pilot_class(unit.pilot_class).key, level=unit.pilot_level,
        is_character=unit.is_character, vehicle=spec.key, category=spec.category,
        size=spec.size, weight=weight, vehicle_weight=spec.weight, armor=spec.armor,
        hit_points=spec.hit_points,
        base_defense=BF.unit_base_defense(spec.key, line, weight),
        move_increment=increment, max_move=max_move, skills=skills,
        weapons=tuple(weapons), shield=shield,
        has_designator=any(w.key == "designator" for w in unit.weapons),
    )


def turret_weapon_card(weapon: WeaponInput) -> WeaponCard:
    """R-BAT-16: a turret has no pilot; its cool-down is the weapon's base (level 0)."""
    return weapon_card(weapon.key, tuple(weapon.templates), 0)


#: `score` of skills 0..63 for 3d8 sums 0..31, filled in once read (`_UNREAD`: not yet):
#: every roll of a battle asks, and a list index costs far less than a call through
#: `functools.lru_cache` (as `probability.p_success` does).
_SCORE_SKILLS: Final = 64
_SCORE_SUMS: Final = 32
_UNREAD: Final = -(1 << 30)
_SCORES: Final[list[int]] = [_UNREAD] * (_SCORE_SKILLS * _SCORE_SUMS)


def score(skill_value: int, dice_sum: int) -> int:
    """The roll's result read on the card (J row column for the 3d8 sum); a table read,
    kept once read (every roll of a battle asks)."""
    if 0 <= skill_value < _SCORE_SKILLS and 0 <= dice_sum < _SCORE_SUMS:
        index = skill_value * _SCORE_SUMS + dice_sum
        found = _SCORES[index]
        if found == _UNREAD:
            found = _SCORES[index] = BF.skill_score(skill_value, dice_sum)
        return found
    return BF.skill_score(skill_value, dice_sum)
