"""Bad input is never a 500, always answered with the contract's error body, and a
refused request changes nothing.

API.md: "Every error body is {"code": "<machine_code>", "detail": "<sentence a person
understands>"} ... Never a `500` for bad input." and "A rejected request changes
nothing."

Every write route of the permission table is called by the role it is meant for (alice,
or the umpire for umpire actions) in a phase where it is allowed, with bodies derived
from its good body: each field replaced by junk (wrong types, negative and huge
numbers, strings for ids, nested junk), the body replaced by junk, empty and
non-JSON bodies; then with random JSON from hypothesis. URL ids are replaced by huge
numbers too.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.helpers import assert_error_shape, call, client
from tests.security.matrix import TABLE

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("bad_input")]
CONFIGS = ("plain",)  # the campaign of `worlds` (tests/security/conftest.py)

# whole bodies
JUNK: list[Any] = [None, 10**30, "abc", [], [[{"a": [{}]}]], {"kind": {"kind": [None]}}]
# field values (wrong types, negative and huge numbers, strings for ids, nested junk)
FIELD_JUNK: list[Any] = [None, -1, 10**30, "1", "abc", 1.5, [[{}]], {"id": 1}]
RAW: list[bytes] = [b"", b"not json", b"null", b'{"a": NaN}', b"\xff\xfe",
                    b"[" * 50 + b"]" * 50]

# route -> (role, phase) where it is allowed
WHERE = {
    "commercial": ("api-buildings", "api-building-upgrades", "api-shipments", "api-purchases",
                   "api-trades", "api-trade-accept", "api-trade-decline", "api-trade-cancel",
                   "api-artifact-sell", "api-building-product", "api-unit-repair",
                   "api-messages", "api-campaign-import", "api-rollback", "api-sandbox",
                   "api-sandbox-seat"),
    "activity": ("api-unit", "api-activation", "api-building-weapon", "api-artifact-house",
                 "api-odds", "api-passages", "api-passage", "api-notifications",
                 "api-campaign-ready", "api-away", "api-pilot", "api-weapon"),
    "move": ("api-orders", "api-order", "api-exchanges", "api-plan", "api-plan-standing"),
    "tactical": ("api-battle-result", "api-battle-confirm", "api-battle-retry"),
}
UMPIRE_ROUTES = ("api-campaign-settings", "api-campaign-advance", "api-corrections",
                 "api-deadline", "api-pause", "api-resume", "api-handover",
                 "api-campaign-start")
GLOBAL_ROUTES = ("api-users", "api-token", "api-campaigns", "api-profile",
                 "api-campaign-join", "api-campaign-claim", "api-users-me",
                 "api-users-me-calendar-rotate")


def variants(good: Any) -> list[Any]:
    out: list[Any] = list(JUNK)
    if isinstance(good, dict):
        for key in good:
            for junk in FIELD_JUNK:
                out.append({**good, key: junk})
            out.append({k: v for k, v in good.items() if k != key})
        out.append({**good, "unexpected": {"nested": [1, {"x": None}]}})
    return out


def check(api, method: str, path: str, *, body: Any = None, raw: bytes | None = None,
          context: object = "") -> None:
    got = call(api, method, path, body, raw=raw, watch=True)  # rolled back afterwards
    assert got.status < 500, (context, method, path, body, raw, got.body[:300])
    if got.status >= 400:
        assert_error_shape(got, (context, method, path, body, raw))
        # a refused request changes nothing (seen before the rollback)
        assert not got.changed, (context, method, path, body, raw)


def routes_in(phase: str) -> list[tuple[str, str, str]]:
    """(name, method, role) of the write routes exercised in `phase`."""
    out = []
    for (name, method), _ in TABLE.items():
        if method == "GET":
            continue
        if name in WHERE.get(phase, ()):
            out.append((name, method, "owner"))
        elif name in UMPIRE_ROUTES and phase == "activity":
            out.append((name, method, "umpire"))
        elif name in GLOBAL_ROUTES and phase == "commercial":
            out.append((name, method, "owner"))
    return out


def test_every_write_route_is_fuzzed():
    fuzzed = {(n, m) for phase in WHERE for n, m, _ in routes_in(phase)}
    writes = {(n, m) for (n, m) in TABLE if m != "GET"}
    assert writes <= fuzzed, sorted(writes - fuzzed)


@pytest.mark.parametrize("worlds", list(WHERE), indirect=True)
def test_junk_bodies_never_500_and_change_nothing(worlds):
    world = worlds["plain"]
    phase = world.phase
    for name, method, role in routes_in(phase):
        endpoint = TABLE[(name, method)]
        api = client(role)
        path = endpoint.path(world)
        good = endpoint.body(world) if endpoint.body else {}
        for body in variants(good):
            check(api, method, path, body=body, context=(phase, name))
        for raw in RAW:
            check(api, method, path, raw=raw, context=(phase, name))
        # huge and odd ids in the URL
        for key, value in world.ids.items():
            if str(value) in path.split("/"):
                for bad in (10**30, 2**63):
                    check(api, method, path.replace(f"/{value}/", f"/{bad}/"),
                          body=good, context=(phase, name, key))
        check(api, method, f"/api/campaigns/{10**30}/" + path.split("/", 4)[-1]
              if path.startswith("/api/campaigns/") else path, body=good,
              context=(phase, name, "campaign id"))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)


@pytest.mark.parametrize("worlds", ["commercial", "activity", "move"], indirect=True)
def test_random_json_never_500(worlds):
    world = worlds["plain"]
    phase = world.phase
    routes = routes_in(phase)

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(index=st.integers(0, len(routes) - 1), value=json_values,
           field=st.text(max_size=12) | st.sampled_from(
               ["unit", "destination", "territory", "kind", "x", "y", "item", "containers",
                "active", "pilot", "weapons", "to_player", "give", "receive", "grantee",
                "territories", "units", "enemy", "simulations", "from_unit", "to_unit",
                "weapon", "laboratory", "product", "upgrade", "player", "credits", "goods"]))
    def run(index: int, value: Any, field: str) -> None:
        name, method, role = routes[index]
        endpoint = TABLE[(name, method)]
        good = endpoint.body(world) if endpoint.body else {}
        body = {**good, field: value} if isinstance(good, dict) else value
        check(client(role), method, endpoint.path(world), body=body, context=(phase, name))

    run()
