"""Issue 30, items 1-3 (API.md "Trust (wave 3)"): an import seats nobody but the
importer, the other seats are claimed with codes; a bad document is a 400 naming the
first bad path and writes nothing; a copy's battles verify; big bodies are JSON
refusals; imports are throttled and their writes set-based."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from campaign.models import Campaign, Event, Player
from campaign.services import clock
from campaign.services.imports import import_campaign
from territories.models import Territory

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def document(league, client_for, uma):
    return client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()


def _counts() -> tuple[int, ...]:
    return (Campaign.objects.count(), Player.objects.count(), User.objects.count(),
            Event.objects.count(), Territory.objects.count())


def _import(client, doc):
    return client.post("/api/campaigns/import/", doc, format="json")


# --- 30.1: only the importer is seated; the others claim ---------------------------


def test_an_import_seats_only_the_importer_and_takes_no_ones_name(document, client_for,
                                                                  charlie, alice, bob):
    users_before = set(User.objects.values_list("username", flat=True))
    r = _import(client_for(charlie), document)
    assert r.status_code == 201, r.content
    copy_id = r.json()["id"]
    copied = Campaign.objects.get(pk=copy_id)
    assert copied.umpire == charlie
    # alice and bob are not seated, do not see it and are not told
    assert not Player.objects.filter(campaign=copied, user__in=[alice, bob, charlie]).exists()
    for who in (alice, bob):
        listed = client_for(who).get("/api/campaigns/").json()
        ids = {c["id"] for c in (listed["results"] if isinstance(listed, dict) else listed)}
        assert copy_id not in ids
        assert client_for(who).get(f"/api/campaigns/{copy_id}/").status_code == 404
    # no account was made under a name someone could sign up with
    made = set(User.objects.values_list("username", flat=True)) - users_before
    assert len(made) == 2 and not made & {"alice", "bob"}
    assert all(not u.is_active and not u.has_usable_password() and not u.email
               for u in User.objects.filter(username__in=made))
    # the umpire reads a code for each unclaimed seat, under the seat's imported name
    seats = client_for(charlie).get(f"/api/campaigns/{copy_id}/").json()["players"]
    assert sorted(s["username"].split("~")[0] for s in seats) == ["alice", "bob"]
    assert all(len(s["claim_code"]) >= 12 for s in seats)
    assert len({s["claim_code"] for s in seats}) == 2


def test_a_seat_is_claimed_with_its_code_and_only_once(document, client_for, charlie,
                                                       alice, bob):
    copy_id = _import(client_for(charlie), document).json()["id"]
    seats = client_for(charlie).get(f"/api/campaigns/{copy_id}/").json()["players"]
    code_of = {s["username"].split("~")[0]: s["claim_code"] for s in seats}
    url = f"/api/campaigns/{copy_id}/claim/"
    before = _counts()
    wrong = client_for(alice).post(url, {"code": "not-the-code"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (404, "no_such_seat")
    empty = client_for(alice).post(url, {"code": ""}, format="json")
    assert (empty.status_code, empty.json()["code"]) == (400, "invalid_code")
    elsewhere = client_for(alice).post("/api/campaigns/999999/claim/",
                                       {"code": code_of["alice"]}, format="json")
    assert elsewhere.status_code == 404
    assert _counts() == before
    assert not Player.objects.filter(campaign_id=copy_id, user=alice).exists()

    credits = Player.objects.get(campaign_id=copy_id, claim_code=code_of["alice"]).credits
    r = client_for(alice).post(url, {"code": code_of["alice"]}, format="json")
    assert r.status_code == 200, r.content
    seat = Player.objects.get(campaign_id=copy_id, user=alice)
    assert seat.claim_code == "" and seat.credits == credits
    assert r.json()["username"] == "alice"
    assert not User.objects.filter(username__startswith="alice~").exists()  # placeholder gone
    assert client_for(alice).get(f"/api/campaigns/{copy_id}/").status_code == 200
    # one seat each: alice cannot take bob's too; the code used is spent
    again = client_for(alice).post(url, {"code": code_of["bob"]}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_seated")
    spent = client_for(bob).post(url, {"code": code_of["alice"]}, format="json")
    assert spent.status_code == 404
    assert client_for(bob).post(url, {"code": code_of["bob"]},
                                format="json").status_code == 200
    seats = client_for(charlie).get(f"/api/campaigns/{copy_id}/").json()["players"]
    assert all("claim_code" not in s for s in seats)


def test_players_never_read_the_claim_codes(document, client_for, charlie, alice):
    copy_id = _import(client_for(charlie), document).json()["id"]
    codes = list(Player.objects.filter(campaign_id=copy_id).values_list("claim_code",
                                                                         flat=True))
    client_for(alice).post(f"/api/campaigns/{copy_id}/claim/", {"code": codes[0]},
                           format="json")
    for path in ("", "events/", "territories/", "me/"):
        text = client_for(alice).get(f"/api/campaigns/{copy_id}/{path}").content.decode()
        assert codes[1] not in text
    exported = client_for(charlie).get(f"/api/campaigns/{copy_id}/export/").content.decode()
    assert codes[1] not in exported


def test_an_unclaimed_seat_does_not_hold_the_league_back(document, client_for, charlie,
                                                         alice):
    """R-SEC-3: every claimed seat ready -> the phase advances; the unclaimed seat misses
    no turn."""
    copy_id = _import(client_for(charlie), document).json()["id"]
    code = Player.objects.filter(campaign_id=copy_id).first().claim_code
    client_for(alice).post(f"/api/campaigns/{copy_id}/claim/", {"code": code}, format="json")
    copied = Campaign.objects.get(pk=copy_id)
    assert (copied.status, copied.phase) == ("running", "commercial")
    r = client_for(alice).post(f"/api/campaigns/{copy_id}/ready/")
    assert r.status_code == 200, r.content
    copied.refresh_from_db()
    assert copied.phase == "activity"
    clock.advance(campaign_id=copy_id, by="umpire")  # -> move
    clock.advance(campaign_id=copy_id, by="umpire")  # leaving move counts missed turns
    unclaimed = Player.objects.get(campaign_id=copy_id, user__username__contains="~")
    assert unclaimed.missed_turns == 0
    assert Player.objects.get(campaign_id=copy_id, user=alice).missed_turns == 1


def test_a_sandbox_still_gets_stand_ins_and_no_codes(league, client_for, alice):
    clock.advance(campaign_id=league.pk, by="umpire")
    r = client_for(alice).post(f"/api/campaigns/{league.pk}/sandbox/",
                               {"turn": 1, "phase": "commercial"}, format="json")
    assert r.status_code == 201, r.content
    seats = Player.objects.filter(campaign_id=r.json()["id"])
    assert seats.count() == 2 and not seats.exclude(claim_code="").exists()


# --- 30.1: the whole document validated first --------------------------------------


def _set(path, value):
    def change(doc):
        *head, last = path
        target = doc
        for key in head:
            target = target[key]
        target[last] = value
    return change


def _drop(path):
    def change(doc):
        *head, last = path
        target = doc
        for key in head:
            target = target[key]
        del target[last]
    return change


def _same_name(doc):
    doc["territories"][1]["name"] = doc["territories"][0]["name"]


def _same_id(doc):
    doc["territories"][1]["id"] = doc["territories"][0]["id"]


def _same_username(doc):
    doc["players"][1]["username"] = doc["players"][0]["username"]


def _same_seat_id(doc):
    doc["players"][1]["id"] = doc["players"][0]["id"]


BAD = [
    ("turn is text", _set(("campaign", "turn"), "abc"), "campaign.turn"),
    ("negative turn", _set(("campaign", "turn"), -1), "campaign.turn"),
    ("huge turn", _set(("campaign", "turn"), 10**30), "campaign.turn"),
    ("bogus status", _set(("campaign", "status"), "bogus"), "campaign.status"),
    ("bogus phase", _set(("campaign", "phase"), "lunch"), "campaign.phase"),
    ("long campaign name", _set(("campaign", "name"), "n" * 300), "campaign.name"),
    ("empty campaign name", _set(("campaign", "name"), ""), "campaign.name"),
    ("created_at not a time", _set(("campaign", "created_at"), "yesterday"),
     "campaign.created_at"),
    ("campaign is a list", _set(("campaign",), []), "campaign"),
    ("a player that is a string", _set(("players", 0), "alice"), "players[0]"),
    ("duplicated usernames", _same_username, "players[1].username"),
    ("duplicated seat ids", _same_seat_id, "players[1].id"),
    ("a 300-character name", _set(("players", 0, "username"), "a" * 300),
     "players[0].username"),
    ("empty username", _set(("players", 0, "username"), ""), "players[0].username"),
    ("credits lots", _set(("players", 0, "credits"), "lots"), "players[0].credits"),
    ("negative credits", _set(("players", 0, "credits"), -5), "players[0].credits"),
    ("credits beyond 64 bits", _set(("players", 0, "credits"), 2**70),
     "players[0].credits"),
    ("a colour too long", _set(("players", 0, "color"), "#12345678"), "players[0].color"),
    ("a colour that is a number", _set(("players", 0, "color"), 7), "players[0].color"),
    ("a faction the ruleset lacks", _set(("players", 0, "faction"), "green"),
     "players[0].faction"),
    ("players missing", _drop(("players",)), "players"),
    ("territories missing", _drop(("territories",)), "territories"),
    ("two territories with one name", _same_name, "territories[1].name"),
    ("two territories with one id", _same_id, "territories[1].id"),
    ("a row that is a list", _set(("territories", 0), ["x"]), "territories[0]"),
    ("a row without its id", _drop(("territories", 0, "id")), "territories[0].id"),
    ("an unknown column", _set(("territories", 0, "bogus"), 1), "territories[0].bogus"),
    ("an owner who is no seat", _set(("territories", 0, "owner_id"), 987654),
     "territories[0].owner_id"),
    ("a name that is an object", _set(("territories", 0, "name"), {"a": 1}),
     "territories[0].name"),
    ("a coordinate that is text", _set(("territories", 0, "x"), "far"), "territories[0].x"),
    ("a flag that is text", _set(("territories", 0, "ever_owned"), "yes"),
     "territories[0].ever_owned"),
    ("a neighbour not in the map", _set(("adjacency", 0, "a_id"), 987654),
     "adjacency[0].a_id"),
    ("a phase that is no phase", _set(("phases", 0, "phase"), "lunch"), "phases[0].phase"),
    ("a time that is no time", _set(("journal", 0, "at"), "noonish"), "journal[0].at"),
    ("viewers that are text", _set(("journal", 0, "viewers"), ["x"]),
     "journal[0].viewers[0]"),
    ("a bad commitment", _set(("dice", 0, "commitment"), "xyz"), "dice[0].commitment"),
    ("settings not an object", _set(("settings",), "loud"), "settings"),
    ("an unknown setting", _set(("settings", "volume"), 11), "settings"),
    ("a ledger row of nobody", _set(("ledger", 0, "player_id"), 987654),
     "ledger[0].player_id"),
    ("an invite code", _set(("invite_code",), "abc"), "(document)"),
]


@pytest.mark.parametrize(("change", "path"), [(c, p) for _n, c, p in BAD],
                         ids=[n for n, _c, _p in BAD])
def test_a_bad_document_is_a_400_naming_its_first_bad_path_and_writes_nothing(
        document, client_for, charlie, change, path):
    doc = copy.deepcopy(document)
    change(doc)
    before = _counts()
    r = _import(client_for(charlie), doc)
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["code"] == "invalid_import"
    assert list(body["fields"]) == [path], body
    assert path in body["detail"]
    assert _counts() == before


def test_a_time_without_a_zone_is_read_as_utc(document, charlie):
    doc = copy.deepcopy(document)
    doc["journal"][0]["at"] = "2026-03-01T12:00:00"
    made = import_campaign(document=doc, umpire=charlie)
    first = Event.objects.filter(campaign=made).order_by("pk").first()
    assert first.at.isoformat() == "2026-03-01T12:00:00+00:00"


def test_the_document_checked_is_the_published_schema(document, client_for, charlie):
    """The schema the project publishes is the one enforced: a document it refuses is
    refused with the schema's own path."""
    from jsonschema import Draft202012Validator

    from campaign.services.import_checks import _validator

    schema = json.loads(Path("docs/export.schema.json").read_text(encoding="utf-8"))
    assert _validator().schema == schema
    assert not list(Draft202012Validator(schema).iter_errors(document))
    doc = copy.deepcopy(document)
    doc["dice"][0]["turn"] = "first"
    assert list(Draft202012Validator(schema).iter_errors(doc))
    r = _import(client_for(charlie), doc)
    assert r.json()["fields"] == {"dice[0].turn": r.json()["fields"]["dice[0].turn"]}


# --- 30.2: a copy verifies its own dice -------------------------------------------


def test_an_imported_copy_verifies_its_battles(league, client_for, uma, charlie,
                                               django_capture_on_commit_callbacks):
    from economy.models import Operative, Unit, Weapon

    bob_home = Territory.objects.get(campaign=league, owner__user__username="bob")
    for owner in ("alice", "bob"):
        player = league.players.get(user__username=owner)
        pilot = Operative.objects.create(player=player, territory=bob_home, klass="soldier")
        unit = Unit.objects.create(player=player, territory=bob_home, model="golem",
                                   pilot=pilot)
        Weapon.objects.create(player=player, weapon="machine_gun", unit=unit, slot=0)
    clock.advance(campaign_id=league.pk, by="umpire")
    clock.advance(campaign_id=league.pk, by="umpire")
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=league.pk, by="umpire")  # -> tactical: the battle
    clock.advance(campaign_id=league.pk, by="umpire")  # tactical over: seed revealed
    verify = "verify/?turn=1&phase=tactical"
    assert client_for(uma).get(f"/api/campaigns/{league.pk}/{verify}").json()["verified"]
    doc = client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()
    copy_id = _import(client_for(charlie), doc).json()["id"]
    report = client_for(charlie).get(f"/api/campaigns/{copy_id}/{verify}").json()
    assert report["verified"] is True, report
    assert report["rolls"] > 0
    battle = Battle.objects.get(campaign_id=copy_id)
    seats = {str(p) for p in Player.objects.filter(campaign_id=copy_id)
             .values_list("pk", flat=True)}
    assert set(battle.input["sides"]) == seats
    assert battle.winner_id is None or str(battle.winner_id) in seats


# --- 30.3: big bodies, throttling, set-based writes --------------------------------


def test_a_body_too_big_is_a_json_413_on_any_api_route(client_for, alice, settings):
    big = json.dumps({"name": "x" * (settings.API_MAX_BODY_SIZE + 10)})
    r = client_for(alice).generic("POST", "/api/campaigns/", big,
                                  content_type="application/json")
    assert r.status_code == 413
    assert r.json()["code"] == "too_large" and "MB" in r.json()["detail"]


def test_an_import_over_its_limit_is_a_json_413_and_writes_nothing(document, client_for,
                                                                   charlie, settings):
    settings.IMPORT_MAX_BODY_SIZE = 500_000
    doc = {**document, "catalogue": [{"pad": "x" * 1000}] * 600}
    before = _counts()
    r = _import(client_for(charlie), doc)
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    assert _counts() == before


def test_a_document_over_django_s_default_limit_is_imported(document, client_for, charlie):
    """Django refuses bodies over 2.5 MB by default (an HTML 400): an import takes 50."""
    doc = {**document, "catalogue": [{"pad": "x" * 1000}] * 3000}
    assert len(json.dumps(doc)) > 3_000_000
    r = _import(client_for(charlie), doc)
    assert r.status_code == 201, r.content[:300]


def test_imports_are_throttled(client_for, charlie, settings):
    codes = [_import(client_for(charlie), {"format": "nope"}).status_code
             for _ in range(11)]
    assert codes[:10] == [400] * 10 and codes[10] == 429


def _grown(doc: dict, extra: int) -> dict:
    """The document with `extra` more territories (each linked to the first)."""
    doc = copy.deepcopy(doc)
    first = doc["territories"][0]
    top = max(t["id"] for t in doc["territories"])
    top_adj = max(a["id"] for a in doc["adjacency"])
    for n in range(1, extra + 1):
        doc["territories"].append({**first, "id": top + n, "name": f"Outpost {n}",
                                   "owner_id": None, "ever_owned": False})
        doc["adjacency"].append({**doc["adjacency"][0], "id": top_adj + n,
                                 "a_id": first["id"], "b_id": top + n})
    return doc


def test_the_import_writes_in_sets_whatever_the_size(document, charlie):
    """An import writes rows in sets, not one by one (issue 30.3: 5,000 territories took
    25 s row by row): 2,380 more rows cost a statement per batch (SQLite caps a
    statement at 999 parameters), not one per row."""
    counts = []
    for extra in (10, 1200):
        doc = _grown(document, extra)
        with CaptureQueriesContext(connection) as queries:
            made = import_campaign(document=doc, umpire=charlie)
        assert Territory.objects.filter(campaign=made).count() == 6 + extra
        counts.append(len(queries))
    assert counts[1] - counts[0] <= 2 * 1190 // 100, counts


def test_the_umpire_cannot_hand_an_unclaimed_seat_to_an_account(document, client_for,
                                                               charlie, alice):
    """R-SEC-3: an existing account is never seated without claiming, not by a handover."""
    from campaign.errors import Conflict
    from campaign.services.seats import seat_handover

    copied = import_campaign(document=document, umpire=charlie)
    seat = Player.objects.filter(campaign=copied).first()
    placeholder = seat.user
    with pytest.raises(Conflict) as refused:
        seat_handover(campaign=copied, player_id=seat.pk, username="alice")
    assert refused.value.code == "seat_unclaimed"
    seat.refresh_from_db()
    assert seat.user == placeholder and seat.claim_code


def test_an_unclaimed_seat_is_never_nudged(document, client_for, charlie, alice):
    """R-SEC-3: nobody to mail; the claimed seat that is not ready is nudged."""
    from campaign.services.notifications import nudge

    copied = import_campaign(document=document, umpire=charlie)
    code = Player.objects.filter(campaign=copied).first().claim_code
    client_for(alice).post(f"/api/campaigns/{copied.pk}/claim/", {"code": code},
                           format="json")
    assert Player.objects.filter(campaign=copied, ready=False).count() == 2
    assert nudge(campaign=copied) == 1
