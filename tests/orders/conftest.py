"""A running campaign built directly with models (deterministic ownership), for the
orders, clock and secrecy tests.

Map (tests/conftest.py LINE_MAP): Alpha - Beta - Gamma - Delta - Epsilon.
alice owns Alpha and Beta, bob owns Delta and Epsilon, Gamma is nobody's.
alice's units: a1 on Alpha, a2 on Beta; bob's unit: b1 on Epsilon.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from campaign.models import Campaign, Phase, PhaseChange, Player


@dataclass
class World:
    campaign: Campaign
    alice: Player
    bob: Player
    t: dict[str, Any]
    a1: Any
    a2: Any
    b1: Any
    users: dict[str, Any]

    def refresh(self) -> None:
        for obj in (self.campaign, self.alice, self.bob, self.a1, self.a2, self.b1):
            obj.refresh_from_db()


def set_phase(campaign: Campaign, phase: str, turn: int | None = None) -> Campaign:
    """Put the campaign in (turn, phase) as if the clock had opened it."""
    turn = campaign.turn if turn is None else turn
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.RUNNING,
                                                   turn=turn, phase=phase,
                                                   phase_deadline=None, paused=False)
    PhaseChange.objects.get_or_create(campaign=campaign, turn=turn, phase=phase,
                                      defaults={"opened_by": "test"})
    campaign.refresh_from_db()
    return campaign


def make_unit(player: Player, territory, model: str = "Golem", *, pilot: bool = True,
              status: str = "ready"):
    from economy.models import Operative, Unit

    operative = (Operative.objects.create(player=player, territory=territory,
                                          klass="soldier") if pilot else None)
    return Unit.objects.create(player=player, territory=territory, model=model,
                               pilot=operative, status=status)


@pytest.fixture
def build_world(make_campaign, uma, alice, bob, charlie):
    def build(*, options: dict | None = None, umpire_plays: bool = False,
              phase: str = Phase.MOVE, turn: int = 1) -> World:
        from territories.models import Territory

        campaign = make_campaign(uma, options=options)
        pa = Player.objects.create(campaign=campaign, user=alice, color="#d62728")
        pb = Player.objects.create(campaign=campaign, user=bob, color="#1f77b4")
        if umpire_plays:
            Player.objects.create(campaign=campaign, user=uma, color="#2ca02c")
        t = {x.name: x for x in Territory.objects.filter(campaign=campaign)}
        from economy.models import Building

        for name, owner in (("Alpha", pa), ("Beta", pa), ("Delta", pb), ("Epsilon", pb)):
            t[name].owner = owner
            t[name].ever_owned = True
            t[name].save()
            # R-MAP-9: a station lets units travel through the territory.
            Building.objects.create(territory=t[name], kind="station", x=0, y=0,
                                    hit_points=30)
        set_phase(campaign, phase, turn)
        for p in (pa, pb):
            p.campaign = campaign
        world = World(campaign=campaign, alice=pa, bob=pb, t=t,
                      a1=make_unit(pa, t["Alpha"]), a2=make_unit(pa, t["Beta"]),
                      b1=make_unit(pb, t["Epsilon"]),
                      users={"uma": uma, "alice": alice, "bob": bob, "charlie": charlie})
        return world

    return build


@pytest.fixture
def world(build_world) -> World:
    return build_world()


def advance_to(world: World, phase: str) -> None:
    """Advance with the real clock until the campaign is in `phase`."""
    from campaign.services import clock

    for _ in range(8):
        world.campaign.refresh_from_db()
        if world.campaign.phase == phase:
            return
        clock.advance(campaign_id=world.campaign.pk, by="umpire")
    raise AssertionError(f"never reached {phase}")
