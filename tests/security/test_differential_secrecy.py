"""Differential secrecy over the whole API (and the pages): everything every role but
the owner can read is byte-identical before and after alice seals, changes and
withdraws orders in the move phase.

Seed, "Move Phase": "The moves you decide are to be kept secret from your opponent,
and only revealed at the beginning of the Tactical phase." Issue 5: "nobody else can
learn anything of them -- not destinations, not which units were ordered, not how many
orders there are -- through any endpoint, page, event, error message or status code."

tests/orders/test_secrecy_matrix.py does this for the orders helper's list of paths;
here the list is every GET route of the permission table (so a new GET endpoint is
observed as soon as it has its row), every territory, the filters of the lists, the
legal destinations of bob's units, and the campaign's pages; and bob's own writes
(an order, an exchange, readiness), answered inside a rolled-back savepoint, must be
answered the same way too.

Also here: the umpire who also plays sees the meta-map as a player does (units
counted only for her own units), also after the reveal.
"""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from tests.security.helpers import call, client, normalise
from tests.security.matrix import TABLE
from tests.security.world import ROLE_USER, World, users

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("differential_secrecy")]
CONFIGS = ("plain", "plays")  # the campaigns of `worlds` (tests/security/conftest.py)

BLIND = ("umpire", "plays", "other", "nonmember", "anon")


def get_paths(world: World) -> list[str]:
    base = f"/api/campaigns/{world.cid}/"
    paths = [e.path(world) for (_, method), e in TABLE.items()
             if method == "GET" and e.path(world).startswith("/api/campaigns/")]
    territories = [v for k, v in world.ids.items() if k.startswith("territory_")]
    for t in territories:
        paths += [base + f"territories/{t}/", base + f"territories/{t}/map.svg",
                  base + f"destinations/?from={t}"]
    for key in ("unit_bob1", "unit_bob2", "unit_uma1", "unit_uma2"):
        if key in world.ids:
            paths.append(base + f"destinations/?unit={world.ids[key]}")
    paths += [base + "events/?turn=1", base + "orders/?turn=1", base + "battles/?turn=1",
              base + "events/?kind=moves_revealed", base + "events/?turn=x",
              base + "orders/?turn=x", "/api/campaigns/"]
    return paths


def page_paths(world: World) -> list[str]:
    base = f"/campaigns/{world.cid}/"
    territories = [v for k, v in world.ids.items() if k.startswith("territory_")]
    return ["/", base, base + "map/", base + "history/", base + "battles/",
            base + "orders/", base + "forces/", base + "economy/", base + "umpire/",
            *[base + f"territories/{t}/" for t in territories]]


# Per-load tokens (CSRF, the umpire's one-time correction key) differ on every page.
_CSRF = re.compile(r'(csrfmiddlewaretoken"? value=|csrf-token" content=|csrftoken=|'
                   r'name="request_id" value=)"?[^"\s;]+')
_ORDER_ID = re.compile(r'"id":\s*\d{12,}')


def observe(world: World, role: str) -> dict[str, tuple[int, str]]:
    seen: dict[str, tuple[int, str]] = {}
    api = client(role)
    for path in get_paths(world):
        r = api.get(path)
        seen[path] = (r.status_code, normalise(r.content.decode(errors="replace")))
    pages = APIClient()
    if role in ROLE_USER:
        pages.force_login(users()[ROLE_USER[role]])
    for path in page_paths(world):
        r = pages.get(path)
        seen["page " + path] = (r.status_code, normalise(_CSRF.sub(
            r"\1X", r.content.decode(errors="replace"))))
    # bob's (or the playing umpire's) own writes, rolled back
    if role in ("other", "plays"):
        me = "bob" if role == "other" else "uma"
        base = f"/api/campaigns/{world.cid}/"
        writes = [
            ("POST", base + "orders/", {"unit": world.id(f"unit_{me}2"),
                                        "destination": world.id("free")}),
            ("POST", base + "exchanges/", {"from_unit": world.id(f"unit_{me}1"),
                                           "to_unit": world.id(f"unit_{me}2"),
                                           "weapon": world.id(f"weapon_{me}")}),
            ("POST", base + "ready/", None),
        ]
        for method, path, body in writes:
            got = call(api, method, path, body)
            seen[f"write {method} {path}"] = (got.status,
                                              _ORDER_ID.sub('"id": <id>', normalise(got.body)))
    return seen


def alice_acts(world: World) -> None:
    """Seal an order, change it, seal another, withdraw one (through the API)."""
    api = client("owner")
    base = f"/api/campaigns/{world.cid}/"
    for unit, dest in (("unit_alice2", "free"), ("unit_alice2", "home_bob"),
                       ("unit_alice1", "free")):
        r = api.post(base + "orders/", {"unit": world.id(unit), "destination": world.id(dest)},
                     format="json")
        assert r.status_code == 201, r.content
    mine = api.get(base + "orders/").json()
    assert len(mine) == 2
    r = api.delete(base + f"orders/{mine[-1]['id']}/")
    assert r.status_code == 204, r.content


@pytest.mark.parametrize("worlds", ["move"], indirect=True)
@pytest.mark.parametrize("config", ["plain", "plays"])
def test_nothing_anybody_else_reads_changes_when_alice_gives_orders(config, worlds):
    world = worlds[config]
    roles = [r for r in BLIND if (r == "plays") == (config == "plays")]
    before = {role: observe(world, role) for role in roles}
    alice_acts(world)
    for role in roles:
        after = observe(world, role)
        changed = [k for k in before[role] if before[role][k] != after[k]]
        assert not changed, (config, role, changed)
    assert len(before[roles[0]]) > 40
    # positive control: alice herself does see a difference
    assert client("owner").get(f"/api/campaigns/{world.cid}/orders/").json() != []


@pytest.mark.parametrize("worlds", ["move", "tactical"], indirect=True)
def test_the_umpire_who_plays_counts_only_her_own_units_after_the_reveal(worlds):
    """The territories API shows a playing umpire what a player sees: her own units
    per territory, no other player's buildings -- before and after the reveal (which
    moved alice's unit onto bob's home)."""
    from economy.models import Unit

    world = worlds["plays"]
    phase = world.phase
    uma = world.players["uma"]
    rows = client("plays").get(f"/api/campaigns/{world.cid}/territories/").json()
    assert rows
    for row in rows:
        own = Unit.objects.filter(player=uma, territory_id=row["id"]).exclude(
            status="destroyed").count()
        assert row["units"] == own, (phase, row)
        if row["owner"] != uma.pk:
            assert "buildings" not in row, (phase, row)
    # the non-playing umpire of the other campaign is the control: all units
    plain = worlds["plain"]
    rows = client("umpire").get(f"/api/campaigns/{plain.cid}/territories/").json()
    total = Unit.objects.filter(territory__campaign=plain.campaign).exclude(
        status="destroyed").count()
    assert sum(r["units"] for r in rows) == total > 0
