"""Sealed battle plans (issue 29, API.md "Battle plans (wave 3)").

A player seals, in the move phase, how their force fights at a territory where they may
fight this turn (they hold it, have units there, or an order to it): its stance, the share
of its starting strength whose loss makes it withdraw, and which enemy it shoots first.
A standing plan (no territory) covers every battle of theirs without a plan of its own;
without any plan a side fights as its ruleset's default player does. Every ruleset
honours the same plan (`battles.rulesets.base.Plan`; each ruleset's rulings say how).

Secrecy is the orders' (R-ORD-1..3): every refusal depends only on the player's own
units, orders and plans and on the public map and phase; nothing is journaled; no count
of plans is shown to anyone but their player.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from campaign import sql
from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Campaign, Phase, Player
from campaign.services.locking import retry_on_conflict
from campaign.services.phase_lock import share_lock_in_phase
from orders.models import BattlePlan
from orders.selectors import battlefield_for_plan

NO_SUCH_TERRITORY = "No such territory in this campaign."
NO_PLAN = "You have no battle plan for that territory this turn."


@dataclass(frozen=True)
class PlanChoice:
    """A plan as given: validated by the API's serializer or the page's form."""

    stance: str = BattlePlan.Stance.ATTACK
    retreat_at: int = 100
    focus: str = BattlePlan.Focus.NEAREST


def _check_battlefield(player: Player, campaign: Campaign, territory_id: int) -> None:
    found = battlefield_for_plan(player=player, campaign=campaign,
                                 territory_id=territory_id)
    if found is None:
        raise NotFound(NO_SUCH_TERRITORY)
    name, may_fight = found
    if not may_fight:
        raise InvalidInput(f"You have nothing at {name}: you do not hold it, have no units "
                           "there and no order to it this turn, so you cannot fight there.",
                           code="nothing_there", fields={"territory": ["Nothing of yours."]})


def _upsert_plan(player: Player, campaign: Campaign, territory_id: int,
                 choice: PlanChoice) -> BattlePlan:
    """The plan written in one statement (`INSERT ... ON CONFLICT DO UPDATE ...
    RETURNING`, PostgreSQL and SQLite from 3.35), on the unique index of one plan per
    player, turn and battlefield: a replaced plan keeps its row; two PUTs of one player
    at once end with one of them, never two rows."""
    now = timezone.now()
    row = sql.fetch_one(
        f"INSERT INTO {sql.table(BattlePlan)} (campaign_id, player_id, territory_id, turn, "
        "stance, retreat_at, focus, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (player_id, turn, territory_id) WHERE territory_id IS NOT NULL "
        "DO UPDATE SET campaign_id = EXCLUDED.campaign_id, stance = EXCLUDED.stance, "
        "retreat_at = EXCLUDED.retreat_at, focus = EXCLUDED.focus, "
        "updated_at = EXCLUDED.updated_at RETURNING id",
        [campaign.pk, player.pk, territory_id, campaign.turn, choice.stance,
         choice.retreat_at, choice.focus, now])
    assert row is not None  # an upsert always returns its row
    return BattlePlan(pk=row[0], campaign_id=campaign.pk, player_id=player.pk,
                      territory_id=territory_id, turn=campaign.turn, stance=choice.stance,
                      retreat_at=choice.retreat_at, focus=choice.focus, updated_at=now)


@retry_on_conflict
def plan_set(*, player: Player, territory_id: int, choice: PlanChoice) -> BattlePlan:
    """Seal (or replace) the player's plan for the battles at `territory_id` this turn.
    Move phase only (409 `wrong_phase`). Three statements: the campaign share-locked,
    the battlefield checked, the plan upserted."""
    with transaction.atomic():
        campaign = share_lock_in_phase(player, Phase.MOVE, "Battle plans are given")
        _check_battlefield(player, campaign, territory_id)
        return _upsert_plan(player, campaign, territory_id, choice)


@retry_on_conflict
def standing_plan_set(*, player: Player, choice: PlanChoice) -> BattlePlan:
    """Seal (or replace) the player's standing plan: any phase of a running campaign; it
    decides the battles opened after it (a battle keeps the plans it was opened with)."""
    with transaction.atomic():
        campaign = player.campaign
        if campaign.status != Campaign.Status.RUNNING:  # set-up or over: no battles to plan
            raise Conflict("Battle plans are given while the campaign is running.",
                           code="wrong_phase")
        plan, _ = BattlePlan.objects.update_or_create(
            player=player, territory=None,
            defaults={"campaign": campaign, "turn": None, "stance": choice.stance,
                      "retreat_at": choice.retreat_at, "focus": choice.focus})
    return plan


@retry_on_conflict
def plan_withdraw(*, player: Player, territory_id: int) -> None:
    """Withdraw the player's plan for `territory_id` this turn (move phase); the
    standing plan (if any) then decides that battle."""
    with transaction.atomic():
        campaign = share_lock_in_phase(player, Phase.MOVE, "Battle plans are withdrawn")
        deleted, _ = BattlePlan.objects.filter(player=player, turn=campaign.turn,
                                               territory_id=territory_id).delete()
        if not deleted:
            raise NotFound(NO_PLAN)


def standing_plan_withdraw(*, player: Player) -> None:
    deleted, _ = BattlePlan.objects.filter(player=player, territory=None).delete()
    if not deleted:
        raise NotFound("You have no standing battle plan.")
