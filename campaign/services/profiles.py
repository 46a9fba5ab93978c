"""The signed-in user's preferences (time zone, e-mail notifications). Shared by the
profile page and `PATCH /api/profile/`. Preferences belong to no campaign, so no journal
event is written."""

from __future__ import annotations

import zoneinfo
from functools import lru_cache

from django.db import transaction

from campaign.errors import InvalidInput
from campaign.models import Profile


@lru_cache(maxsize=1)
def known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def profile_of(*, user) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def profile_update(*, user, time_zone: str | None = None,
                   email_notifications: bool | None = None) -> Profile:
    """Change what is given; an unknown time zone is refused (code `invalid_time_zone`)
    and changes nothing."""
    if time_zone is not None and time_zone not in known_time_zones():
        raise InvalidInput(f"'{time_zone}' is not a time zone name (like Europe/Paris).",
                           code="invalid_time_zone", fields={"time_zone": ["Unknown time zone."]})
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        fields = []
        if time_zone is not None:
            profile.time_zone = time_zone
            fields.append("time_zone")
        if email_notifications is not None:
            profile.email_notifications = email_notifications
            fields.append("email_notifications")
        if fields:
            profile.save(update_fields=fields)
    return profile
