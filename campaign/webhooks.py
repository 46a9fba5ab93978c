"""Webhooks that cannot be turned against the server (SSRF).

A campaign's `webhook_url` is typed by its umpire, and anyone may sign up and create a
campaign, so the server must never POST to its own loopback, the cloud metadata address
(169.254.169.254), the private network behind it, or anything else that is not a public
address. Rules:

- only `http://` and `https://` URLs with a host name, no user:password part;
- the host is resolved when the webhook is SAVED (a clear 400) and again when it is SENT;
  every address it resolves to must be public (not loopback, private, link-local,
  multicast, reserved, unspecified or shared address space), IPv4 and IPv6 alike;
- the request connects to the address that was checked (no second look-up between the
  check and the connection, so DNS rebinding cannot swap it), follows no redirects,
  gives up after `TIMEOUT_SECONDS` and reads at most `MAX_RESPONSE_BYTES` of the answer.

`WEBHOOK_ALLOWED_NETWORKS` (settings, from the environment) lists networks a site trusts
in addition (e.g. a league's own chat bridge on the LAN); empty by default.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import ssl
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

TIMEOUT_SECONDS = 5
MAX_RESPONSE_BYTES = 64 * 1024

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Iterable[str]]


class UnsafeWebhook(ValueError):
    """The URL is not one the server may call; the message says why, for a person."""


def system_resolver(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (IPv4 and IPv6)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False)
            for n in getattr(settings, "WEBHOOK_ALLOWED_NETWORKS", ()) or ()]


def is_public(address: Address) -> bool:
    """True for an address on the public internet."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (address.is_global and not address.is_multicast and not address.is_reserved
            and not address.is_loopback and not address.is_link_local
            and not address.is_private and not address.is_unspecified)


def _permitted(address: Address) -> bool:
    return is_public(address) or any(address in net for net in _allowed_networks())


def parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an acceptable URL, else UnsafeWebhook."""
    if not isinstance(url, str) or len(url) > 2000:
        raise UnsafeWebhook("The webhook must be a URL of at most 2000 characters.")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https"):
        raise UnsafeWebhook("The webhook must be an http:// or https:// URL.")
    if not parts.hostname:
        raise UnsafeWebhook("The webhook URL has no host name.")
    if parts.username or parts.password:
        raise UnsafeWebhook("The webhook URL must not carry a user name or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise UnsafeWebhook("The webhook URL has an invalid port.") from exc
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, parts.hostname, port, path


def checked_address(url: str, resolver: Resolver | None = None) -> tuple[str, str, int, str,
                                                                       str]:
    """Resolve the URL's host and check every address: (scheme, host, port, path, address
    to connect to). UnsafeWebhook when any address is not public or none is found."""
    scheme, host, port, path = parse(url)
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        found = [str(literal)]
    else:
        try:
            found = list((resolver or system_resolver)(host, port))
        except (OSError, UnicodeError) as exc:
            raise UnsafeWebhook(f"The webhook host {host!r} could not be resolved.") from exc
    if not found:
        raise UnsafeWebhook(f"The webhook host {host!r} could not be resolved.")
    for raw in found:
        address = ipaddress.ip_address(raw.split("%", 1)[0])
        if not _permitted(address):
            raise UnsafeWebhook(
                f"The webhook host {host!r} is not a public address ({address}): the "
                "server does not call loopback, private, link-local, multicast or "
                "reserved addresses.")
    return scheme, host, port, path, found[0]


def validate_webhook_url(url: str, resolver: Resolver | None = None) -> None:
    """On save: an empty value turns the webhook off; anything else must pass the checks."""
    if url == "":
        return
    checked_address(url, resolver)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        self._tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self._tls)
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        # The certificate is checked against the host name, not the pinned address.
        self.sock = self._tls.wrap_socket(sock, server_hostname=self.host)


def post_json(url: str, payload: dict[str, Any], *, resolver: Resolver | None = None,
              timeout: float = TIMEOUT_SECONDS) -> int:
    """POST `payload` as JSON to a checked address; returns the HTTP status (a redirect
    is returned as it is, never followed). UnsafeWebhook or OSError on failure."""
    scheme, host, port, path, address = checked_address(url, resolver)
    cls = _PinnedHTTPSConnection if scheme == "https" else _PinnedHTTPConnection
    conn = cls(host, port, address, timeout)
    try:
        conn.request("POST", path, body=json.dumps(payload).encode(),
                     headers={"Content-Type": "application/json",
                              "User-Agent": "unlimit3d-campaign"})
        answer = conn.getresponse()
        answer.read(MAX_RESPONSE_BYTES)
        return answer.status
    finally:
        conn.close()
