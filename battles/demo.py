"""A demo league played by bots through the same services the API and pages call.

`play_demo_league` creates an umpire and four players, a generated map, starts the
campaign and lets simple seeded bots play N strategic turns: they build, buy, crew and
fit, activate, ship, move (sealed orders) and fight; battles run as jobs (in-process
without a broker) and the umpire's clock advances. Used by `manage.py demo` and so by
`make run`. Bots never bypass a rule: a refused action is logged and skipped.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
from django.contrib.auth import get_user_model
from django.db import transaction

from campaign.errors import GameError
from campaign.models import Campaign, Player
from campaign.services import clock
from campaign.services.campaigns import campaign_create, campaign_join
from campaign.services.setup import campaign_start
from economy.models import Operative, Stock, Unit, Weapon
from economy.services.buildings import building_create
from economy.services.commerce import purchase, shipment_create
from economy.services.energy import activation_set
from economy.services.grid import free_squares
from economy.services.units import unit_update
from orders.services.sealing import order_submit
from territories.models import Territory
from territories.services.movement import legal_destinations, movement_graph

log = logging.getLogger(__name__)

DEMO_PASSWORD = "unlimit3d-demo"
UMPIRE = "umpire"
PLAYERS = ("alice", "bob", "charlie", "dora")

# What a bot tries to buy on its home territory, in order, while it can pay.
SHOPPING: tuple[dict[str, Any], ...] = (
    {"kind": "operative", "class": "soldier"},
    {"kind": "vehicle", "model": "lycaon"},
    {"kind": "weapon", "weapon": "machine_gun", "templates": []},
    {"kind": "weapon", "weapon": "blaster", "templates": []},
)
BUILD_ORDER = ("warehouse", "mine_shaft", "warehouse")


@dataclass
class DemoReport:
    campaign: Campaign
    turns: int
    refused: list[str] = field(default_factory=list)


def ensure_user(username: str, password: str = DEMO_PASSWORD):
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model.objects.create_user(username=username, password=password)
    return user


class Bot:
    """One player's seeded habits."""

    def __init__(self, player: Player, rng: random.Random, report: DemoReport):
        self.player = player
        self.rng = rng
        self.report = report

    def attempt(self, what: str, action, **kwargs):
        try:
            with transaction.atomic():
                return action(**kwargs)
        except GameError as exc:
            self.report.refused.append(f"{self.player.user.username}: {what}: {exc.detail}")
            log.debug("demo bot refused %s: %s", what, exc.detail)
            return None

    def refresh(self) -> None:
        self.player = Player.objects.select_related("campaign", "user").get(pk=self.player.pk)

    def home(self):
        """The territory where purchases can land: one with a landing pad."""
        territories = self.player.territories.order_by("id")
        return (territories.filter(buildings__kind="landing_pad").first()
                or territories.first())

    # --- phases ---------------------------------------------------------------------
    def commercial(self) -> None:
        home = self.home()
        if home is None:
            return
        kinds = list(home.buildings.values_list("kind", flat=True))
        for index, kind in enumerate(BUILD_ORDER):
            if kinds.count(kind) < BUILD_ORDER[: index + 1].count(kind):
                x, y = free_squares(home)[0]
                self.attempt(f"build {kind}", building_create, player=self.player,
                             territory_id=home.pk, kind=kind, x=x, y=y)
                break
        for item in self.rng.sample(SHOPPING, k=len(SHOPPING)):
            self.attempt(f"buy {item}", purchase, player=self.player, territory_id=home.pk,
                         item=dict(item))
        containers = [
            {"resource": s.resource, "units": min(s.units, 10), "refined": s.refined}
            for s in Stock.objects.filter(territory=home, units__gt=0)[:5]
        ]
        if containers:
            self.attempt("ship", shipment_create, player=self.player, territory_id=home.pk,
                         containers=containers)

    def activity(self) -> None:
        for territory in self.player.territories.all():
            wanted: list[int] = []
            for building_id in territory.buildings.order_by("id").values_list("id", flat=True):
                trial = [*wanted, building_id]
                ok = self.attempt("activate", activation_set, player=self.player,
                                  territory_id=territory.pk, active=trial)
                if ok is not None:
                    wanted = trial
        free_pilots = list(Operative.objects.filter(player=self.player, alive=True,
                                                    unit__isnull=True))
        for unit in Unit.objects.filter(player=self.player, status=Unit.Status.READY):
            if unit.pilot_id is None and free_pilots:
                pilot = free_pilots.pop()
                if pilot.territory_id == unit.territory_id:
                    self.attempt("crew", unit_update, player=self.player, unit_id=unit.pk,
                                 pilot=pilot.pk)
            loose = list(Weapon.objects.filter(player=self.player, unit__isnull=True,
                                               territory=unit.territory_id)
                         .values_list("id", flat=True)[:1])
            if loose and not unit.weapons.exists():
                self.attempt("fit", unit_update, player=self.player, unit_id=unit.pk,
                             weapons=loose)

    def move(self) -> None:
        """Send each crewed unit one step toward the nearest enemy holding."""
        campaign = self.player.campaign
        graph = movement_graph(campaign)
        enemy = set(Territory.objects.filter(campaign=campaign, owner__isnull=False)
                    .exclude(owner=self.player).values_list("id", flat=True))
        distance = (nx.multi_source_dijkstra_path_length(graph, enemy) if enemy else {})
        own = set(self.player.territories.values_list("id", flat=True))
        for unit in Unit.objects.filter(player=self.player, status=Unit.Status.READY,
                                        pilot__isnull=False, territory__isnull=False):
            options = sorted(legal_destinations(self.player, unit)
                             - {unit.territory_id})
            if not options:
                continue
            best = min(distance.get(t, 99) for t in options)
            candidates = [t for t in options if distance.get(t, 99) == best]
            if best == 99:
                candidates = [t for t in options if t not in own] or options
            self.attempt("order", order_submit, player=self.player, unit_id=unit.pk,
                         destination_id=self.rng.choice(candidates))


def play_demo_league(*, turns: int = 3, seed: int = 8, territories: int = 24) -> DemoReport:
    """Create and play the demo league; returns what happened."""
    umpire = ensure_user(UMPIRE)
    users = [ensure_user(name) for name in PLAYERS]
    campaign = campaign_create(
        umpire=umpire, name="Demo league",
        map_spec={"generator": "hex", "territories": territories, "seed": seed},
        options={"commercial_seconds": 0, "activity_seconds": 0, "move_seconds": 0},
        seed=seed,
    )
    for user in users:
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    report = DemoReport(campaign=campaign, turns=turns)
    rng = random.Random(seed)
    bots = [Bot(p, random.Random(rng.random()), report)
            for p in Player.objects.filter(campaign=campaign).select_related("user", "campaign")]
    for _ in range(turns):
        for phase_action in ("commercial", "activity", "move"):
            for bot in bots:
                bot.refresh()
                getattr(bot, phase_action)()
            clock.advance(campaign_id=campaign.pk, by="umpire")
        # Tactical: battles ran as jobs when the phase opened (in-process without a
        # broker); the umpire closes the turn once they are recorded.
        try:
            clock.advance(campaign_id=campaign.pk, by="umpire")
        except GameError as exc:
            report.refused.append(f"umpire: advance out of tactical: {exc.detail}")
            break
    campaign.refresh_from_db()
    return report
