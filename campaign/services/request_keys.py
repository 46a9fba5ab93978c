"""Umpire actions that would apply twice if repeated carry a request key (issue 19.2).

`claim(campaign_id=..., key=...)` inside the action's transaction: the first request with
a key proceeds; a repeat of it (double click, retry, two tabs) is refused with 409
`already_applied` and changes nothing; a request without a key is refused with 428.
"""

from __future__ import annotations

import re

from django.db import IntegrityError, transaction

from campaign.errors import Conflict, InvalidInput, PreconditionRequired
from campaign.models import RequestKey

_KEY = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")


def clean_key(value: object) -> str:
    if value in (None, ""):
        raise PreconditionRequired(
            "Send a \"request_id\" (8 to 64 letters, digits or -_.:, e.g. a UUID) chosen "
            "for this action, so that a repeated request cannot apply it twice.")
    if not isinstance(value, str) or not _KEY.match(value):
        raise InvalidInput("'request_id' must be 8 to 64 letters, digits or -_.:",
                           fields={"request_id": ["8 to 64 letters, digits or -_.:"]})
    return value


def claim(*, campaign_id: int, key: object) -> None:
    """Record the key for this campaign; call inside the action's transaction."""
    cleaned = clean_key(key)
    try:
        with transaction.atomic():
            RequestKey.objects.create(campaign_id=campaign_id, key=cleaned)
    except IntegrityError as exc:
        raise Conflict("This request was already applied (same request_id); nothing "
                       "changed.", code="already_applied") from exc
