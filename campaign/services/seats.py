"""Seats: the turns a player missed (R-ORD-6) and a seat handed to another user (R-ORD-7).

Who gave orders is the `orders` app's to say: its hook on leaving the move phase
(`orders.services.missed_turns`) passes the seats that did to `record_missed_turns`,
which writes the seats (the core's rows) and the umpire's entry."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from campaign.bulk import bulk_set
from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Campaign, Event, Player
from campaign.services.journal import record_event


def record_missed_turns(*, campaign: Campaign, ordered: Collection[int]) -> None:
    """On leaving the move phase: a player who gave no order (`ordered`: the ids of the
    seats that gave one this turn) and did not mark ready missed the turn; the count
    resets otherwise. One umpire entry lists the misses and who
    reached the alert threshold (R-ORD-6); each player reads their own count in the
    sealed journal entry the reveal writes for them. A sandbox has one person at every
    seat and no deadlines: nobody misses anything there."""
    if campaign.is_sandbox:
        return
    alert_at = campaign.settings.missed_turns_alert
    missed: list[dict[str, Any]] = []
    alerts: list[dict[str, Any]] = []
    changed: list[Player] = []
    # An unclaimed (imported) seat has nobody to miss a turn (docs/RULINGS.md).
    for player in (Player.objects.select_for_update(of=("self",))
                   .filter(campaign=campaign, claim_code="").select_related("user")):
        if player.ready or player.pk in ordered:
            if player.missed_turns:
                player.missed_turns = 0
                changed.append(player)
            continue
        count = player.missed_turns + 1
        player.missed_turns = count
        changed.append(player)
        entry = {"player": player.pk, "username": player.user.get_username(),
                 "missed_turns": count}
        missed.append(entry)
        if count >= alert_at:
            alerts.append(entry)
    if changed:  # one statement for every seat
        bulk_set(changed, ["missed_turns"])
    record_event(campaign=campaign, kind="missed_turns",
                 data={"missed": missed, "alert": alerts, "alert_at": alert_at},
                 visibility=Event.Visibility.UMPIRE)


def seat_handover(*, campaign: Campaign, player_id: int, username: str) -> Player:
    """The umpire hands a seat (its territories, units, credits and orders) to another
    user (R-ORD-7)."""
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        player = Player.objects.select_for_update().filter(pk=player_id,
                                                           campaign=locked).first()
        if player is None:
            raise NotFound("No such player.")
        if user is None or not user.is_active:  # an imported seat's placeholder is none
            raise InvalidInput("No user with that name.", code="unknown_user",
                               fields={"username": ["No user with that name."]})
        if player.claim_code:  # R-SEC-3: nobody is seated without claiming
            raise Conflict("This imported seat waits for its claim code: send the code "
                           "on the umpire console to its player, who claims it.",
                           code="seat_unclaimed")
        held = Player.objects.filter(campaign=locked, user=user).first()
        # a removed player may be given their own seat back (R-ORD-11)
        if held is not None and not (held.pk == player.pk and player.removed_at is not None):
            raise Conflict("That user already has a seat in this campaign.",
                           code="already_joined")
        previous = player.user.get_username()
        player.user = user
        player.missed_turns = 0
        player.ready = False
        update = ["user", "missed_turns", "ready"]
        if player.removed_at is not None:  # a removed seat is played again (R-ORD-11)
            player.removed_at = None
            player.notifications = True
            update += ["removed_at", "notifications"]
        player.save(update_fields=update)
        record_event(campaign=locked, kind="seat_handed_over",
                     data={"player": player.pk, "from": previous,
                           "to": user.get_username()})
    return player

