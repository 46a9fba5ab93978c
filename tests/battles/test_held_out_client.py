"""A held-out client plays a turn of a one-page and a battle-dice (issue 12), a 30 Minute
Missions (issue 13) and a Mobius (issue 14) campaign through the routes of API.md only:
create with the ruleset, join with the invite code (and a faction where the ruleset has
factions), start, read the catalogue, buy units ({"kind": "unit", "key"}), seal an order,
advance to the tactical phase, and read the battle (its ruleset, its report)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("ruleset", "attacker", "guard", "factions"), [
    ("onepage", "rifle_squad", "militia_squad", (None, None)),
    ("battledice", "heavy_vehicle", "light_vehicle", (None, None)),
    ("thirtymm", "standard_mech", "scout_drone", (None, None)),
    ("mobius", "acorn_royal_army", "egg_pawns", ("kingdom_of_acorn", "eggman_empire")),
])
def test_a_client_plays_a_turn_of_a_light_ruleset_campaign(
        ruleset, attacker, guard, factions, client_for, uma, alice, bob,
        django_capture_on_commit_callbacks):
    umpire, a, b = client_for(uma), client_for(alice), client_for(bob)
    made = umpire.post("/api/campaigns/", {
        "name": "Skirmish league", "map": {"generator": "hex", "territories": 2, "seed": 3},
        "settings": {"ruleset": ruleset}}, format="json")
    assert made.status_code == 201, made.content
    cid = made.json()["id"]
    base = f"/api/campaigns/{cid}/"
    detail = umpire.get(base).json()
    assert detail["ruleset"] == {"name": ruleset, "version": "1"}
    listed = {r["name"]: r for r in a.get("/api/rulesets/").json()}
    for client, faction in zip((a, b), factions, strict=True):
        body = {"invite": detail["invite_code"]}
        if listed[ruleset]["factions"]:  # a ruleset with factions: the seat picks one
            assert faction in listed[ruleset]["factions"]
            body["faction"] = faction
        joined = client.post(base + "join/", body, format="json")
        assert joined.status_code == 201, joined.content
    assert umpire.post(base + "start/").status_code == 200
    started = umpire.patch(base + "settings/", {"ruleset": "unlimit3d8"}, format="json")
    assert started.status_code == 409  # fixed once the campaign starts

    def home(client):
        return next(t for t in client.get(base + "territories/").json() if t["mine"])

    mine, theirs = home(a), home(b)
    catalogue = a.get(base + "catalogue/").json()
    assert catalogue == sorted(catalogue, key=lambda e: e["price"])
    squad = a.post(base + "purchases/", {"territory": mine["id"],
                                         "item": {"kind": "unit", "key": attacker}},
                   format="json")
    assert squad.status_code == 201, squad.content
    guard = b.post(base + "purchases/", {"territory": theirs["id"],
                                         "item": {"kind": "unit", "key": guard}},
                   format="json")
    assert guard.status_code == 201
    for phase in ("commercial", "activity"):
        turn = umpire.get(base).json()["turn"]
        assert umpire.post(base + "advance/", {"turn": turn, "phase": phase},
                           format="json").status_code == 200
    order = a.post(base + "orders/", {"unit": squad.json()["unit"],
                                      "destination": theirs["id"]}, format="json")
    assert order.status_code == 201, order.content
    with django_capture_on_commit_callbacks(execute=True):
        moved = umpire.post(base + "advance/", {"turn": 1, "phase": "move"}, format="json")
    assert moved.status_code == 200
    (battle,) = a.get(base + "battles/").json()
    shown = a.get(base + f"battles/{battle['id']}/").json()
    assert shown["status"] == "finished"
    assert shown["ruleset"] == {"name": ruleset, "version": "1"}
    assert shown["report"]["narrative"].startswith("On turn 1, alice attacked")
    assert shown["log"] and all("text" in step for step in shown["log"])
