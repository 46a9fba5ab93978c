"""Calling the API as a role, inside a savepoint that is rolled back (so every cell of
the matrix sees the same campaign), and classifying answers."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.security.world import ROLE_USER, World, nothing_changed_snapshot, users

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def api_routes() -> dict[tuple[str, str], str]:
    """Every (url name, method) served under /api/, from the resolver itself."""
    found: dict[tuple[str, str], str] = {}

    def walk(patterns: list, prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                route = prefix + str(p.pattern)
                if not route.startswith("api/"):
                    continue
                view = getattr(p.callback, "view_class", None) or getattr(p.callback, "cls",
                                                                           None)
                assert view is not None, f"{route}: not a class-based view"
                assert p.name, f"{route}: every API route needs a name"
                for method in METHODS:
                    if hasattr(view, method.lower()):
                        found[(p.name, method)] = route

    walk(get_resolver().url_patterns, "")
    return found


_clients: dict[str, APIClient] = {}


def client(role: str) -> APIClient:
    api = APIClient()
    if role in ROLE_USER:
        user = users()[ROLE_USER[role]]
        token, _ = Token.objects.get_or_create(user=user)
        api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


@dataclass
class Answer:
    status: int
    body: str
    changed: bool = False

    @property
    def cls(self) -> str:
        return "2xx" if 200 <= self.status < 300 else str(self.status)

    def json(self) -> Any:
        return json.loads(self.body)


def call(api: APIClient, method: str, path: str, body: Any = None, *,
         raw: bytes | str | None = None, content_type: str = "application/json",
         watch: bool = False) -> Answer:
    """One request, rolled back afterwards. With `watch`, also says whether the
    request changed anything before the rollback. Throttle counts are cleared first:
    these tests are about permissions and input (throttling has tests of its own)."""
    cache.clear()
    with transaction.atomic():
        before = nothing_changed_snapshot() if watch else None
        if raw is not None:
            data: bytes | str = raw
        elif body is None:
            data = ""
        else:
            data = json.dumps(body)
        response = api.generic(method, path, data=data, content_type=content_type)
        changed = watch and nothing_changed_snapshot() != before
        transaction.set_rollback(True)
    return Answer(response.status_code, response.content.decode(errors="replace"), changed)


def assert_error_shape(answer: Answer, context: object) -> None:
    """API.md: every error body is {"code", "detail"} (validation may add "fields")."""
    try:
        body = answer.json()
    except ValueError:
        raise AssertionError(f"{context}: error body is not JSON: {answer.body[:200]}") from None
    assert isinstance(body, dict), (context, body)
    assert {"code", "detail"} <= set(body) <= {"code", "detail", "fields"}, (context, body)
    assert isinstance(body["code"], str) and body["code"], (context, body)
    assert isinstance(body["detail"], str) and body["detail"], (context, body)


_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")


def normalise(body: str) -> str:
    """Timestamps vary between two observations; nothing else may."""
    return _TIME.sub("<time>", body)


def world_for(role: str, worlds: dict[str, World]) -> World:
    return worlds["plays" if role == "plays" else "plain"]
