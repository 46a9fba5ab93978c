"""Nobody learns anything of another player's sealed orders before the reveal.

Seed, "Move Phase": "The moves you decide are to be kept secret from your opponent, and
only revealed at the beginning of the Tactical phase." and "You only have to announce
which territories you move if your units finish their move on a territory that isn't
yours, and don't have to reveal which of the units was moved until they meet with
enemy units."

The matrix is differential: for every role that may not read alice's orders, every
endpoint and page is observed before alice gives (replaces, withdraws) her orders
and after; the two observations must be identical -- bodies, counts, status codes,
error bodies and the journal. Writes aimed at alice's unit or order id must be
answered exactly like writes aimed at ids that do not exist, in every phase.
Roles: umpire (not playing, may not read orders), umpire allowed to read orders (the
positive control), umpire who also plays (allowed by the setting, but must not),
the order's owner, another player, a non-member and an anonymous caller.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from campaign.models import Event, Phase
from orders.models import Order
from tests.orders.conftest import World, advance_to

pytestmark = pytest.mark.django_db

NONEXISTENT = 987_654_321


def api_paths(world: World) -> list[str]:
    base = f"/api/campaigns/{world.campaign.pk}/"
    return [
        "/api/campaigns/", base, base + "orders/", base + "orders/?turn=1",
        base + "orders/?turn=2", base + "events/", base + "events/?turn=1",
        base + "events/?kind=moves_revealed", base + "territories/",
        *[base + f"territories/{t.pk}/" for t in world.t.values()],
        base + "units/", base + f"units/{world.a1.pk}/", base + f"units/{world.a2.pk}/",
        base + "me/", base + "pilots/", base + "weapons/", base + "battles/",
        base + "passages/", base + "map.json", base + "plans/",
    ]


def page_paths(world: World) -> list[str]:
    base = f"/campaigns/{world.campaign.pk}/"
    return ["/", base, base + "map/", base + "orders/",
            *[base + f"territories/{t.pk}/" for t in world.t.values()]]


_TOKEN = re.compile(r'(csrfmiddlewaretoken"? value=|csrf-token" content=|csrftoken=)"?[^"\s;]+')


def observe(world: World, role: str) -> dict[str, Any]:
    """Everything `role` can read through the API and the pages."""
    seen: dict[str, Any] = {}
    api = client(world, role)
    for path in api_paths(world):
        r = api.get(path)
        body = r.content.decode(errors="replace")
        seen[path] = (r.status_code, body)
    user = world.users.get(ROLE_USER.get(role, ""))
    pages = APIClient()
    if user is not None:
        pages.force_login(user)
    for path in page_paths(world):
        r = pages.get(path)
        seen["page " + path] = (r.status_code, _TOKEN.sub(r"\1X", r.content.decode(
            errors="replace")))
    return seen


ROLE_USER = {"umpire": "uma", "owner": "alice", "other": "bob", "nonmember": "charlie"}


def client(world: World, role: str) -> APIClient:
    from rest_framework.authtoken.models import Token

    c = APIClient()
    if role in ROLE_USER:
        token, _ = Token.objects.get_or_create(user=world.users[ROLE_USER[role]])
        c.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return c


def give_orders(world: World) -> list[int]:
    """alice: a1 Alpha -> Gamma (ends off her land: announced at the reveal), a2 Beta ->
    Alpha (inside her land: never announced); she also changes her mind once."""
    c = client(world, "owner")
    url = f"/api/campaigns/{world.campaign.pk}/orders/"
    ids = []
    for unit, dest in ((world.a1, "Beta"), (world.a1, "Gamma"), (world.a2, "Gamma")):
        r = c.post(url, {"unit": unit.pk, "destination": world.t[dest].pk}, format="json")
        assert r.status_code == 201, r.content
        ids.append(r.json()["id"])
    r = c.post(url, {"unit": world.a2.pk, "destination": world.t["Alpha"].pk}, format="json")
    ids.append(r.json()["id"])
    # her sealed battle plans (issue 29) are as secret as her orders
    plans = f"/api/campaigns/{world.campaign.pk}/plans/"
    assert c.put(plans + f"{world.t['Gamma'].pk}/", {"stance": "withdraw", "retreat_at": 30},
                 format="json").status_code == 200
    assert c.put(plans + "default/", {"stance": "hold"}, format="json").status_code == 200
    return sorted(set(ids))


def probes(world: World, role: str, order_ids: list[int]) -> list[tuple[int, str]]:
    """Writes aimed at alice's unit and orders: each must be answered like the same
    write aimed at an id that does not exist."""
    c = client(world, role)
    base = f"/api/campaigns/{world.campaign.pk}/"
    pairs = []
    for unit in (world.a1.pk, NONEXISTENT):
        pairs.append(c.post(base + "orders/", {"unit": unit,
                                               "destination": world.t["Gamma"].pk},
                            format="json"))
    for oid in (*order_ids[:1], NONEXISTENT):
        pairs.append(c.delete(base + f"orders/{oid}/"))
    for unit in (world.a1.pk, NONEXISTENT):
        pairs.append(c.post(base + "exchanges/", {"from_unit": unit, "to_unit": world.b1.pk,
                                                  "weapon": NONEXISTENT}, format="json"))
    return [(r.status_code, r.content.decode()) for r in pairs]


def assert_probes_look_like_nothing(world: World, role: str, order_ids: list[int]) -> None:
    before = list(Order.objects.values_list("public_id", "destination_id", "status"))
    answers = probes(world, role, order_ids)
    for real, fake in zip(answers[0::2], answers[1::2], strict=True):
        assert real == fake, (role, real, fake)
    assert list(Order.objects.values_list("public_id", "destination_id", "status")) == before


BLIND = {
    # config -> roles that must learn nothing of alice's sealed orders
    "plain": ["umpire", "other", "nonmember", "anon"],
    "reader": ["other", "nonmember", "anon"],
    "plays": ["umpire", "other"],
}
CONFIGS = {
    "plain": {"options": {}, "umpire_plays": False},
    "reader": {"options": {"umpire_sees_orders": True}, "umpire_plays": False},
    "plays": {"options": {"umpire_sees_orders": True}, "umpire_plays": True},
}


@pytest.mark.parametrize("config", list(CONFIGS))
def test_sealed_orders_leak_nowhere_in_any_phase(config, build_world, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = build_world(**CONFIGS[config])
    blind = BLIND[config]

    # --- turn 1, move phase: alice seals her orders --------------------------------
    before = {role: observe(world, role) for role in blind}
    order_ids = give_orders(world)
    for role in blind:
        after = observe(world, role)
        changed = [k for k in before[role] if before[role][k] != after[k]]
        assert not changed, (config, role, changed)
        assert_probes_look_like_nothing(world, role, order_ids)
    owner_view = client(world, "owner").get(
        f"/api/campaigns/{world.campaign.pk}/orders/").json()
    assert sorted(o["id"] for o in owner_view) == order_ids
    umpire_orders = client(world, "umpire").get(
        f"/api/campaigns/{world.campaign.pk}/orders/").json()
    if config == "reader":  # positive control: the filter is not simply "nothing"
        assert sorted(o["id"] for o in umpire_orders) == order_ids
        assert all("unit" in o for o in umpire_orders)
    else:
        assert umpire_orders == []
    # Withdrawing leaves no trace either.
    before = {role: observe(world, role) for role in blind}
    a2_order = next(o["id"] for o in owner_view if o["unit"] == world.a2.pk)
    r = client(world, "owner").delete(
        f"/api/campaigns/{world.campaign.pk}/orders/{a2_order}/")
    assert r.status_code == 204
    for role in blind:
        assert observe(world, role) == before[role], (config, role)
    client(world, "owner").post(f"/api/campaigns/{world.campaign.pk}/orders/",
                                {"unit": world.a2.pk, "destination": world.t["Alpha"].pk},
                                format="json")
    live_ids = [o["id"] for o in client(world, "owner").get(
        f"/api/campaigns/{world.campaign.pk}/orders/").json()]

    # --- turn 1, tactical phase: only the announcement ------------------------------
    advance_to(world, Phase.TACTICAL)
    for role in blind:
        assert_probes_look_like_nothing(world, role, live_ids)
    for role in [r for r in blind if r not in ("nonmember", "anon")]:
        assert_revealed_only_announcement(world, role, live_ids)
    for role in ("nonmember", "anon"):
        if role in blind:
            r = client(world, role).get(f"/api/campaigns/{world.campaign.pk}/orders/")
            assert r.status_code in (401, 404)

    # --- turn 2, commercial and activity: still only the announcement --------------
    for phase in (Phase.COMMERCIAL, Phase.ACTIVITY):
        advance_to(world, phase)
        for role in blind:
            assert_probes_look_like_nothing(world, role, live_ids)
        for role in [r for r in blind if r not in ("nonmember", "anon")]:
            assert_revealed_only_announcement(world, role, live_ids)

    # --- turn 2, move: new sealed orders are as invisible as the first ones ---------
    advance_to(world, Phase.MOVE)
    before = {role: observe(world, role) for role in blind}
    c = client(world, "owner")
    r = c.post(f"/api/campaigns/{world.campaign.pk}/orders/",
               {"unit": world.a2.pk, "destination": world.t["Beta"].pk}, format="json")
    assert r.status_code == 201, r.content
    for role in blind:
        assert observe(world, role) == before[role], (config, role)
        assert_probes_look_like_nothing(world, role, [r.json()["id"]])


def assert_revealed_only_announcement(world: World, role: str, order_ids: list[int]) -> None:
    """After the reveal: one row (turn 1, alice, Gamma) -- not the unit, not the origin,
    not the internal move Beta -> Alpha, not how many units; no order id anywhere."""
    c = client(world, role)
    base = f"/api/campaigns/{world.campaign.pk}/"
    visible = c.get(base + "orders/?turn=1").json()
    assert visible == [{"turn": 1, "player": world.alice.pk,
                        "destination": world.t["Gamma"].pk, "announced": True}], (role, visible)
    events = c.get(base + "events/").json()
    text = json.dumps(events)
    for oid in order_ids:
        assert str(oid) not in text
    # Their own sealed entry (empty: only alice moved) at most; never alice's.
    assert not [e for e in events if e["kind"] == "moves_carried_out" and e["data"]["moves"]]
    revealed = [e for e in events if e["kind"] == "moves_revealed"]
    assert revealed[0]["data"]["announcements"] == [
        {"territory": world.t["Gamma"].pk, "territory_name": "Gamma",
         "player": world.alice.pk}]


def test_the_owner_reads_her_own_moves_in_the_journal_after_the_reveal(world, client_for):
    """The owner's sealed journal entry lists which of her units moved."""
    c = client_for(world.users["alice"])
    base = f"/api/campaigns/{world.campaign.pk}/"
    c.post(base + "orders/", {"unit": world.a2.pk, "destination": world.t["Alpha"].pk},
           format="json")
    advance_to(world, Phase.TACTICAL)
    mine = c.get(base + "events/?kind=moves_carried_out").json()
    assert len(mine) == 1
    assert mine[0]["data"]["moves"][0]["unit"] == world.a2.pk
    # Every player gets exactly one such entry, moves or not (no gap tells who moved).
    assert Event.objects.filter(kind="moves_carried_out", sealed=True).count() == 2
