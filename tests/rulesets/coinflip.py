"""A toy second ruleset: a coin flip decides the battle. It proves the seam: anything
that speaks `battles.rulesets.base` is opened, resolved by the job and recorded by the
campaign like Unlimit3d 8, without a line of the pipeline knowing it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battles.rulesets.base import (
    Battlefield,
    CatalogueEntry,
    Json,
    Outcome,
    RulesetBase,
    UnitFate,
    XpAward,
)
from campaign.rules.dice import Dice


class CoinFlip(RulesetBase):
    name = "coinflip"
    version = "1"
    title = "Coin flip"
    seed_file = "none"
    dice = ("d2",)

    def tables(self) -> Json:
        return {"options": {"coinflip_bold": False}}

    def catalogue(self, *, faction: str | None = None,
                  options: Mapping[str, Any] | None = None) -> list[CatalogueEntry]:
        return [CatalogueEntry(key="coin", name="Coin bearer", kind="infantry", price=7,
                               profile={"figures": 2})]

    def initial_state(self, key: str) -> Json:
        return {"figures": 2, "wins": 0}

    def veterancy(self, state: Json, awards: Sequence[XpAward],
                  options: Mapping[str, Any] | None = None) -> Json:
        return {**state, "wins": int(state.get("wins", 0)) + len(awards)}

    def forces(self, battlefield: Battlefield) -> Json:
        return {"seed": battlefield.seed, "territory": battlefield.territory,
                "defender": str(battlefield.defender),
                "sides": {str(p): [{"id": u.id, "name": u.name} for u in units]
                          for p, units in battlefield.sides.items()}}

    def resolve(self, battle_input: Json, dice: Dice, policy: str | None = None) -> Outcome:
        sides = list(battle_input["sides"])
        face = dice.roll(2)
        winner = battle_input["defender"] if face == 1 else next(
            s for s in sides if s != battle_input["defender"])
        fates = []
        for side, units in battle_input["sides"].items():
            for i, u in enumerate(units):
                won = side == winner
                fate = "intact" if won else ("destroyed" if i == 0 else "damaged")
                fates.append(UnitFate(unit=u["id"], player=int(side), fate=fate,
                                      state={"figures": 2 if won else 1}))
        xp = tuple(XpAward(unit=f.unit, kind="battle_won") for f in fates
                   if f.fate == "intact")
        outcome = Outcome(winner=int(winner), units=tuple(fates), xp=xp, rounds=1,
                          end_reason="coin", log=({"round": 1, "face": face,
                                                   "text": f"The coin shows {face}."},))
        return outcome

    def odds(self, battle_input: Json, *, simulations: int, seed: int) -> Json:
        return {"n": simulations, "seed": seed,
                "win_probability": {s: 1 / len(battle_input["sides"])
                                    for s in battle_input["sides"]}}

    def tabletop_schema(self) -> Json:
        return {"type": "object", "required": ["winner"],
                "properties": {"winner": {"type": "integer"}}}

    def outcome_from_report(self, battle_input: Json, report: Json) -> Outcome:
        winner = str(report["winner"])
        return Outcome(winner=int(winner), units=tuple(
            UnitFate(unit=u["id"], player=int(s), fate="intact" if s == winner else "damaged")
            for s, units in battle_input["sides"].items() for u in units))

    def replay(self, battle_input: Json, outcome: Json, log: Sequence[Json]) -> list[Json]:
        return [{"text": step["text"], "actor": None, "target": None} for step in log]


RULESET = CoinFlip()
