"""Chat and push channels: where an address is checked, how it is kept secret, and how
a message is posted to it (issue 27, item 2).

A channel is an Apprise URL (https://github.com/caronc/apprise: one library for many
chat services), e.g. `discord://WEBHOOK_ID/TOKEN`, `ntfys://ntfy.example.org/topic`.
Only the transports in `TRANSPORTS` are accepted. The address is a secret (it carries
the service's token): it is kept encrypted with a key derived from SECRET_KEY and shown
back only as the service's name and its last characters.

The server must not be turned against itself (SSRF), so a transport whose URL names the
host it calls (Matrix, a self-hosted ntfy, a JSON web hook) has that host checked exactly
as a webhook's is (`campaign.webhooks.checked_address`: public addresses only, or the
site's WEBHOOK_ALLOWED_NETWORKS), when the channel is saved and again before each send.
Transports whose host is fixed (Discord, Slack, Telegram, ntfy.sh) call their service's
public address. `settings.CHANNELS_ALLOW_LOCAL` (False; tests only) lets a test reach a
receiver on 127.0.0.1.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

from campaign import webhooks

MAX_ADDRESS = 1000


class UnsafeChannel(ValueError):
    """The address is not one the server may post to; the message says why, for a person."""


@dataclass(frozen=True)
class Transport:
    label: str
    #: True when the URL's host part is the server called (checked like a webhook's)
    names_host: bool
    #: the URL the host check sees (its scheme: http or https)
    secure: bool = True


#: Apprise schemes accepted, with how the pages name them.
TRANSPORTS: dict[str, Transport] = {
    "discord": Transport("Discord", names_host=False),
    "slack": Transport("Slack", names_host=False),
    "tgram": Transport("Telegram", names_host=False),
    "matrix": Transport("Matrix", names_host=True, secure=False),
    "matrixs": Transport("Matrix", names_host=True),
    "ntfy": Transport("ntfy", names_host=True, secure=False),
    "ntfys": Transport("ntfy", names_host=True),
    "json": Transport("JSON web hook", names_host=True, secure=False),
    "jsons": Transport("JSON web hook", names_host=True),
}
SERVICES = sorted({t.label for t in TRANSPORTS.values()})


@dataclass(frozen=True)
class CheckedAddress:
    scheme: str
    label: str
    hint: str


def _allow_local() -> bool:
    return bool(getattr(settings, "CHANNELS_ALLOW_LOCAL", False))


def _apprise() -> Any:
    """Apprise, loaded by the process that first checks or sends a channel address rather
    than by every web worker at start (it and its plugins are a few MB; memory_bench,
    issue 32)."""
    import apprise  # noqa: PLC0415 (memory, see the docstring)

    return apprise


def _instantiate(url: str) -> Any:
    return _apprise().Apprise.instantiate(url, suppress_exceptions=True)


def check_address(url: str, resolver: webhooks.Resolver | None = None) -> CheckedAddress:
    """The transport and masked hint of an acceptable channel address, else UnsafeChannel
    with a sentence saying what is wrong. Resolves the host of a transport that names it."""
    if not isinstance(url, str) or not url.strip():
        raise UnsafeChannel("Give the channel's address, e.g. discord://WEBHOOK_ID/TOKEN.")
    url = url.strip()
    if len(url) > MAX_ADDRESS:
        raise UnsafeChannel(f"The address must be at most {MAX_ADDRESS} characters.")
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    transport = TRANSPORTS.get(scheme)
    if transport is None:
        known = ", ".join(f"{s}://" for s in TRANSPORTS)
        raise UnsafeChannel(f"The address must begin with one of {known} "
                            f"(Discord, Matrix, Slack, Telegram, ntfy or a JSON web hook).")
    plugin = _instantiate(url)
    if plugin is None:
        raise UnsafeChannel(f"This is not a valid {transport.label} address: see the "
                            "Apprise documentation for its form.")
    if transport.names_host and not (scheme.startswith("ntfy")
                                     and str(getattr(plugin, "mode", "")) == "cloud"):
        host = str(getattr(plugin, "host", "") or "")
        port = getattr(plugin, "port", None)
        target = f"{'https' if transport.secure else 'http'}://{_bracket(host)}" \
            + (f":{int(port)}" if port else "") + "/"
        if not _allow_local():
            try:
                webhooks.checked_address(target, resolver)
            except webhooks.UnsafeWebhook as exc:
                raise UnsafeChannel(str(exc).replace("webhook", "channel")) from exc
    return CheckedAddress(scheme=scheme, label=transport.label, hint=url[-4:])


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


# ---------------------------------------------------------------------------
# Kept secret: encrypted at rest
# ---------------------------------------------------------------------------


def _fernet() -> Any:
    digest = hashlib.sha256(b"unlimit3d-channels:" + settings.SECRET_KEY.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def encrypt(address: str) -> str:
    return str(_fernet().encrypt(address.encode()).decode())


def decrypt(token: str) -> str:
    """The address; ValueError when SECRET_KEY changed since it was saved."""
    try:
        return str(_fernet().decrypt(token.encode()).decode())
    except InvalidToken as exc:
        raise ValueError("the channel was saved under another SECRET_KEY") from exc


def masked(label: str, hint: str) -> str:
    """How a page shows a saved address: never in full."""
    return f"{label} address ending …{hint}"


# ---------------------------------------------------------------------------
# Sending (from Celery tasks only)
# ---------------------------------------------------------------------------


def send(address: str, title: str, body: str) -> bool:
    """Post one message; True when the service accepted it. The host is checked again
    (a name may since resolve elsewhere); redirects are not followed and a Matrix
    server's discovery (a `.well-known` answer naming another server) is off, so the
    checked host is the one called. Never raises for a delivery problem."""
    try:
        check_address(address)
    except UnsafeChannel:
        return False
    apprise = _apprise()
    plugin = apprise.Apprise.instantiate(address, suppress_exceptions=True,
                                         asset=apprise.AppriseAsset(http_redirects=False))
    if plugin is None:
        return False
    plugin.redirects = False
    if hasattr(plugin, "discovery"):
        plugin.discovery = False
    try:
        return bool(plugin.notify(title=title, body=body))
    except Exception:  # a transport's bug must not fail the job for the others
        return False
