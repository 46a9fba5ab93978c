"""Tabletop results, odds and the battles API (contract: API.md "Battles and history")."""

from __future__ import annotations

from battles.models import Battle, BattleRecord, OddsRequest
from battles.services.opening import open_battles


def open_one(w):
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    return battle


def url(w, battle, action=""):
    return f"/api/campaigns/{w.campaign.pk}/battles/{battle.pk}/{action}"


def test_a_tabletop_result_entered_by_one_side_is_recorded_when_the_other_confirms(
        world, client_for, alice, bob, charlie):
    """Issue 6 part 4: the players involved enter the result, both sides confirm; the same
    recording path as the engine's."""
    w = world(owners={"Beta": "bob", "Gamma": "bob"}, options={"battle_mode": "tabletop"})
    a = w.unit("alice", "Beta")
    b = w.unit("bob", "Beta")
    battle = open_one(w)
    assert battle.mode == "tabletop" and battle.status == "queued"
    body = {"winner": w.players["alice"].pk,
            "units": [{"id": b.pk, "fate": "retreated", "repairable": 3, "unrepairable": 4}],
            "xp_events": [{"unit": a.pk, "kind": "destroy_building"}]}
    assert client_for(charlie).post(url(w, battle, "result/"), body,
                                    format="json").status_code == 403
    response = client_for(alice).post(url(w, battle, "result/"), body, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "queued"
    assert response.json()["confirmations"] == [w.players["alice"].pk]
    response = client_for(bob).post(url(w, battle, "confirm/"))
    assert response.status_code == 200
    assert response.json()["status"] == "finished"
    assert BattleRecord.objects.get(battle=battle).source == "tabletop"
    b.refresh_from_db()
    assert b.territory_id == w.t["Gamma"].pk and b.damage_unrepairable == 4
    a.pilot.refresh_from_db()
    assert a.pilot.xp == 2  # survived + soldier's building
    w.refresh()
    assert w.t["Beta"].owner_id == w.players["alice"].pk
    again = client_for(bob).post(url(w, battle, "confirm/"))
    assert again.status_code == 409


def test_the_umpire_decides_a_tabletop_result_at_once(world, client_for, uma):
    w = world(owners={"Beta": "bob"}, options={"battle_mode": "tabletop"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    battle = open_one(w)
    response = client_for(uma).post(url(w, battle, "result/"),
                                    {"winner": w.players["bob"].pk}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "finished"


def test_a_tabletop_xp_event_outside_the_class_list_is_refused(world, client_for, alice):
    w = world(owners={"Beta": "bob"}, options={"battle_mode": "tabletop"})
    a = w.unit("alice", "Beta", klass="worker")
    w.unit("bob", "Beta")
    battle = open_one(w)
    response = client_for(alice).post(
        url(w, battle, "result/"),
        {"winner": None, "xp_events": [{"unit": a.pk, "kind": "piracy_success"}]},
        format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_xp"
    assert Battle.objects.get().proposed_result is None


def test_an_engine_battle_takes_no_entered_result(world, client_for, alice):
    w = world(owners={"Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    battle = open_one(w)
    response = client_for(alice).post(url(w, battle, "result/"), {"winner": None},
                                      format="json")
    assert response.status_code == 409 and response.json()["code"] == "engine_battle"


def test_the_battle_list_and_detail_follow_the_contract(
        world, client_for, alice, charlie, make_user, django_assert_max_num_queries):
    w = world(owners={"Beta": "bob", "Delta": "charlie"})
    for where, who in (("Beta", "bob"), ("Delta", "charlie")):
        w.unit("alice", where)
        w.unit(who, where)
    w.campaign.phase = "tactical"
    w.campaign.save()
    battles = open_battles(campaign=w.campaign)
    from battles.tasks import run_battle

    run_battle(battles[0].pk)
    client = client_for(charlie)
    with django_assert_max_num_queries(6):
        response = client.get(f"/api/campaigns/{w.campaign.pk}/battles/")
    assert response.status_code == 200
    rows = response.json()
    assert [r["id"] for r in rows] == [b.pk for b in battles]
    assert set(rows[0]) >= {"id", "turn", "territory", "status", "sides", "winner"}
    assert rows[0]["status"] == "finished" and rows[1]["status"] == "queued"
    detail = client.get(url(w, battles[0])).json()
    assert detail["log"] and detail["result"]["units"]
    assert "error" not in detail
    assert client.get(url(w, battles[1])).json()["log"] == []
    stranger = client_for(make_user("mallory"))
    assert stranger.get(f"/api/campaigns/{w.campaign.pk}/battles/").status_code == 404
    assert stranger.get(url(w, battles[0])).status_code == 404
    assert client.get(f"/api/campaigns/{w.campaign.pk}/battles/999999/").status_code == 404


def test_odds_of_own_units_against_a_described_enemy(world, client_for, alice, bob,
                                                     django_capture_on_commit_callbacks):
    """Issue 6 part 5: N seeded simulations in one background job, only information the
    player may have (R-BJ-8)."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    mine = w.unit("alice", "Alpha")
    w.unit("bob", "Beta")  # bob's real unit there is not revealed: it is not used
    base = f"/api/campaigns/{w.campaign.pk}/odds/"
    body = {"territory": w.t["Beta"].pk, "units": [mine.pk], "simulations": 20}
    refused = client_for(alice).post(base, body, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "no_known_enemy"
    body["enemy"] = [{"model": "golem", "pilot_class": "soldier", "pilot_level": 1,
                      "weapons": ["machine_gun"]}]
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(alice).post(base, body, format="json")
    assert response.status_code == 202, response.json()
    oid = response.json()["id"]
    result = client_for(alice).get(f"{base}{oid}/").json()
    assert result["status"] == "finished"
    probabilities = result["result"]["win_probability"]
    assert abs(sum(probabilities.values()) - 1) < 1e-9
    assert result["result"]["n"] == 20
    assert client_for(bob).get(f"{base}{oid}/").status_code == 404
    odds = OddsRequest.objects.get()
    assert [u["id"] for u in odds.input["sides"]["enemy"]] == ["enemy-1"]


def test_odds_refuse_someone_elses_units(world, client_for, alice, bob):
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    theirs = w.unit("bob", "Beta")
    response = client_for(alice).post(
        f"/api/campaigns/{w.campaign.pk}/odds/",
        {"territory": w.t["Beta"].pk, "units": [theirs.pk],
         "enemy": [{"model": "golem"}]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_units"


def test_odds_refuse_an_enemy_list_beyond_its_bound(world, client_for, alice):
    """Every list has an upper bound (issue 11): 51 described enemies answer 400 and no
    odds request is made (each would cost simulated battles)."""
    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    mine = w.unit("alice", "Alpha")
    enemy = {"model": "golem", "pilot_class": "soldier", "pilot_level": 1,
             "weapons": ["machine_gun"]}
    response = client_for(alice).post(
        f"/api/campaigns/{w.campaign.pk}/odds/",
        {"territory": w.t["Beta"].pk, "units": [mine.pk], "enemy": [enemy] * 51},
        format="json")
    assert response.status_code == 400 and "enemy" in response.json()["fields"]
    assert not OddsRequest.objects.exists()
