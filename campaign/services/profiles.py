"""The signed-in user's preferences (time zone, e-mail notifications). Shared by the
profile page and `PATCH /api/profile/`. Preferences belong to no campaign, so no journal
event is written."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction

from campaign.errors import InvalidInput
from campaign.models import Profile


@lru_cache(maxsize=1)
def zone_of(name: str) -> zoneinfo.ZoneInfo:
    """The zone a user's `time_zone` names; UTC for an empty or unknown name."""
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def known_time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def profile_of(*, user: User) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def profile_update(*, user: User, time_zone: str | None = None,
                   email_notifications: bool | None = None,
                   muted_kinds: list[str] | None = None,
                   digest: bool | None = None) -> Profile:
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
        if muted_kinds is not None:
            from campaign.services.notifications import KINDS  # noqa: PLC0415 (cycle: campaign.services.profiles -> campaign.services.notifications -> campaign.services.profiles)

            unknown = sorted(set(muted_kinds) - set(KINDS))
            if unknown:
                raise InvalidInput(f"Unknown notification kind(s): {', '.join(unknown)}.",
                                   code="invalid_kinds")
            profile.muted_kinds = sorted(set(muted_kinds))
            fields.append("muted_kinds")
        if digest is not None:
            profile.digest = digest
            fields.append("digest")
        if fields:
            profile.save(update_fields=fields)
    return profile


VERIFY_SALT = "campaign.verify-email"
#: A verification link works for three days.
VERIFY_MAX_AGE = 3 * 24 * 3600


def email_verified(user: User | AnonymousUser) -> bool:
    if isinstance(user, AnonymousUser):
        return False
    email = getattr(user, "email", "") or ""
    return bool(email) and Profile.objects.filter(user=user, email_verified=email).exists()


def verification_token(user: User) -> str:
    return signing.dumps({"u": user.pk, "e": user.email}, salt=VERIFY_SALT)


def send_verification(*, user: User, link_for: Callable[[str], str]) -> bool:
    """Mail a link that proves the user reads `user.email` (`link_for(token)` makes the
    absolute address). False when there is no address to verify."""
    if not getattr(user, "email", ""):
        return False
    link = link_for(verification_token(user))
    send_mail("Confirm your email address",
              f"Hello {user.get_username()},\n\nopen this link to receive your campaigns' "
              f"deadlines and results by email:\n\n{link}\n\nIt works for three days. If "
              "you did not ask for it, ignore this message.\n",
              settings.DEFAULT_FROM_EMAIL, [user.email])
    return True


def verify_email(*, token: str) -> Profile:
    """Open a verification link: the address it names becomes verified, if it is still
    the user's address. A bad, expired or outdated link is refused and changes nothing."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.SignatureExpired:
        raise InvalidInput("This link has expired: ask for a new one on your profile.",
                           code="link_expired") from None
    except signing.BadSignature:
        raise InvalidInput("This link is not valid.", code="invalid_link") from None
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None or user.email != data.get("e"):
        raise InvalidInput("This link is for an address you no longer use: ask for a new "
                           "one on your profile.", code="invalid_link")
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
        profile.email_verified = user.email
        profile.save(update_fields=["email_verified"])
    return profile


def email_update(*, user: User, email: str) -> bool:
    """Change the user's address; True when it changed (it must then be verified)."""
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidInput(f"'{email[:80]}' is not an email address.",
                               code="invalid_email", fields={"email": ["Not an address."]}) \
                from None
    if email == user.email:
        return False
    user.email = email
    user.save(update_fields=["email"])
    return True
