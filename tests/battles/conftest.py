"""Battle fixtures: a running campaign in its move phase built directly with models
(Alpha-Beta-Gamma-Delta-Epsilon in a line), and small factories for units and buildings."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from battles.rulesets.unlimit3d8.engine.model import BattleInput, BattleResult, UnitOutcome, XpEvent
from campaign.models import Campaign, PhaseChange, Player
from campaign.rules import tables as T
from economy.models import Building, Operative, Unit, Weapon
from territories.models import Adjacency, Territory

NAMES = ("Alpha", "Beta", "Gamma", "Delta", "Epsilon")


class World:
    def __init__(self, campaign: Campaign, players: dict[str, Player],
                 territories: dict[str, Territory]):
        self.campaign = campaign
        self.players = players
        self.t = territories

    def refresh(self) -> World:
        self.campaign.refresh_from_db()
        for t in self.t.values():
            t.refresh_from_db()
        return self

    def unit(self, who: str, where: str | None, *, model: str = "golem",
             klass: str | None = "soldier", level: int = 1, xp: int = 0,
             weapons: tuple[str, ...] = ("machine_gun",), status: str = "ready") -> Unit:
        player = self.players[who]
        territory = self.t[where] if where else None
        pilot = None
        if klass is not None:
            pilot = Operative.objects.create(player=player, territory=territory, klass=klass,
                                             level=level, xp=xp)
        unit = Unit.objects.create(player=player, territory=territory, model=model,
                                   pilot=pilot, status=status)
        for slot, key in enumerate(weapons):
            Weapon.objects.create(player=player, territory=territory, weapon=key, unit=unit,
                                  slot=slot)
        return unit

    def building(self, where: str, kind: str, *, x: int = 0, y: int = 0,
                 active: bool = True) -> Building:
        return Building.objects.create(territory=self.t[where], kind=kind, x=x, y=y,
                                       active=active, hit_points=T.BUILDINGS[kind].hit_points)

    def own(self, where: str, who: str | None) -> None:
        territory = self.t[where]
        territory.owner = self.players[who] if who else None
        territory.ever_owned = True if who else territory.ever_owned
        territory.save()



@pytest.fixture
def world(db, uma, alice, bob, charlie) -> Callable[..., World]:
    def make(*, options: dict[str, Any] | None = None, seed: int = 11,
             owners: dict[str, str] | None = None) -> World:
        campaign = Campaign.objects.create(name="Battle league", umpire=uma,
                                           status=Campaign.Status.RUNNING, turn=1,
                                           phase="move", seed=seed, options=options or {})
        PhaseChange.objects.create(campaign=campaign, turn=1, phase="move", opened_by="start")
        players = {u.username: Player.objects.create(campaign=campaign, user=u)
                   for u in (alice, bob, charlie)}
        territories = {n: Territory.objects.create(campaign=campaign, name=n)
                       for n in NAMES}
        for a, b in itertools.pairwise(NAMES):
            ta, tb = sorted((territories[a], territories[b]), key=lambda t: t.pk)
            Adjacency.objects.create(campaign=campaign, a=ta, b=tb)
        w = World(campaign, players, territories)
        for where, who in (owners or {"Alpha": "alice", "Epsilon": "bob"}).items():
            w.own(where, who)
        return w

    return make


def fake_result(battle_input: BattleInput, *, winner: str | None,
                fates: dict[Any, tuple[str, int, int]] | None = None,
                events: list[tuple[Any, str]] = (), buildings_destroyed=()) -> BattleResult:
    """A scripted engine result: every unit intact unless `fates` says (fate, repairable,
    unrepairable); XP events as (unit id, kind); survival events derived."""
    fates = fates or {}
    units, xp = [], []
    for side, roster in battle_input.sides.items():
        for u in roster:
            fate, rep, unrep = fates.get(u.id, ("intact", u.hit_points_lost_repairable,
                                                u.hit_points_lost_unrepairable))
            hp = T.VEHICLES[u.vehicle].hit_points
            units.append(UnitOutcome(id=u.id, side=side, fate=fate,
                                     hit_points_left=max(0, hp - rep - unrep),
                                     repairable=rep, unrepairable=unrep))
            if fate != "destroyed":
                xp.append(XpEvent(u.id, u.pilot_id, "survived"))
    for uid, kind in events:
        pilot = next(u.pilot_id for r in battle_input.sides.values() for u in r if u.id == uid)
        xp.append(XpEvent(uid, pilot, kind))
    return BattleResult(winner=winner, units=tuple(units),
                        buildings_destroyed=tuple(buildings_destroyed), xp_events=tuple(xp),
                        log=({"event": "fake"},))
