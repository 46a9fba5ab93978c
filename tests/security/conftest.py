"""Security fixtures: cheap password hashing (users are created per test)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
