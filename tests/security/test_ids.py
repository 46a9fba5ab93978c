"""Ids: an object the caller may not see answers exactly like an id that does not exist,
and so does an object of another campaign -- in the URL or in the body, for every
endpoint of the table, every role and every phase where the objects exist.

API.md: "`404` for anything the caller may not see (never `403`, so existence does not
leak)". Issue 5: nobody learns anything of another player's sealed orders "through any
endpoint, page, event, error message or status code".

Each request of the permission table is made three times: with alice's real ids, with
ids that exist nowhere, and with the ids of the same objects in the other campaign
(both campaigns are built the same way). Roles that may not see alice's private
objects must get byte-identical answers (status and body) all three times; alice
herself must get identical answers for the nonexistent and the foreign ids.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.security.helpers import call, client, normalise, world_for
from tests.security.matrix import TABLE
from tests.security.world import NONEXISTENT, ROLES, World

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("ids")]
CONFIGS = ("plain", "plays")  # the campaigns of `worlds` (tests/security/conftest.py)

# alice's objects that nobody else may see (units, operatives, weapons, buildings, her
# order and her odds request)
PRIVATE = ("unit_alice1", "unit_alice2", "pilot_alice1", "pilot_alice2", "weapon_alice",
           "factory_alice", "building_alice", "order", "odds")
# objects some others may see (bob and the umpire see the trade and the grant; every
# member sees a battle): only alice's answers are compared for these
SHARED = ("trade", "passage", "battle")


def substituted(world: World, keys: tuple[str, ...], source: World | None) -> World:
    ids = dict(world.ids)
    for key in keys:
        if key in ids:
            ids[key] = source.ids.get(key, NONEXISTENT) if source else NONEXISTENT
    return replace(world, ids=ids)


Answer = tuple[int, str, str]


def answer(role: str, method: str, endpoint, world: World) -> Answer:
    """Status, body and, for an error, its detail apart (the body without it)."""
    body = endpoint.body(world) if endpoint.body else None
    got = call(client(role), method, endpoint.path(world), body)
    if got.status < 400:
        return got.status, normalise(got.body), ""
    data = json.loads(got.body)
    detail = str(data.pop("detail", ""))
    return got.status, json.dumps(data, sort_keys=True), detail


def answers_alike(fake: Answer, other: Answer, world: World, keys: tuple[str, ...]) -> bool:
    """`other` (a request with `world`'s ids) answers as `fake` (the same request with ids
    that exist nowhere) does, but that an error's detail may echo the id the caller sent,
    which tells them nothing. The echo is put into `fake`'s detail (NONEXISTENT, nine
    digits, is in no other text) rather than masked out of `other`'s: an id such as 8
    also stands in fixed text ("Unlimit3d 8") that masking would rewrite."""
    if fake[:2] != other[:2]:
        return False
    sent = {str(world.ids[key]) for key in keys if key in world.ids}
    return other[2] in {fake[2], *(fake[2].replace(str(NONEXISTENT), i) for i in sent)}


@pytest.mark.parametrize("worlds", ["commercial", "activity", "move", "tactical"],
                         indirect=True)
def test_hidden_and_foreign_ids_answer_like_ids_that_do_not_exist(worlds):
    phase = worlds["plain"].phase
    other_world = {"plain": worlds["plays"], "plays": worlds["plain"]}
    leaks = []
    compared = 0
    for (name, method), endpoint in TABLE.items():
        for role in ROLES:
            world = world_for(role, worlds)
            foreign_source = other_world[world.config]
            keys = PRIVATE + SHARED if role == "owner" else PRIVATE
            probe = substituted(world, keys, None)
            if endpoint.path(probe) == endpoint.path(world) and (
                    endpoint.body is None or endpoint.body(probe) == endpoint.body(world)):
                continue  # this request names none of those objects
            fake = answer(role, method, endpoint, probe)
            foreign_world = substituted(world, keys, foreign_source)
            foreign = answer(role, method, endpoint, foreign_world)
            compared += 1
            if not answers_alike(fake, foreign, foreign_world, keys):
                leaks.append(f"{phase} {role} {method} {name}: foreign id {foreign} vs "
                             f"nonexistent {fake}")
            if role != "owner":
                real = answer(role, method, endpoint, world)
                if not answers_alike(fake, real, world, keys):
                    leaks.append(f"{phase} {role} {method} {name}: alice's id {real} vs "
                                 f"nonexistent {fake}")
    assert compared > 40
    assert not leaks, "\n" + "\n".join(leaks)
