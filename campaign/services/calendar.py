"""Every deadline of a user's campaigns as an iCalendar feed (issue 17; API.md "History,
spectators, people": `calendar_url`, secret, answers `text/calendar`).

The feed's address holds a random token (`Profile.calendar_token`) instead of a login, so
calendar programs can poll it; anyone holding the address reads the user's deadlines and
nothing else. Written with the `icalendar` library (RFC 5545 folding, escaping and
dates are its business, not ours).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from icalendar import Calendar, Event

from campaign.access import campaigns_of
from campaign.models import Campaign, Profile
from campaign.services.profiles import profile_of, zone_of


def calendar_token(*, user: User) -> str:
    """The user's feed token, made on first use."""
    profile = profile_of(user=user)
    if profile.calendar_token:
        return profile.calendar_token
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile.pk)
        if not profile.calendar_token:
            profile.calendar_token = secrets.token_urlsafe(32)
            profile.save(update_fields=["calendar_token"])
    return profile.calendar_token


def calendar_rotate(*, user: User) -> str:
    """Revoke the user's feed address and make a new one (API.md "Reach and absence":
    `POST /api/users/me/calendar/rotate/`): the old address answers 404 from now on, as
    any address that never existed."""
    profile = profile_of(user=user)
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(pk=profile.pk)
        profile.calendar_token = secrets.token_urlsafe(32)
        profile.save(update_fields=["calendar_token"])
    return profile.calendar_token


def calendar_url(*, user: User, absolute: Callable[[str], str]) -> str:
    """The user's feed address, made absolute by `absolute` (a request's
    `build_absolute_uri`)."""
    return str(absolute(reverse("calendar-feed", args=[calendar_token(user=user)])))


def feed_for_token(token: str) -> bytes | None:
    """The iCalendar text of the feed with this token (None: no such feed)."""
    profile = (Profile.objects.filter(calendar_token=token).select_related("user").first()
               if token else None)
    if profile is None:
        return None
    cal = Calendar()
    cal.add("prodid", "-//Unlimit3d campaign manager//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"Campaign deadlines of {profile.user.get_username()}")
    running = (campaigns_of(profile.user).filter(status=Campaign.Status.RUNNING,
                                                 phase_deadline__isnull=False)
               .order_by("phase_deadline", "pk"))
    # Times in the reader's zone (issue 27), with its VTIMEZONE, so a calendar shows the
    # deadline at the wall time the pages show it at.
    zone = zone_of(profile.time_zone)
    for campaign in running:
        event = Event()
        phase = campaign.get_phase_display() if campaign.phase else ""
        if campaign.phase_deadline is None:  # not running: no deadline to show
            continue
        deadline = campaign.phase_deadline.astimezone(zone)
        event.add("uid", f"campaign-{campaign.pk}-turn-{campaign.turn}-{campaign.phase}"
                         "@unlimit3d")
        event.add("summary", f"{campaign.name}: {phase} phase of turn {campaign.turn} ends")
        event.add("dtstart", deadline)
        event.add("dtend", deadline)
        event.add("dtstamp", campaign.phase_deadline)
        event.add("description", f"The {phase.lower()} phase of turn {campaign.turn} of "
                                 f"{campaign.name} ends {deadline:%A %d %B at %H:%M} "
                                 f"({profile.time_zone}). Give your orders and say you "
                                 "are ready before then.")
        event.add("url", f"{settings.SITE_URL}/campaigns/{campaign.pk}/")
        cal.add_component(event)
    cal.add_missing_timezones()
    ical: bytes = cal.to_ical()
    return ical

