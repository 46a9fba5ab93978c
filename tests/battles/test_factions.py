"""Faction support (issue 14; API.md "Rulesets"), proven with a toy ruleset with factions
(tests/rulesets/factionflip.py): `GET /api/rulesets/` lists its factions; joining takes
`{"faction": KEY}` (required, one of them: R-FAC-1), refused without changing anything
otherwise; the seat's faction shows in the campaign, decides its catalogue and what it
may buy, stays with the seat through a handover, and goes through export, import,
rollback and sandbox."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.apps import offer
from battles.rulesets import registry
from campaign import rulesets as core_rulesets
from campaign.models import Campaign, Event, PhaseStart, Player
from campaign.services import clock
from campaign.services.campaigns import campaign_approve_player
from campaign.services.setup import campaign_start
from economy.models import LedgerEntry, Unit
from territories.models import Territory
from tests.rulesets.coinflip import RULESET as COINFLIP
from tests.rulesets.factionflip import RULESET as FACTIONFLIP
from tests.rulesets.factionflip import FactionFlip

pytestmark = pytest.mark.django_db

LINE = {"nodes": ["Alpha", "Beta", "Gamma", "Delta"],
        "edges": [["Alpha", "Beta"], ["Beta", "Gamma"], ["Gamma", "Delta"]]}


@pytest.fixture
def toys():
    for ruleset in (FACTIONFLIP, COINFLIP):
        registry.register(ruleset)
        offer(ruleset)
    yield
    for name in ("factionflip", "coinflip"):
        registry.unregister(name)
        core_rulesets.unregister(name)


@pytest.fixture
def setup(toys, client_for, uma):
    """A campaign in set-up with the toy ruleset with factions, made through the API."""
    r = client_for(uma).post("/api/campaigns/", {
        "name": "Faction league", "map": LINE,
        "settings": {"ruleset": "factionflip"}}, format="json")
    assert r.status_code == 201, r.content
    return Campaign.objects.get(pk=r.json()["id"])


def _join(api, campaign, **body):
    return api.post(f"/api/campaigns/{campaign.pk}/join/",
                    {"invite": campaign.invite_code, **body}, format="json")


def _seats(campaign):
    return list(Player.objects.filter(campaign=campaign).values_list("user__username",
                                                                     "faction"))


def _joined_events(campaign):
    return Event.objects.filter(campaign=campaign, kind="player_joined").count()


@pytest.fixture
def running(setup, client_for, alice, bob):
    """alice plays red, bob blue; started (turn 1, commercial: landing pads stand)."""
    assert _join(client_for(alice), setup, faction="red").status_code == 201
    assert _join(client_for(bob), setup, faction="blue").status_code == 201
    campaign_start(campaign_id=setup.pk)
    setup.refresh_from_db()
    return setup


def test_the_rulesets_list_says_which_have_factions(toys, anon_client):
    listed = {r["name"]: r["factions"] for r in anon_client.get("/api/rulesets/").json()}
    assert listed["factionflip"] == ["red", "blue"]
    assert listed["coinflip"] == [] and listed["unlimit3d8"] == []


@pytest.mark.parametrize(("body", "code"), [
    ({}, "faction_required"),
    ({"faction": ""}, "faction_required"),
    ({"faction": None}, "faction_required"),
    ({"faction": "green"}, "unknown_faction"),
    ({"faction": "RED"}, "unknown_faction"),
    ({"faction": ["red"]}, "unknown_faction"),
])
def test_a_missing_or_unknown_faction_is_refused_and_changes_nothing(
        setup, client_for, alice, body, code):
    """R-FAC-1: a ruleset with factions needs one of them; the answer names the choices."""
    r = _join(client_for(alice), setup, **body)
    assert r.status_code == 400, r.content
    assert r.json()["code"] == code
    assert "red, blue" in r.json()["detail"]
    assert r.json()["fields"]["faction"] == ["Choose one of: red, blue."]
    assert _seats(setup) == [] and _joined_events(setup) == 0


def test_joining_with_a_faction_takes_the_seat_and_shows_it(setup, client_for, alice, bob,
                                                            uma):
    r = _join(client_for(alice), setup, faction="red")
    assert r.status_code == 201, r.content
    assert r.json()["faction"] == "red"
    assert _join(client_for(bob), setup, faction="blue").status_code == 201
    assert _seats(setup) == [("alice", "red"), ("bob", "blue")]
    detail = client_for(uma).get(f"/api/campaigns/{setup.pk}/").json()
    assert {p["username"]: p["faction"] for p in detail["players"]} == {"alice": "red",
                                                                       "bob": "blue"}
    joined = Event.objects.filter(campaign=setup, kind="player_joined").order_by("pk")
    assert [e.data["faction"] for e in joined] == ["red", "blue"]
    # Two seats may play the same faction: nothing in the contract makes it exclusive.
    assert _join(client_for(uma), setup, faction="red").status_code == 201


def test_the_faction_does_not_replace_the_invitation(setup, client_for, alice):
    """The invite code is still needed (403 first), and a repeated join is still 409."""
    r = client_for(alice).post(f"/api/campaigns/{setup.pk}/join/", {"faction": "red"},
                               format="json")
    assert (r.status_code, r.json()["code"]) == (403, "invite_required")
    assert _seats(setup) == []
    assert _join(client_for(alice), setup, faction="red").status_code == 201
    again = _join(client_for(alice), setup, faction="blue")
    assert (again.status_code, again.json()["code"]) == (409, "already_joined")
    assert _seats(setup) == [("alice", "red")]


def test_a_seat_waiting_for_approval_keeps_its_faction(toys, make_campaign, uma, alice,
                                                       client_for):
    campaign = make_campaign(uma, options={"ruleset": "factionflip", "approve_joins": True})
    refused = _join(client_for(alice), campaign)
    assert refused.json()["code"] == "faction_required" and _seats(campaign) == []
    assert _join(client_for(alice), campaign, faction="blue").status_code == 201
    seat = Player.objects.get(campaign=campaign)
    assert (seat.approved, seat.faction) == (False, "blue")
    campaign_approve_player(campaign_id=campaign.pk, player_id=seat.pk, by="uma")
    seat.refresh_from_db()
    assert (seat.approved, seat.faction) == (True, "blue")


@pytest.mark.parametrize("ruleset", ["coinflip", "unlimit3d8"])
def test_a_faction_is_refused_by_a_ruleset_without_factions(toys, make_campaign, uma, alice,
                                                            client_for, ruleset):
    """R-FAC-1: a ruleset without factions refuses a faction (400 `no_factions`, nothing
    changes); an empty or null one is "no faction" and the seat is taken."""
    campaign = make_campaign(uma, options={"ruleset": ruleset})
    r = _join(client_for(alice), campaign, faction="red")
    assert (r.status_code, r.json()["code"]) == (400, "no_factions")
    assert "has no factions" in r.json()["detail"]
    assert _seats(campaign) == [] and _joined_events(campaign) == 0
    r = _join(client_for(alice), campaign, faction=None)
    assert r.status_code == 201 and r.json()["faction"] == ""
    assert "faction" not in Event.objects.get(campaign=campaign, kind="player_joined").data


def test_the_catalogue_is_the_seats_factions(running, client_for, alice, bob):
    url = f"/api/campaigns/{running.pk}/catalogue/"
    hers = client_for(alice).get(url).json()
    his = client_for(bob).get(url).json()
    assert [e["key"] for e in hers] == ["coin", "red_knight"]  # cheapest first
    assert [e["key"] for e in his] == ["coin", "blue_archer"]


def _buy(api, campaign, territory, key):
    return api.post(f"/api/campaigns/{campaign.pk}/purchases/",
                    {"territory": territory.pk, "item": {"kind": "unit", "key": key}},
                    format="json")


def test_a_seat_buys_its_factions_units_and_never_anothers(running, client_for, alice):
    seat = Player.objects.get(campaign=running, user=alice)
    home = Territory.objects.get(campaign=running, owner=seat)
    api = client_for(alice)
    credits, entries = seat.credits, LedgerEntry.objects.filter(player=seat).count()

    refused = _buy(api, running, home, "blue_archer")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "not_your_faction"
    assert "your seat plays red" in refused.json()["detail"]
    unknown = _buy(api, running, home, "green_giant")
    assert (unknown.status_code, unknown.json()["code"]) == (400, "invalid_item")
    seat.refresh_from_db()
    assert seat.credits == credits
    assert LedgerEntry.objects.filter(player=seat).count() == entries
    assert not Unit.objects.filter(player=seat).exists()

    bought = _buy(api, running, home, "red_knight")
    assert bought.status_code == 201, bought.content
    unit = Unit.objects.get(pk=bought.json()["unit"])
    assert (unit.model, unit.profile, unit.state) == ("red_knight", {"figures": 1},
                                                       {"figures": 1, "wins": 0})
    seat.refresh_from_db()
    assert seat.credits == credits - 30
    assert _buy(api, running, home, "coin").status_code == 201  # common to all factions


def test_the_core_keeps_a_seat_to_its_faction_whatever_the_ruleset_returns(
        running, client_for, alice):
    """A ruleset whose catalogue ignores the faction still sells a seat only its own
    faction's units (and the common ones)."""

    class Leaky(FactionFlip):
        def catalogue(self, *, faction=None, options=None):
            return super().catalogue(faction=None, options=options)

    offer(Leaky())
    url = f"/api/campaigns/{running.pk}/catalogue/"
    assert [e["key"] for e in client_for(alice).get(url).json()] == ["coin", "red_knight"]
    home = Territory.objects.get(campaign=running, owner__user=alice)
    assert _buy(client_for(alice), running, home, "blue_archer").status_code == 400


def test_a_handed_over_seat_keeps_its_faction(running, client_for, uma, alice, charlie):
    """R-FAC-2: the faction belongs to the seat (its units were bought for it)."""
    seat = Player.objects.get(campaign=running, user=alice)
    r = client_for(uma).post(f"/api/campaigns/{running.pk}/players/{seat.pk}/handover/",
                             {"username": "charlie"}, format="json")
    assert r.status_code == 200, r.content
    seat.refresh_from_db()
    assert (seat.user, seat.faction) == (charlie, "red")
    keys = [e["key"] for e in client_for(charlie).get(
        f"/api/campaigns/{running.pk}/catalogue/").json()]
    assert keys == ["coin", "red_knight"]


def test_the_ruleset_cannot_change_under_seats_whose_factions_it_lacks(
        setup, client_for, uma, alice):
    """R-FAC-2: in set-up the ruleset may change, but not away from the seats' factions
    (409, nothing changes); with no seat taken it may."""
    assert _join(client_for(alice), setup, faction="red").status_code == 201
    api = client_for(uma)
    for ruleset in ("coinflip", "unlimit3d8"):
        r = api.patch(f"/api/campaigns/{setup.pk}/settings/", {"ruleset": ruleset},
                      format="json")
        assert (r.status_code, r.json()["code"]) == (409, "faction_mismatch"), r.content
        assert "alice (red)" in r.json()["detail"]
    setup.refresh_from_db()
    assert setup.settings.ruleset == "factionflip"
    Player.objects.filter(campaign=setup).delete()
    r = api.patch(f"/api/campaigns/{setup.pk}/settings/", {"ruleset": "coinflip"},
                  format="json")
    assert r.status_code == 200, r.content


def test_a_campaign_does_not_start_with_a_seat_outside_the_rulesets_factions(
        setup, client_for, alice, bob):
    """R-FAC-2: the start checks the seats again (a faction the ruleset no longer has)."""
    assert _join(client_for(alice), setup, faction="red").status_code == 201
    assert _join(client_for(bob), setup, faction="blue").status_code == 201
    Player.objects.filter(campaign=setup, user=bob).update(faction="green")
    r = client_for(setup.umpire).post(f"/api/campaigns/{setup.pk}/start/")
    assert (r.status_code, r.json()["code"]) == (409, "faction_mismatch")
    assert "bob (green)" in r.json()["detail"]
    setup.refresh_from_db()
    assert setup.status == "setup"


def test_export_import_and_sandbox_carry_the_faction(running, client_for, uma, alice):
    """R-FAC-3."""
    export = client_for(uma).get(f"/api/campaigns/{running.pk}/export/").json()
    assert {p["username"]: p["faction"] for p in export["players"]} == {"alice": "red",
                                                                       "bob": "blue"}
    made = client_for(uma).post("/api/campaigns/import/", export, format="json")
    assert made.status_code == 201, made.content
    # the seats wait unclaimed under their imported names (issue 30.1), factions kept
    assert list(Player.objects.filter(campaign_id=made.json()["id"]).values_list(
        "user__first_name", "faction")) == [("alice", "red"), ("bob", "blue")]
    sandbox = client_for(alice).post(f"/api/campaigns/{running.pk}/sandbox/",
                                     {"turn": 1, "phase": "commercial"}, format="json")
    assert sandbox.status_code == 201, sandbox.content
    copied = sorted(f for _name, f in _seats(Campaign.objects.get(pk=sandbox.json()["id"])))
    assert copied == ["blue", "red"]


def test_an_import_with_a_faction_the_ruleset_lacks_is_refused(running, client_for, uma):
    """R-FAC-3: nothing is made."""
    export = client_for(uma).get(f"/api/campaigns/{running.pk}/export/").json()
    export["players"][0]["faction"] = "green"
    before = Campaign.objects.count()
    r = client_for(uma).post("/api/campaigns/import/", export, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "invalid_import")
    assert "green" in r.json()["detail"] and "red, blue" in r.json()["detail"]
    assert Campaign.objects.count() == before


def test_a_rollback_restores_the_seats_faction(running, client_for, uma):
    """The seat rows kept at a phase start include the faction; a rollback puts it back
    (here after a change made behind the service's back)."""
    assert PhaseStart.objects.filter(campaign=running, turn=1, phase="commercial").exists()
    clock.advance(campaign_id=running.pk, by="umpire")  # -> activity
    Player.objects.filter(campaign=running).update(faction="")
    r = client_for(uma).post(f"/api/campaigns/{running.pk}/rollback/",
                             {"turn": 1, "phase": "commercial", "reason": "test"},
                             format="json")
    assert r.status_code == 200, r.content
    assert _seats(running) == [("alice", "red"), ("bob", "blue")]


# The pages -----------------------------------------------------------------------------

def _page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_join_page_offers_the_factions_and_needs_one(setup, alice):
    page = _page(alice)
    url = f"/campaigns/{setup.pk}/join/?invite={setup.invite_code}"
    html = page.get(url).content.decode()
    assert '<select name="faction" id="faction" required>' in html
    assert '<option value="red">Red</option>' in html
    assert '<option value="blue">Blue</option>' in html
    refused = page.post(url, {"invite": setup.invite_code}, follow=True).content.decode()
    assert "is played by factions" in refused and _seats(setup) == []
    r = page.post(url, {"invite": setup.invite_code, "faction": "blue"})
    assert r.status_code == 302
    assert _seats(setup) == [("alice", "blue")]


def test_the_join_page_of_a_ruleset_without_factions_has_no_choice(toys, make_campaign,
                                                                   uma, alice):
    campaign = make_campaign(uma, options={"ruleset": "coinflip"})
    html = _page(alice).get(f"/campaigns/{campaign.pk}/join/").content.decode()
    assert 'name="faction"' not in html


def test_the_dashboard_console_and_economy_page_show_the_faction(running, uma, alice):
    dashboard = _page(alice).get(f"/campaigns/{running.pk}/").content.decode()
    assert '<span class="badge">Red</span>' in dashboard
    assert '<span class="badge">Blue</span>' in dashboard
    console = _page(uma).get(f"/campaigns/{running.pk}/umpire/seats/").content.decode()
    assert '<span class="badge">Red</span>' in console
    economy = _page(alice).get(f"/campaigns/{running.pk}/economy/").content.decode()
    assert "You play the <strong>Red</strong> faction" in economy
    assert 'value="red_knight"' in economy and 'value="coin"' in economy
    assert 'value="blue_archer"' not in economy


def test_a_removed_seat_takes_its_faction_and_the_next_one_chooses(
        setup, client_for, uma, alice, charlie):
    assert _join(client_for(alice), setup, faction="red").status_code == 201
    seat = Player.objects.get(campaign=setup)
    page = _page(uma)
    page.post(f"/campaigns/{setup.pk}/umpire/remove/", {"player": seat.pk})
    setup.refresh_from_db()  # a new invite code
    assert _seats(setup) == []
    assert _join(client_for(charlie), setup, faction="blue").status_code == 201
    assert _seats(setup) == [("charlie", "blue")]


def test_a_battle_of_a_ruleset_with_factions_knows_each_sides_faction(
        toys, world, client_for, alice, bob, django_capture_on_commit_callbacks):
    """The battle opening hands the ruleset each side's faction (Battlefield extras
    `factions`), so a ruleset whose factions fight differently can tell them apart."""
    from battles.models import Battle
    from campaign.models import PhaseChange
    from economy.services import ledger

    w = world(options={"ruleset": "factionflip"}, owners={"Alpha": "alice", "Beta": "bob"})
    for who, faction in (("alice", "red"), ("bob", "blue")):
        Player.objects.filter(pk=w.players[who].pk).update(faction=faction)
        w.players[who].refresh_from_db()
        ledger.post(player=w.players[who], amount=100, reason="umpire_grant")
    for where in ("Alpha", "Beta"):
        w.building(where, "landing_pad")
    w.campaign.phase = "commercial"
    w.campaign.save()
    PhaseChange.objects.filter(campaign=w.campaign).update(phase="commercial")
    mine = _buy(client_for(alice), w.campaign, w.t["Alpha"], "red_knight").json()["unit"]
    _buy(client_for(bob), w.campaign, w.t["Beta"], "blue_archer")
    clock.advance(campaign_id=w.campaign.pk, by="umpire")  # -> activity
    clock.advance(campaign_id=w.campaign.pk, by="umpire")  # -> move
    order = client_for(alice).post(f"/api/campaigns/{w.campaign.pk}/orders/",
                                   {"unit": mine, "destination": w.t["Beta"].pk},
                                   format="json")
    assert order.status_code == 201, order.content
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=w.campaign.pk, by="umpire")  # -> tactical: the battle
    battle = Battle.objects.get(campaign=w.campaign)
    assert battle.input["factions"] == {str(w.players["alice"].pk): "red",
                                        str(w.players["bob"].pk): "blue"}
    assert battle.status == "finished"
