"""Campaigns of the light rulesets play whole turns (issue 12): units bought from the
ruleset's catalogue through the API, ordered like any other, their battle opened by the
ruleset's `forces`, resolved by the job with seeded dice, recorded once from the neutral
outcome (figures lost, vehicle damage, training climbing), and repaired for credits."""

from __future__ import annotations

import random
import re

import pytest

from battles.models import Battle
from battles.rulesets.registry import find_ruleset
from campaign.models import Event, PhaseChange
from campaign.rules.dice import Dice
from campaign.services import clock
from economy.models import LedgerEntry, Unit
from economy.services import ledger

pytestmark = pytest.mark.django_db

#: ruleset -> (attacker's purchases, defender's purchases)
ARMIES = {
    "onepage": (["rifle_squad", "light_tank"], ["rifle_squad", "anti_tank_team"]),
    "battledice": (["medium_infantry", "heavy_vehicle"], ["medium_infantry", "light_vehicle"]),
    "thirtymm": (["standard_mech", "scout_drone"], ["assault_tank", "scout_drone"]),
    "mobius": (["acorn_officer", "acorn_royal_army"], ["egg_boss", "egg_pawns"]),
}


def _buy(api, w, where, key):
    r = api.post(f"/api/campaigns/{w.campaign.pk}/purchases/",
                 {"territory": w.t[where].pk, "item": {"kind": "unit", "key": key}},
                 format="json")
    assert r.status_code == 201, r.content
    return Unit.objects.get(pk=r.json()["unit"])


#: the seats' factions where the ruleset has factions (issue 14: chosen when joining)
SEAT_FACTIONS = {"mobius": {"alice": "kingdom_of_acorn", "bob": "eggman_empire"}}


def _campaign(world, ruleset, **options):
    w = world(options={"ruleset": ruleset, **options},
              owners={"Alpha": "alice", "Beta": "bob"})
    for who, faction in SEAT_FACTIONS.get(ruleset, {}).items():
        w.players[who].faction = faction
        w.players[who].save(update_fields=["faction"])
    for where in ("Alpha", "Beta"):
        w.building(where, "landing_pad")
    w.campaign.phase = "commercial"
    w.campaign.save()
    PhaseChange.objects.filter(campaign=w.campaign).update(phase="commercial")
    for who in ("alice", "bob"):
        ledger.post(player=w.players[who], amount=1000, reason="umpire_grant")
    return w


@pytest.mark.parametrize("ruleset", list(ARMIES))
def test_a_campaign_of_the_ruleset_plays_a_whole_turn(
        ruleset, world, client_for, alice, bob, django_capture_on_commit_callbacks):
    w = _campaign(world, ruleset)
    api_a, api_b = client_for(alice), client_for(bob)
    attack, defence = ARMIES[ruleset]
    catalogue = {e["key"]: e for e in
                 api_a.get(f"/api/campaigns/{w.campaign.pk}/catalogue/").json()}
    mine = [_buy(api_a, w, "Alpha", k) for k in attack]
    theirs = [_buy(api_b, w, "Beta", k) for k in defence]
    w.players["alice"].refresh_from_db()
    assert w.players["alice"].credits == 1000 - sum(catalogue[k]["price"] for k in attack)
    assert all(u.pilot_id is None and u.state for u in mine)

    clock.advance(campaign_id=w.campaign.pk, by="umpire")
    clock.advance(campaign_id=w.campaign.pk, by="umpire")
    for unit in mine:
        r = api_a.post(f"/api/campaigns/{w.campaign.pk}/orders/",
                       {"unit": unit.pk, "destination": w.t["Beta"].pk}, format="json")
        assert r.status_code == 201, r.content
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=w.campaign.pk, by="umpire")

    battle = Battle.objects.get(campaign=w.campaign)
    assert (battle.ruleset_name, battle.status) == (ruleset, "finished")
    rules = find_ruleset(ruleset)
    outcome = rules.resolve(battle.input, Dice(random.Random(battle.input["seed"])))
    assert battle.winner_id == outcome.winner
    assert battle.log == list(outcome.log)  # the ruleset's own log, kept whole
    fates = {f.unit: f for f in outcome.units}
    for unit in [*mine, *theirs]:
        unit.refresh_from_db()
        fate = fates[unit.pk]
        if fate.fate == "destroyed":
            assert unit.status == "destroyed"
        else:
            for key, value in fate.state.items():
                assert unit.state[key] == value
            assert unit.state["battles"] == 1  # survived: the ruleset's veterancy
    assert Event.objects.filter(campaign=w.campaign, kind="battle_result").count() == 1
    shown = api_a.get(f"/api/campaigns/{w.campaign.pk}/battles/{battle.pk}/").json()
    assert shown["ruleset"] == {"name": ruleset, "version": rules.version}
    # The battle page reads the ruleset's own replay: names and dice, turn by turn.
    from django.test import Client

    page = Client()
    page.force_login(alice)
    html = page.get(f"/campaigns/{w.campaign.pk}/battles/{battle.pk}/").content.decode()
    assert rules.title in html
    # ... in the ruleset's words with the sides named (issue 26): "Initiative: alice
    # (bob 4, alice 6)", not "side 1 (2: 4, 1: 6)".
    from html import escape

    from campaign.models import Player

    sides = {str(pk): name for pk, name in Player.objects.filter(
        campaign=w.campaign).values_list("pk", "user__username")}
    first = next(step for step in outcome.log if step.get("text"))
    said = rules.narrate(first, {"side": sides})["text"]
    assert escape(said) in html
    assert not re.search(r"\b[Ss]ide \d+\b", said)


def test_a_damaged_unit_is_repaired_for_what_its_ruleset_prices(world, client_for, alice):
    w = _campaign(world, "onepage")
    api = client_for(alice)
    squad = _buy(api, w, "Alpha", "rifle_squad")
    url = f"/api/campaigns/{w.campaign.pk}/units/{squad.pk}/repair/"
    nothing = api.post(url)
    assert nothing.status_code == 409 and nothing.json()["code"] == "nothing_to_repair"
    Unit.objects.filter(pk=squad.pk).update(state={**squad.state, "figures": 4})
    before = LedgerEntry.objects.count()
    r = api.post(url)
    assert r.status_code == 200, r.content
    assert r.json()["cost"] == 16  # R-OP-12: 2 of 6 figures of a 48 SC squad
    squad.refresh_from_db()
    assert squad.state["figures"] == 6
    assert LedgerEntry.objects.count() == before + 1
    w.players["alice"].refresh_from_db()
    assert w.players["alice"].credits == 1000 - 48 - 16
    other = client_for(w.players["bob"].user).post(url)
    assert other.status_code == 404  # someone else's unit: as if it did not exist


def test_a_tabletop_report_in_the_rulesets_words_is_recorded(
        world, client_for, uma, alice, bob):
    from battles.services.opening import open_battles

    w = world(options={"ruleset": "onepage", "battle_mode": "tabletop"},
              owners={"Alpha": "alice", "Beta": "bob"})
    rules = find_ruleset("onepage")
    squad = Unit.objects.create(player=w.players["alice"], territory=w.t["Beta"],
                                model="rifle_squad", name="Reds",
                                profile=next(e.profile for e in rules.catalogue()
                                             if e.key == "rifle_squad"),
                                state=rules.initial_state("rifle_squad"))
    tank = Unit.objects.create(player=w.players["bob"], territory=w.t["Beta"],
                               model="light_tank", name="Blue tank",
                               profile=next(e.profile for e in rules.catalogue()
                                            if e.key == "light_tank"),
                               state=rules.initial_state("light_tank"))
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    url = f"/api/campaigns/{w.campaign.pk}/battles/{battle.pk}/result/"
    umpire = client_for(uma)
    wrong = umpire.post(url, {"winner": w.players["alice"].pk,
                              "units": [{"id": squad.pk, "figures_lost": 9}]}, format="json")
    assert wrong.status_code == 400 and "cannot lose" in wrong.json()["detail"]
    junk = umpire.post(url, {"winner": "x"}, format="json")
    assert junk.status_code == 400 and "winner" in str(junk.json())
    assert Battle.objects.get(pk=battle.pk).status != "finished"
    ok = umpire.post(url, {"winner": w.players["bob"].pk,
                           "units": [{"id": squad.pk, "figures_lost": 2},
                                     {"id": tank.pk, "vehicle_damage": ["immobilised"]}]},
                     format="json")
    assert ok.status_code in (200, 201), ok.content
    squad.refresh_from_db()
    tank.refresh_from_db()
    assert squad.state["figures"] == 4
    assert tank.state["damage"] == ["immobilised"]
    assert Battle.objects.get(pk=battle.pk).winner_id == w.players["bob"].pk


def test_the_economy_page_sells_the_rulesets_catalogue(world, client_for, alice):
    from django.test import Client

    w = _campaign(world, "battledice")
    page = Client()
    page.force_login(alice)
    html = page.get(f"/campaigns/{w.campaign.pk}/economy/").content.decode()
    assert "Light God Machine" in html and "Buy vehicle" not in html
    r = page.post(f"/campaigns/{w.campaign.pk}/economy/buy/",
                  {"kind": "unit", "key": "light_infantry", "territory": w.t["Alpha"].pk})
    assert r.status_code == 302
    assert Unit.objects.filter(player=w.players["alice"], model="light_infantry").count() == 1


def test_a_finished_battle_has_a_report_in_names_a_player_knows(
        world, client_for, alice, bob, django_capture_on_commit_callbacks):
    """API.md "History, spectators, people": `report` with a narrative and named sides."""
    w = _campaign(world, "onepage")
    api_a, api_b = client_for(alice), client_for(bob)
    mine = _buy(api_a, w, "Alpha", "rifle_squad")
    _buy(api_b, w, "Beta", "militia_squad")
    clock.advance(campaign_id=w.campaign.pk, by="umpire")
    clock.advance(campaign_id=w.campaign.pk, by="umpire")
    api_a.post(f"/api/campaigns/{w.campaign.pk}/orders/",
               {"unit": mine.pk, "destination": w.t["Beta"].pk}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=w.campaign.pk, by="umpire")
    battle = Battle.objects.get(campaign=w.campaign)
    report = api_b.get(f"/api/campaigns/{w.campaign.pk}/battles/{battle.pk}/").json()["report"]
    assert report["territory"]["name"] == "Beta"
    names = {s["username"]: s for s in report["sides"]}
    assert set(names) == {"alice", "bob"}
    mine.refresh_from_db()  # named when bought (issue 26): "Rifle squad 'Long Walk'"
    assert mine.name.startswith("Rifle squad '")
    assert names["alice"]["units"][0]["name"] == mine.name
    assert names["alice"]["units"][0]["id"] == mine.pk  # ids kept for clients
    assert "alice attacked Beta, defended by bob (its owner)" in report["narrative"]
    winner = report["winner"]["username"]
    assert f"{winner} won" in report["narrative"]
    assert report["dice"]["dice"] > 0
    queued = Battle.objects.create(campaign=w.campaign, turn=2, territory=w.t["Alpha"],
                                   order=1, sides=[], input={}, seed=1)
    unfinished = api_a.get(f"/api/campaigns/{w.campaign.pk}/battles/{queued.pk}/").json()
    assert unfinished["report"] is None


def test_an_umpire_imports_30mm_datasheets_and_a_bad_one_changes_nothing(
        world, client_for, uma, alice):
    """R-30-1: datasheets go in through the campaign's ruleset options, checked first."""
    import copy

    from battles.rulesets.thirtymm.datasheets import STARTERS
    from campaign.models import Campaign

    w = _campaign(world, "thirtymm")
    url = f"/api/campaigns/{w.campaign.pk}/settings/"
    good = {**copy.deepcopy(STARTERS[0]), "key": "brawler", "name": "Brawler",
            "deployment_cost": 700}
    bad = {**good, "key": "wrecker", "type": "terrestrial"}
    before = Campaign.objects.get(pk=w.campaign.pk).options
    r = client_for(uma).patch(url, {"ruleset_options": {"thirtymm_datasheets": [good, bad]}},
                              format="json")
    assert r.status_code == 400, r.content
    assert "Cockpit Unit Section in place of a Torso" in r.content.decode()
    assert Campaign.objects.get(pk=w.campaign.pk).options == before

    r = client_for(uma).patch(url, {"ruleset_options": {"thirtymm_datasheets": [good]}},
                              format="json")
    assert r.status_code == 200, r.content
    catalogue = client_for(alice).get(f"/api/campaigns/{w.campaign.pk}/catalogue/").json()
    assert next(e for e in catalogue if e["key"] == "brawler")["price"] == 140  # 700 / 5
    unit = _buy(client_for(alice), w, "Alpha", "brawler")
    assert unit.profile["deployment_cost"] == 700


def test_an_umpire_imports_a_mobius_army_list_and_a_bad_one_changes_nothing(
        world, client_for, uma, alice, bob):
    """R-MOB-9: army lists go in through the campaign's ruleset options, checked first
    against the JSON Schema; an imported unit is priced in SC (R-MOB-1) and bought."""
    from campaign.models import Campaign

    w = _campaign(world, "mobius")
    w.players["alice"].faction = "gun"  # the imported list is GUN's
    w.players["alice"].save(update_fields=["faction"])
    url = f"/api/campaigns/{w.campaign.pk}/settings/"
    unit = {"key": "gun_patrol", "name": "GUN patrol", "rank": "troops", "type": "infantry",
            "points": 61, "models": 4, "move": 6, "cqc": 2, "rc": 3, "pan": 7, "hp": 1,
            "def": 4, "weapons": [{"key": "pistol", "name": "Pistol", "rng": 12, "st": 4,
                                   "ak": 1, "dam": 1, "type": "assault"}]}
    good = {"faction": "gun", "name": "Patrol", "units": [unit]}
    bad = {"faction": "gun", "name": "Broken", "units": [{**unit, "key": "gun_broken",
                                                          "points": 0}]}
    before = Campaign.objects.get(pk=w.campaign.pk).options
    r = client_for(uma).patch(url, {"ruleset_options": {"mobius_army_lists": [good, bad]}},
                              format="json")
    assert r.status_code == 400, r.content
    assert "units[0].points must be at least 1" in r.content.decode()
    assert Campaign.objects.get(pk=w.campaign.pk).options == before

    r = client_for(uma).patch(url, {"ruleset_options": {"mobius_army_lists": [good]}},
                              format="json")
    assert r.status_code == 200, r.content
    catalogue = client_for(alice).get(f"/api/campaigns/{w.campaign.pk}/catalogue/").json()
    assert next(e for e in catalogue if e["key"] == "gun_patrol")["price"] == 31  # 61 / 2
    bought = _buy(client_for(alice), w, "Alpha", "gun_patrol")
    assert bought.profile["faction"] == "gun" and bought.profile["points"] == 61
    # bob plays the Eggman Empire: GUN's imported patrol is not his to buy
    units = Unit.objects.count()
    refused = client_for(bob).post(f"/api/campaigns/{w.campaign.pk}/purchases/", {
        "territory": w.t["Beta"].pk, "item": {"kind": "unit", "key": "gun_patrol"}},
        format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "not_your_faction"
    assert Unit.objects.count() == units


def test_the_site_offers_mobius_with_its_factions_and_tables(client):
    """GET /api/rulesets/ and GET /api/rules/?ruleset=mobius speak Mobius."""
    row = next(r for r in client.get("/api/rulesets/").json() if r["name"] == "mobius")
    assert row["title"] == "Mobius" and row["seed"] == "000_8a487fefb02227dd.txt"
    assert row["dice"] == ["d6"] and "kingdom_of_acorn" in row["factions"]
    tables = client.get("/api/rules/?ruleset=mobius").json()
    assert tables["average"]["move"] == 6 and "army_list_schema" in tables
    assert tables["options"]["mobius_points_limit"] == 1000
