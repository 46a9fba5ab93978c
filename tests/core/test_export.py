"""Issue 18, export (API.md "Trust"): the umpire exports the whole campaign as one
versioned JSON document that follows the published JSON Schema; sealed orders, an open
phase's seed and the invite code are never in it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from jsonschema import Draft202012Validator

from campaign.models import PhaseSeed
from campaign.services import clock
from economy.models import Unit
from orders.models import Order
from territories.models import Territory

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "export.schema.json").read_text())


@pytest.fixture
def league(league):
    campaign = league  # the core's started two-player league (tests/core/conftest.py)
    clock.advance(campaign_id=campaign.pk, by="umpire")
    clock.advance(campaign_id=campaign.pk, by="umpire")  # -> move
    campaign.refresh_from_db()
    return campaign


def test_the_umpire_exports_the_whole_campaign_and_nothing_secret(league, client_for, uma,
                                                                  alice):
    home = Territory.objects.get(campaign=league, owner__user=alice)
    unit = Unit.objects.create(player=league.players.get(user=alice), territory=home,
                               model="golem")
    elsewhere = Territory.objects.filter(campaign=league).exclude(pk=home.pk).first()
    sealed = Order.objects.create(campaign=league, turn=league.turn,
                                  player=league.players.get(user=alice), unit=unit,
                                  origin=home, destination=elsewhere)
    r = client_for(uma).get(f"/api/campaigns/{league.pk}/export/")
    assert r.status_code == 200
    doc = r.json()
    errors = list(Draft202012Validator(SCHEMA).iter_errors(doc))
    assert not errors, errors[0].message
    assert doc["format"] == "unlimit3d-campaign" and doc["version"] == 2
    assert len(doc["territories"]) == 6 and len(doc["players"]) == 2
    assert any(e["kind"] == "campaign_started" for e in doc["journal"])
    assert {u["id"] for u in doc["units"]} == {unit.pk}
    text = r.content.decode()
    assert str(sealed.public_id) not in text and not doc["orders"]
    open_seed = PhaseSeed.objects.get(campaign=league, turn=1, phase="move").secret
    assert open_seed not in text and league.invite_code not in text
    revealed = {(d["turn"], d["phase"]): d["seed"] for d in doc["dice"]}
    assert revealed[(1, "commercial")] is not None and revealed[(1, "move")] is None
    out = io.StringIO()
    call_command("export_campaign", str(league.pk), stdout=out)
    assert json.loads(out.getvalue())["campaign"]["id"] == league.pk


def test_only_the_umpire_exports(league, client_for, alice):
    r = client_for(alice).get(f"/api/campaigns/{league.pk}/export/")
    assert r.status_code == 403


def _normal(doc: dict) -> dict:
    """The document without its ids (and the open phase's fresh commitment, which a copy
    draws anew): what must survive export -> import -> export unchanged."""
    open_phases = {(d["turn"], d["phase"]) for d in doc["dice"] if d["seed"] is None}
    doc = {**doc, "journal": [e for e in doc["journal"] if not (
        e["kind"] == "dice_committed"
        and (e["data"]["turn"], e["data"]["phase"]) in open_phases)]}
    from battles.services.export import battle_for_copy

    # A battle's documents name the seats (issue 30.2): by their place, not their id.
    seat_at = {p["id"]: n for n, p in enumerate(doc["players"], start=1)}
    doc["battles"] = [battle_for_copy(b, seat_at) for b in doc["battles"]]
    out = {}
    for key, value in doc.items():
        if key in ("exported_at",):
            continue
        if key == "campaign":
            out[key] = {k: v for k, v in value.items() if k != "id"}
        elif key == "dice":
            out[key] = sorted(json.dumps({**d, "commitment": d["commitment"]
                                          if d["seed"] else None}, sort_keys=True)
                              for d in value)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out[key] = sorted(json.dumps({k: (len(v) if k == "viewers" else v)
                                          for k, v in row.items()
                                          if k not in ("id", "public_id")
                                          and not k.endswith("_id")}, sort_keys=True)
                              for row in value)
        else:
            out[key] = value
    return out


def test_export_import_export_is_identical_up_to_ids(league, client_for, uma, alice, bob,
                                                     django_capture_on_commit_callbacks):
    from battles.models import Battle
    from economy.models import Operative, Weapon

    target = Territory.objects.get(campaign=league, owner__user=bob)
    for who in (alice, bob):
        player = league.players.get(user=who)
        pilot = Operative.objects.create(player=player, territory=target, klass="soldier",
                                         name=f"{who.username}'s pilot")
        unit = Unit.objects.create(player=player, territory=target, model="golem",
                                   pilot=pilot, name=f"{who.username}'s golem")
        Weapon.objects.create(player=player, weapon="machine_gun", unit=unit, slot=0)
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=league.pk, by="umpire")  # -> tactical: a battle
    assert Battle.objects.get(campaign=league).status == "finished"
    first = client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()

    made = client_for(uma).post("/api/campaigns/import/", first, format="json")
    assert made.status_code == 201, made.content
    copy = made.json()["id"]
    assert copy != league.pk
    second = client_for(uma).get(f"/api/campaigns/{copy}/export/").json()
    assert _normal(second) == _normal(first)
    # The copy is a campaign of its own: its battle's rows point at its own units.
    battle = Battle.objects.get(campaign_id=copy)
    assert {p.unit.player.campaign_id for p in battle.participants.all()} == {copy}


@pytest.mark.parametrize(("change", "code"), [
    (lambda d: d.update(format="other"), "invalid_import"),
    (lambda d: d.update(version=99), "unsupported_version"),
    (lambda d: d["units"].append({"id": 1, "player_id": 999999, "model": "golem"}),
     "invalid_import"),
])
def test_a_bad_document_is_refused_and_creates_nothing(league, client_for, uma, change, code):
    from campaign.models import Campaign

    doc = client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()
    change(doc)
    before = Campaign.objects.count()
    r = client_for(uma).post("/api/campaigns/import/", doc, format="json")
    assert r.status_code == 400 and r.json()["code"] == code
    assert Campaign.objects.count() == before


def test_private_journal_entries_keep_their_readers_through_import(league, client_for, uma,
                                                                   alice, bob):
    from campaign.models import Event

    doc = client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()
    private = [e for e in doc["journal"] if e["visibility"] == "private"]
    assert private and all(e["viewers"] for e in private)
    copy = client_for(uma).post("/api/campaigns/import/", doc, format="json").json()["id"]
    # Nobody is seated by an import: alice and bob take their seats with the umpire's codes.
    seats = client_for(uma).get(f"/api/campaigns/{copy}/").json()["players"]
    for who in (alice, bob):
        code = next(p["claim_code"] for p in seats if p["username"].startswith(f"{who}~"))
        assert client_for(who).post(f"/api/campaigns/{copy}/claim/", {"code": code},
                                    format="json").status_code == 200
    hers = Event.objects.filter(campaign_id=copy, visibility="private",
                                viewers__user=alice).count()
    assert hers == sum(1 for e in private
                       if any(p["username"] == "alice" and p["id"] in e["viewers"]
                              for p in doc["players"]))
    assert hers > 0
    # what bob reads of the copy's journal is what bob read of the original
    theirs = {e["kind"] for e in client_for(bob).get(f"/api/campaigns/{copy}/events/").json()}
    original = {e["kind"] for e in client_for(bob).get(
        f"/api/campaigns/{league.pk}/events/").json()}
    assert theirs == original | {"seat_claimed"}


def test_a_time_on_the_whole_second_keeps_its_milliseconds():
    """An import stores "56.000Z" as exactly 56 s; the copy's export must spell it as the
    original's did, or export -> import -> export differs by spelling (a CI flake)."""
    import datetime

    from campaign.services.export import ExportEncoder

    whole = datetime.datetime(2026, 11, 23, 4, 57, 56, tzinfo=datetime.UTC)
    near = whole.replace(microsecond=912)
    assert json.dumps([whole, near], cls=ExportEncoder) == \
        '["2026-11-23T04:57:56.000Z", "2026-11-23T04:57:56.000Z"]'


def _as_version_1(doc: dict) -> dict:
    """The document as this site wrote it before seats had factions (export version 1)."""
    return {**doc, "version": 1,
            "players": [{k: v for k, v in p.items() if k != "faction"}
                        for p in doc["players"]]}


def test_the_players_factions_are_in_the_document(league, client_for, uma):
    """Version 2 (R-FAC-3): each player's faction, empty for a ruleset without factions."""
    doc = client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()
    assert [p["faction"] for p in doc["players"]] == ["", ""]
    broken = {**doc, "players": [{k: v for k, v in p.items() if k != "faction"}
                                 for p in doc["players"]]}
    assert list(Draft202012Validator(SCHEMA).iter_errors(broken))  # the schema requires it


def test_a_version_1_document_is_upgraded_on_import(league, client_for, uma):
    from campaign.models import Player

    first = client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()
    made = client_for(uma).post("/api/campaigns/import/", _as_version_1(first), format="json")
    assert made.status_code == 201, made.content
    copy = made.json()["id"]
    assert list(Player.objects.filter(campaign_id=copy).values_list("faction", flat=True)) \
        == ["", ""]
    second = client_for(uma).get(f"/api/campaigns/{copy}/export/").json()
    assert second["version"] == 2 and _normal(second) == _normal(first)


@pytest.mark.parametrize("version", [0, 3, "2", 2.0, True, None])
def test_a_version_this_site_does_not_read_is_refused(league, client_for, uma, version):
    from campaign.models import Campaign

    doc = client_for(uma).get(f"/api/campaigns/{league.pk}/export/").json()
    doc["version"] = version
    before = Campaign.objects.count()
    r = client_for(uma).post("/api/campaigns/import/", doc, format="json")
    assert (r.status_code, r.json()["code"]) == (400, "unsupported_version")
    assert "1, 2" in r.json()["detail"]
    assert Campaign.objects.count() == before


def test_a_sandbox_reads_a_phase_start_kept_before_factions(league, client_for, alice):
    """Phase starts kept by an older release are version 1 documents: a sandbox made from
    one is upgraded like any import."""
    from campaign.models import Campaign, PhaseStart, Player

    start = PhaseStart.objects.get(campaign=league, turn=1, phase="move")
    start.document = _as_version_1(start.document)
    start.save()
    r = client_for(alice).post(f"/api/campaigns/{league.pk}/sandbox/",
                               {"turn": 1, "phase": "move"}, format="json")
    assert r.status_code == 201, r.content
    copy = Campaign.objects.get(pk=r.json()["id"])
    assert copy.is_sandbox
    assert set(Player.objects.filter(campaign=copy).values_list("faction", flat=True)) == {""}


def test_the_text_document_is_the_export_value_for_value(league, uma, alice):
    """A phase start is kept as `export_campaign_text` (on SQLite each section's JSON
    written by SQLite, issue 32): the same values, of the same types, as
    `export_campaign` -- times to the millisecond (truncated), floats to the last bit,
    booleans, JSON columns, text that needs escaping."""
    import datetime

    from campaign.services.export import (
        export_campaign,
        export_campaign_sql,
        export_campaign_text,
    )

    home = Territory.objects.get(campaign=league, owner__user=alice)
    Territory.objects.filter(pk=home.pk).update(x=0.30000000000000004, y=1 / 3,
                                                name='Quote " back\\ é\n')
    unit = Unit.objects.create(player=league.players.get(user=alice), territory=home,
                               model="golem", name="ünït", profile={"k": [1, None, "x"]},
                               extension=True)
    Unit.objects.filter(pk=unit.pk).update(status="off_map")
    league.players.filter(user=alice).update(
        joined_at=datetime.datetime(2026, 1, 2, 3, 4, 5, 999999, tzinfo=datetime.UTC))

    def same(a, b, where="$"):
        assert type(a) is type(b) or (isinstance(a, (int, float)) and a == b
                                      and bool not in (type(a), type(b))), (where, a, b)
        if isinstance(a, dict):
            assert list(a) == list(b), where
            for key in a:
                same(a[key], b[key], f"{where}.{key}")
        elif isinstance(a, list):
            assert len(a) == len(b), where
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                same(x, y, f"{where}[{i}]")
        else:
            assert a == b, (where, a, b)

    for complete in (False, True):
        expected = export_campaign(league, complete=complete)
        text = json.loads(export_campaign_text(league, complete=complete))
        expected.pop("exported_at"), text.pop("exported_at")
        same(expected, text)
        # A phase start's document, built by the database (issue 32), is the same.
        sql, params = export_campaign_sql(league, complete=complete, journal=False)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {sql}", params)
            built = cursor.fetchone()[0]
        built = json.loads(built) if isinstance(built, str) else built
        plain = json.loads(export_campaign_text(league, complete=complete, journal=False))
        built.pop("exported_at"), plain.pop("exported_at")
        if connection.vendor == "sqlite":  # PostgreSQL's jsonb spells times its own way
            same(plain, built)
        assert built.keys() == plain.keys() and built["units"] == plain["units"]
    seat = next(s for s in text["seats"] if s["user_id"] == alice.pk)
    assert seat["joined_at"] == "2026-01-02T03:04:05.999Z"
    place = next(t for t in text["territories"] if t["id"] == home.pk)
    assert place["x"] == 0.30000000000000004 and place["name"] == 'Quote " back\\ é\n'
