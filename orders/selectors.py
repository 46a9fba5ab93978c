"""What a member of a campaign may read of sealed orders: decided here, once, at the
queryset. Every view, page and export reads orders through `orders_visible_to`, so a
list, a count, a detail lookup and an error path all see the same rows.

* a player sees every order of their own seat, in full;
* the umpire sees every order in full only when the campaign lets the umpire read
  orders and the umpire does not play (`Membership.may_read_sealed`);
* everybody else sees, once the tactical phase of that turn has begun, only what the
  seed reveals: "You only have to announce which territories you move if your units
  finish their move on a territory that isn't yours, and don't have to reveal which of
  the units was moved" -- one row per (turn, player, destination) of an announced
  move, without the unit, origin or number of units (R-ORD-2).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.db import connection
from django.db.models import (
    BooleanField,
    Case,
    Count,
    Min,
    Q,
    QuerySet,
    Value,
    When,
)

from campaign import sql
from campaign.access import Membership
from campaign.models import Campaign, Phase, Player
from economy.models import Unit
from orders.models import BattlePlan, Order
from territories.models import Territory


def _revealed_turns(member: Membership) -> Q:
    """Turns whose tactical phase has begun (the reveal happens when it opens)."""
    campaign = member.campaign
    if campaign.phase == Phase.TACTICAL:
        return Q(turn__lte=campaign.turn)
    return Q(turn__lt=campaign.turn)


def orders_visible_to(member: Membership) -> QuerySet[Order]:
    """The orders `member` may read, each annotated `full` (True: every field may be
    shown; False: only turn, player and destination of an announced move)."""
    base = Order.objects.filter(campaign=member.campaign).select_related("unit")
    if member.may_read_sealed:
        return base.annotate(full=Value(True, output_field=BooleanField()))
    # (player IS NULL never holds: a member without a seat owns no order)
    own = Q(player=member.player) if member.player is not None else Q(player__isnull=True)
    # One representative row per announced (turn, player, destination): the count of
    # rows must not tell how many units went there.
    representatives = (
        Order.objects.filter(campaign=member.campaign, announced=True,
                             status=Order.Status.EXECUTED)
        .filter(_revealed_turns(member))
        .values("turn", "player", "destination")
        .annotate(rep=Min("id"))
        .values("rep")
    )
    revealed = Q(pk__in=representatives)
    return base.filter(own | revealed).annotate(
        full=Case(When(own, then=Value(True)), default=Value(False),
                  output_field=BooleanField())
    )


def players_with_orders(campaign: Campaign) -> set[int]:
    """The seats that gave an order this turn (missed turns, R-ORD-6)."""
    return set(Order.objects.filter(campaign=campaign, turn=campaign.turn)
               .values_list("player_id", flat=True))


def sealed_counts(campaign: Campaign) -> dict[int, int]:
    """{player id: orders sealed this turn} (the umpire's seats table, move phase)."""
    return dict(Order.objects.filter(campaign=campaign, turn=campaign.turn,
                                     status=Order.Status.OPEN)
                .order_by().values("player_id").annotate(n=Count("id"))
                .values_list("player_id", "n"))


def plans_of(player: Player) -> list[BattlePlan]:
    """The player's own plans: the standing one and this turn's (nobody else reads them
    before the battles they decide are over)."""
    turn = player.campaign.turn
    return list(BattlePlan.objects.filter(player=player)
                .filter(Q(territory__isnull=True) | Q(turn=turn))
                .select_related("territory").order_by("territory__name"))


class TurnPlans:
    """Every plan that may decide a battle of one turn, read once (one query for the whole
    tactical phase, however many battles it opens): `at(territory, players)` answers, per
    player, the plan for that battlefield, else the player's standing plan."""

    def __init__(self, *, campaign_id: int, turn: int,
                 players: Iterable[int] | None = None) -> None:
        rows = BattlePlan.objects.filter(campaign_id=campaign_id).filter(
            Q(territory__isnull=True) | Q(turn=turn))
        if players is not None:
            rows = rows.filter(player_id__in=list(players))
        self.standing: dict[int, BattlePlan] = {}
        self.placed: dict[tuple[int, int], BattlePlan] = {}
        for plan in rows:
            if plan.territory_id is None:
                self.standing[plan.player_id] = plan
            else:
                self.placed[(plan.player_id, plan.territory_id)] = plan

    def at(self, territory_id: int, player_ids: Iterable[int]) -> dict[int, BattlePlan]:
        chosen = {}
        for pid in player_ids:
            plan = self.placed.get((pid, territory_id)) or self.standing.get(pid)
            if plan is not None:
                chosen[pid] = plan
        return chosen


@functools.cache
def _battlefield_statement(vendor: str) -> str:
    """The statement of `battlefield_for_plan`, built once per database vendor."""
    return (f"SELECT t.name, (t.owner_id = %s OR EXISTS (SELECT 1 FROM {sql.table(Unit)} u "
            "WHERE u.player_id = %s AND u.territory_id = t.id AND u.status <> %s) "
            f"OR EXISTS (SELECT 1 FROM {sql.table(Order)} o WHERE o.player_id = %s "
            "AND o.turn = %s AND o.destination_id = t.id AND o.status = %s)) "
            f"FROM {sql.table(Territory)} t WHERE t.campaign_id = %s AND t.id = %s")


def battlefield_for_plan(*, player: Player, campaign: Campaign, territory_id: int
                         ) -> tuple[str, bool] | None:
    """(name, whether the player may fight there) of a territory of the campaign, or None
    when it has none by that id: the player holds it, has units there (not destroyed) or
    an open order to it this turn. One statement, sent as text (`campaign.sql`: the ORM's
    formulation, `Exists` annotations, took half of a plan PUT's CPU); it reads only the
    player's own units and orders (R-ORD-1..3)."""
    row = sql.fetch_one(_battlefield_statement(connection.vendor), [
        player.pk, player.pk, Unit.Status.DESTROYED.value, player.pk, campaign.turn,
        Order.Status.OPEN.value, campaign.pk, territory_id])
    return (row[0], bool(row[1])) if row else None
