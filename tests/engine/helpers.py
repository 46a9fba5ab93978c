"""Small builders for engine tests: units at chosen positions and scripted dice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from battles.rulesets.unlimit3d8.engine.dice import ForcedDice
from battles.rulesets.unlimit3d8.engine.model import (
    BattleInput,
    BuildingInput,
    CargoInput,
    MissileInput,
    UnitInput,
    WeaponInput,
)
from battles.rulesets.unlimit3d8.engine.resolve import build_state
from battles.rulesets.unlimit3d8.engine.state import BattleState

RED, BLUE = "red", "blue"


def unit(uid: Any, side: str, vehicle: str = "lycaon", weapons: Iterable[Any] = ("machine_gun",),
         *, cls: str = "soldier", level: int = 1, at: tuple[float, float] | None = None,
         **kw: Any) -> UnitInput:
    ws = tuple(w if isinstance(w, WeaponInput) else
               WeaponInput(w[0], tuple(w[1])) if isinstance(w, tuple) else WeaponInput(w)
               for w in weapons)
    return UnitInput(id=uid, side=side, name=f"{side}-{uid}", vehicle=vehicle, pilot_class=cls,
                     pilot_level=level, weapons=ws, pilot_id=f"p{uid}", position=at, **kw)


def battle(units: Sequence[UnitInput], buildings: Sequence[BuildingInput] = (), *,
           seed: int = 1, defender: str = RED, missiles: dict[str, Any] | None = None,
           cargo: Sequence[CargoInput] = (), **options: Any) -> BattleInput:
    sides: dict[str, list[UnitInput]] = {}
    for u in units:
        sides.setdefault(u.side, []).append(u)
    if defender not in sides:
        sides = {defender: [], **sides}
    return BattleInput(territory="t1", defender=defender,
                       sides={k: tuple(v) for k, v in sides.items()},
                       buildings=tuple(buildings), seed=seed, options=options,
                       missiles={k: tuple(MissileInput(d) if isinstance(d, int) else d
                                          for d in v) for k, v in (missiles or {}).items()},
                       cargo=tuple(cargo))


def state(units: Sequence[UnitInput], buildings: Sequence[BuildingInput] = (),
          faces: Iterable[int] = (), **options: Any) -> BattleState:
    """A deployed battle whose dice yield exactly `faces` (active, passive, nemesis...).
    `missiles={side: [silo_distance, ...]}` and `cargo=[CargoInput...]` pass through."""
    return build_state(battle(units, buildings, **options), ForcedDice(faces))


class Script:
    """A policy playing given actions in order (passing while the next action's unit still
    has CDT), then passing."""

    def __init__(self, actions: Iterable[Any]) -> None:
        self.actions = list(actions)

    def begin_choice(self, view: Any, side: str) -> None:
        return None

    def choose(self, view: Any, side: str) -> Any:
        from battles.rulesets.unlimit3d8.engine.actions import Pass
        if not self.actions:
            return Pass(unit="")
        unit = view.state.units.get(self.actions[0].unit)
        if unit is not None and unit.active and unit.cdt > 0:
            return Pass(unit="")
        return self.actions.pop(0)

    def turret_target(self, view: Any, turret: Any) -> Any:
        return None


def scripted(plan: dict[str, list[Any]]) -> Any:
    return lambda side, options: Script(plan.get(side, []))


def rolls(st: BattleState) -> list[dict[str, Any]]:
    return [e for e in st.log if e["event"] == "roll"]
