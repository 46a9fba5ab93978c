"""The permission matrix: every API endpoint x method x role x phase answers the class
of status the table in `tests/security/matrix.py` says, with the contract's error
body, and a refused request changes nothing.

API.md: "`404` for anything the caller may not see (never `403`, so existence does not
leak), `409` for an action that is not allowed in the current phase or state. Every
error body is {"code", "detail"} ... A rejected request changes nothing."
ARCHITECTURE.md, "Secrecy": "Permissions are decided in one place per app and tested
as a matrix (every endpoint x every role x every phase)."

Roles: the umpire (not playing), the umpire who also plays (in a campaign built the
same way where she has a seat and `umpire_sees_orders` is on), alice (the owner of the
sealed order and of every object the requests aim at), bob (another player), charlie
(a user who is in no campaign of theirs) and an anonymous caller.
"""

from __future__ import annotations

import pytest

from tests.security.helpers import api_routes, assert_error_shape, call, client, world_for
from tests.security.matrix import TABLE
from tests.security.world import PHASES, ROLES

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("permission_matrix")]
CONFIGS = ("plain", "plays")  # the campaigns of `worlds` (tests/security/conftest.py)


def test_every_api_route_has_a_permission_decision():
    """A new endpoint (or a new method on one) cannot be added without a row in the
    table; a row for a route that no longer exists is an error too."""
    routes = api_routes()
    missing = sorted(set(routes) - set(TABLE))
    stale = sorted(set(TABLE) - set(routes))
    assert not missing, f"API routes with no permission decision in the matrix: {missing}"
    assert not stale, f"matrix rows for routes that do not exist: {stale}"


@pytest.mark.parametrize("worlds", PHASES, indirect=True)
def test_permission_matrix(worlds):
    phase = worlds["plain"].phase
    clients = {role: client(role) for role in ROLES}
    wrong = []
    cells = 0
    for (name, method), endpoint in TABLE.items():
        if not endpoint.path(worlds["plain"]).startswith("/api/campaigns/") \
                and phase != "setup":
            continue  # accounts, rules, schema, campaign list: no campaign, no phase
        for role in ROLES:
            world = world_for(role, worlds)
            path = endpoint.path(world)
            body = endpoint.body(world) if endpoint.body else None
            expected = endpoint.expected(role, phase, world)
            answer = call(clients[role], method, path, body,
                          watch=expected != "2xx" and method != "GET")
            cells += 1
            context = (phase, role, method, path)
            if answer.cls != expected:
                wrong.append(f"{phase:10} {role:9} {method:6} {name:24} expected "
                             f"{expected}, got {answer.status}: {answer.body[:160]}")
                continue
            if answer.status >= 400:
                assert_error_shape(answer, context)
                assert not answer.changed, f"{context}: a refused request changed state"
    assert cells >= 60 * len(ROLES)
    assert not wrong, "\n" + "\n".join(wrong)
