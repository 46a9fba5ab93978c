"""Economy fixtures: the state is built directly with models (a running campaign, two
players with a starting territory each), so these tests do not depend on the start
logic of the territories area."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction

from campaign.models import Campaign, Player
from campaign.rules.tables import BUILDINGS, STARTING_BUILDINGS, STARTING_CREDITS
from economy.models import Building, Operative, Stock, Unit, Weapon
from economy.services import ledger
from territories.models import Adjacency, Exploration, Territory


@dataclass
class World:
    campaign: Campaign
    alice: Player
    bob: Player
    alpha: Territory  # alice's
    beta: Territory  # bob's
    gamma: Territory  # nobody's
    squares: dict[int, int] = field(default_factory=dict)

    def phase(self, phase: str, turn: int | None = None) -> None:
        self.campaign.phase = phase
        if turn is not None:
            self.campaign.turn = turn
        self.campaign.save(update_fields=["phase", "turn"])
        for p in (self.alice, self.bob):
            p.campaign = self.campaign

    def build(self, territory: Territory, kind: str, *, active: bool = False,
              upgrades: tuple[str, ...] = (), **extra: Any) -> Building:
        from economy.services.export import stored_line

        for key in ("product", "next_product"):  # a line may be written "a;b"
            if key in extra:
                extra[key] = stored_line(extra[key])
        n = self.squares.get(territory.pk, 0)
        self.squares[territory.pk] = n + 1
        return Building.objects.create(territory=territory, kind=kind, x=n % 16, y=n // 16,
                                       hit_points=BUILDINGS[kind].hit_points, active=active,
                                       upgrades=list(upgrades), **extra)

    def stock(self, territory: Territory, resource: str, units: int, *,
              refined: bool = False, pure: bool = False) -> Stock:
        return Stock.objects.create(territory=territory, resource=resource, refined=refined,
                                    pure=pure, units=units)

    def explore(self, territory: Territory, resource: str = "minerals", *, units: int = 3,
                pure: bool = False, unstable: bool = False, discovery: str = "",
                credits_awarded: int = 0) -> Exploration:
        return Exploration.objects.create(
            campaign=self.campaign, territory=territory, player=territory.owner, turn=1,
            active_die=4, passive_die=7 if pure else 3, nemesis_die=1 if unstable else 4,
            resource=resource, units_per_shaft=units, pure=pure, unstable=unstable,
            discovery=discovery, credits_awarded=credits_awarded)

    def operative(self, player: Player, territory: Territory, klass: str = "soldier",
                  level: int = 1) -> Operative:
        return Operative.objects.create(player=player, territory=territory, klass=klass,
                                        level=level)

    def unit(self, player: Player, territory: Territory, model: str = "golem",
             **extra: Any) -> Unit:
        return Unit.objects.create(player=player, territory=territory, model=model, **extra)

    def weapon(self, player: Player, territory: Territory, key: str = "machine_gun",
               templates: tuple[str, ...] = ()) -> Weapon:
        return Weapon.objects.create(player=player, territory=territory, weapon=key,
                                     templates=list(templates))

    def credits(self, player: Player) -> int:
        player.refresh_from_db()
        return player.credits

    def grant(self, player: Player, amount: int) -> None:
        with transaction.atomic():
            ledger.post(player=player, amount=amount, reason="umpire_grant")


def _player(campaign: Campaign, user) -> Player:
    player = Player.objects.create(campaign=campaign, user=user)
    player.campaign = campaign
    with transaction.atomic():
        ledger.post(player=player, amount=STARTING_CREDITS, reason="starting_credits")
    return player



@pytest.fixture
def world(db, uma, alice, bob) -> World:
    campaign = Campaign.objects.create(name="Econ", umpire=uma, status="running", turn=1,
                                       phase="commercial", seed=11)
    alpha = Territory.objects.create(campaign=campaign, name="Alpha")
    beta = Territory.objects.create(campaign=campaign, name="Beta")
    gamma = Territory.objects.create(campaign=campaign, name="Gamma")
    Adjacency.objects.create(campaign=campaign, a=alpha, b=beta)
    Adjacency.objects.create(campaign=campaign, a=beta, b=gamma)
    pa, pb = _player(campaign, alice), _player(campaign, bob)
    alpha.owner, beta.owner = pa, pb
    alpha.ever_owned = beta.ever_owned = True
    alpha.save()
    beta.save()
    w = World(campaign, pa, pb, alpha, beta, gamma)
    for territory in (alpha, beta):
        for kind in STARTING_BUILDINGS:
            w.build(territory, kind)
    return w


@pytest.fixture
def api(client_for, alice, bob, uma):
    return {"alice": client_for(alice), "bob": client_for(bob), "uma": client_for(uma)}


def snapshot() -> dict[str, Any]:
    """Everything an economy action could change, for 'nothing changed' assertions."""
    from campaign.models import Event
    from economy.models import Artifact, BuildingKit, LedgerEntry, Shipment, Trade

    return {
        "credits": sorted(Player.objects.values_list("pk", "credits", "research_points")),
        "ledger": LedgerEntry.objects.count(),
        "buildings": sorted(Building.objects.values_list("pk", "kind", "x", "y", "active",
                                                         "upgrades", "product",
                                                         "next_product", "missiles",
                                                         "weapon")),
        "stock": sorted(Stock.objects.values_list("territory", "resource", "refined", "pure",
                                                  "units")),
        "units": sorted(Unit.objects.values_list("pk", "player", "territory", "pilot",
                                                 "extension")),
        "weapons": sorted(Weapon.objects.values_list("pk", "player", "territory", "unit",
                                                     "slot")),
        "operatives": sorted(Operative.objects.values_list("pk", "player", "territory",
                                                           "xp", "alive")),
        "unit_status": sorted(Unit.objects.values_list("pk", "status")),
        "names": sorted([*Unit.objects.values_list("pk", "name"),
                         *Operative.objects.values_list("pk", "name"),
                         *Weapon.objects.values_list("pk", "name")]),
        "artifacts": sorted(Artifact.objects.values_list("pk", "status", "laboratory")),
        "kits": sorted(BuildingKit.objects.values_list("pk", "player", "used_turn")),
        "shipments": Shipment.objects.count(),
        "trades": sorted(Trade.objects.values_list("pk", "status")),
        "events": Event.objects.count(),
    }
