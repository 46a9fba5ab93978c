"""One world per phase for a whole module (issue 32, item 7).

The matrices (permission, ids, bad input, differential secrecy) built their campaigns
again in every test, each from set-up to its phase: the permission matrix alone built
21 phases of two campaigns for its six tests. Here a module's campaigns are built once,
inside a transaction of the module's own, and taken on phase by phase between its tests
(`advance_world`: the same services in the same order as `build_world`); each test still
runs in its own savepoint, rolled back after it, so every test starts from exactly the
world it would have built, and nothing of it outlives the module.

A module using `worlds` names the configurations it needs (`CONFIGS`) and parametrizes
its tests with the phase, indirectly: `@pytest.mark.parametrize("worlds", PHASES,
indirect=True)`. pytest then runs the module's tests phase after phase; its tests carry
an `xdist_group` mark (the module's name) so that under `make test` (`--dist loadgroup`)
they run in one worker, in that order. A phase asked for after a later one (a single
test picked by hand, say) rebuilds from set-up, so the order is a matter of speed only.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings

from tests.security.world import PHASES, World, advance_world, new_world


class Progression:
    """The module's campaigns (one per configuration), in the latest phase asked for."""

    def __init__(self, configs: tuple[str, ...]) -> None:
        self.configs = configs
        self.worlds: dict[str, World] = {}
        self.start = transaction.savepoint()  # before any campaign of the module

    def at(self, phase: str) -> dict[str, World]:
        if self.worlds and PHASES.index(phase) < PHASES.index(
                next(iter(self.worlds.values())).phase):
            transaction.savepoint_rollback(self.start)  # back to no campaign at all
            self.worlds = {}
        if not self.worlds:
            self.worlds = {config: new_world(config=config) for config in self.configs}
        for world in self.worlds.values():
            advance_world(world, phase)
        cache.clear()  # throttle counts of the build are no test's business
        return dict(self.worlds)


@contextmanager
def _building(django_db_blocker) -> Iterator[None]:
    """Database access, and the settings the suite's autouse fixtures give every test
    (tests/conftest.py), which do not reach a module-scoped fixture."""
    with override_settings(DICE_SECRETS="campaign_seed",
                           PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
                           ), django_db_blocker.unblock():
        yield


@pytest.fixture(scope="module")
def _progression(request, django_db_setup, django_db_blocker) -> Iterator[Progression]:
    """The module's transaction: opened before its first world, rolled back after its
    last test."""
    with _building(django_db_blocker):
        atomic = transaction.atomic()
        atomic.__enter__()
        progression = Progression(request.module.CONFIGS)
    try:
        yield progression
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture(scope="module")
def worlds(request, _progression, django_db_blocker) -> dict[str, World]:
    """The module's campaigns in the phase the test is parametrized with."""
    with _building(django_db_blocker):
        return _progression.at(request.param)
