"""Shared fixtures: named users (alice, bob, charlie; uma the umpire), API clients and
small campaigns built through the real services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(autouse=True)
def _reproducible_dice(settings) -> None:
    """The suite's campaigns roll reproducible dice (R-DICE-1, DICE_SECRETS =
    "campaign_seed"); tests of verifiable dice switch to real secrets themselves."""
    settings.DICE_SECRETS = "campaign_seed"


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    """Users are created in most tests (and logged in by some): Django's production hasher
    (PBKDF2, ~0.3 s of CPU a password) would dominate the suite's run time. Every directory
    gets the cheap hasher here, once, instead of a copy in each conftest."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_throttle_counts() -> None:
    """Throttle counts live in the cache (locmem in tests): each test starts with none."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_user(db) -> Callable[[str], Any]:
    def make(username: str):
        return get_user_model().objects.create_user(username=username, password=PASSWORD)

    return make


@pytest.fixture
def uma(make_user):
    return make_user("uma")


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie")


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """An API client authenticated with the user's token (as outside clients are)."""

    def make(user) -> APIClient:
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


LINE_MAP = {
    "nodes": ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"],
    "edges": [["Alpha", "Beta"], ["Beta", "Gamma"], ["Gamma", "Delta"], ["Delta", "Epsilon"]],
}


@pytest.fixture
def make_campaign(db) -> Callable[..., Any]:
    """Create a campaign in set-up through the service (explicit map by default)."""
    from campaign.services.campaigns import campaign_create

    def make(umpire, *, name: str = "Test league", map_spec: dict | None = None,
             options: dict | None = None, seed: int = 7):
        spec = dict(map_spec or LINE_MAP)
        return campaign_create(umpire=umpire, name=name, map_spec=spec, options=options,
                               seed=seed)

    return make
