"""Claiming an imported seat (issue 30.1; API.md "Trust (wave 3)": `POST
/api/campaigns/{id}/claim/ {"code"}`, the page `/campaigns/<id>/claim/`).

An import seats nobody but its umpire: each seat waits, held by a placeholder account
that cannot sign in, under a claim code only the umpire reads. Whoever gives the code
takes the seat (its units, credits, journal and faction), and the placeholder goes.
Someone who already has a seat in the campaign cannot take a second one (409); a code
that opens no seat of the campaign is a 404, as is a campaign that does not exist, so a
guess learns nothing."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Campaign, Player
from campaign.services.journal import record_event


def clean_code(code: str) -> str:
    if not code.strip() or len(code) > 64:
        raise InvalidInput("Enter the claim code the umpire gave you.", code="invalid_code",
                           fields={"code": "Enter the claim code the umpire gave you."})
    return code.strip()


def claim_seat(*, campaign_id: int, user: User, code: str) -> Player:
    """`user` takes the unclaimed seat whose code is `code`."""
    code = clean_code(code)
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
        if campaign is None:
            raise NotFound("No such campaign.")
        if Player.objects.filter(campaign=campaign, user=user).exists():
            raise Conflict("You already have a seat in this campaign: one seat each.",
                           code="already_seated")
        seat = None
        for candidate in (Player.objects.select_for_update()
                          .filter(campaign=campaign).exclude(claim_code="")):
            if secrets.compare_digest(candidate.claim_code.encode(), code.encode()):
                seat = candidate
        if seat is None:
            raise NotFound("No seat of this campaign waits for that code: check it with "
                           "the umpire.", code="no_such_seat")
        placeholder = seat.user
        seat.user = user
        seat.claim_code = ""
        try:
            seat.save(update_fields=["user", "claim_code"])
        except IntegrityError as exc:  # a parallel claim by the same user
            raise Conflict("You already have a seat in this campaign: one seat each.",
                           code="already_seated") from exc
        try:
            with transaction.atomic():
                placeholder.delete()
        except ProtectedError:
            pass  # something still names it; it cannot sign in either way
        record_event(campaign=campaign, kind="seat_claimed",
                     data={"player": seat.pk, "username": user.get_username(),
                           "seat": placeholder.first_name})
    return seat
