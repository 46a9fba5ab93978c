"""Battle plans on the orders page (issue 29): the player's plans of this turn and their
standing plan, a form to seal one (move phase), and withdrawing one. The plans are
sealed like the orders beside them: only their player sees them on any page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from campaign.access import Membership
from campaign.models import Player
from campaign.pages.common import attempt, campaign_page, seat
from economy.models import Unit
from orders.models import BattlePlan, Order
from orders.selectors import plans_of
from orders.services.plans import (
    PlanChoice,
    plan_set,
    plan_withdraw,
    standing_plan_set,
    standing_plan_withdraw,
)
from territories.models import Territory

STANDING = "standing"
RETREAT_CHOICES = [(100, "Fight to the end"), (75, "After losing three quarters"),
                   (50, "After losing half"), (25, "After losing a quarter"),
                   (10, "At the first real losses")]


class PlanForm(forms.Form):
    where = forms.ChoiceField(label="For the battle at")
    stance = forms.ChoiceField(label="Stance", choices=BattlePlan.Stance.choices,
                               widget=forms.RadioSelect, initial=BattlePlan.Stance.ATTACK)
    retreat_at = forms.TypedChoiceField(
        label="Withdraw", choices=RETREAT_CHOICES, coerce=int, initial=100,
        help_text="The share of your force's starting strength whose loss makes it withdraw "
        "by the rules' retreat.")
    focus = forms.ChoiceField(label="Shoot first at", choices=BattlePlan.Focus.choices,
                              initial=BattlePlan.Focus.NEAREST)

    def __init__(self, *args: Any, places: list[tuple[str, str]], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "plan")
        super().__init__(*args, **kwargs)
        where = self.fields["where"]
        assert isinstance(where, forms.ChoiceField)
        where.choices = [(STANDING, "Every battle without its own plan"), *places]


def places_to_plan(player: Player, names: dict[int, str]) -> list[tuple[str, str]]:
    """Where the player may fight this turn: what they hold, where their units are, and
    where their orders go (the same test as the service's), by name."""
    turn = player.campaign.turn
    ids = set(Territory.objects.filter(owner=player).values_list("pk", flat=True))
    ids |= set(Unit.objects.filter(player=player, territory__isnull=False)
               .exclude(status=Unit.Status.DESTROYED).values_list("territory_id", flat=True))
    ids |= set(Order.objects.filter(player=player, turn=turn, status=Order.Status.OPEN)
               .values_list("destination_id", flat=True))
    return sorted(((str(pk), names[pk]) for pk in ids if pk in names), key=lambda p: p[1])


def plans_context(member: Membership, names: dict[int, str], *, move_phase: bool,
                  data: Any = None) -> dict[str, Any]:
    player = member.player
    if player is None:
        return {}
    plans = plans_of(player)
    shown = [{"where": names.get(p.territory_id, "") if p.territory_id else None,
              "territory": p.territory_id, "stance": p.get_stance_display(),
              "retreat_at": p.retreat_at, "focus": p.get_focus_display()} for p in plans]
    context: dict[str, Any] = {"plans": shown}
    if move_phase:
        context["plan_form"] = PlanForm(data, places=places_to_plan(player, names))
    return context


@require_POST
@campaign_page
def plan_save(request: HttpRequest, member: Membership) -> HttpResponse:
    player = seat(member)
    names = dict(Territory.objects.filter(campaign=member.campaign).values_list("pk", "name"))
    form = PlanForm(request.POST, places=places_to_plan(player, names))
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else field
            messages.error(request, f"{label}: {' '.join(str(e) for e in errors)}")
        return redirect("orders", member.campaign.pk)
    data = form.cleaned_data
    choice = PlanChoice(stance=data["stance"], retreat_at=data["retreat_at"],
                        focus=data["focus"])
    if data["where"] == STANDING:
        attempt(request, lambda: standing_plan_set(player=player, choice=choice),
                success="Standing plan sealed: nobody else sees it before your battles "
                        "are over.")
    else:
        where = int(data["where"])
        attempt(request, lambda: plan_set(player=player, territory_id=where, choice=choice),
                success=f"Plan for {names.get(where, 'that territory')} sealed: nobody else "
                        "sees it before the battle is over.")
    return redirect("orders", member.campaign.pk)


@require_POST
@campaign_page
def plan_remove(request: HttpRequest, member: Membership, where: str) -> HttpResponse:
    player = seat(member)
    if where == STANDING:
        attempt(request, lambda: standing_plan_withdraw(player=player),
                success="Standing plan withdrawn.")
    elif where.isdigit():
        attempt(request, lambda: plan_withdraw(player=player, territory_id=int(where)),
                success="Plan withdrawn: your standing plan (if any) decides that battle.")
    return redirect("orders", member.campaign.pk)
