"""Umpire corrections validated once, by the serializers of `economy.correction_serializers`
(POST /api/campaigns/{id}/corrections/, the umpire's page and the case book alike), and
the API offering every correction the page offers (pilots and buildings too).

Every bad input is a 400 naming the field in `fields`; nothing changes (credits, stock,
units, weapons, operatives, buildings, journal) and the request_id is not used up: the
umpire resends it with the input put right and the correction applies.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from campaign.models import Event, RequestKey
from economy.models import Building, Operative, Unit, Weapon
from tests.economy.conftest import snapshot

GOOD_CREDITS = {"credits": 5}


def url(world) -> str:
    return f"/api/campaigns/{world.campaign.pk}/corrections/"


def post(api, world, body: Any, who: str = "uma"):
    return api[who].post(url(world), body, format="json")


def field(body: dict, path: str) -> Any:
    """The errors `fields` holds at a dotted path ("goods.units")."""
    node: Any = body["fields"]
    for part in path.split("."):
        node = node[part]
    return node


def refused_then_resent(api, world, bad: dict[str, Any]) -> dict[str, Any]:
    """Post `bad` with a fresh request_id: refused, nothing changed, the key unused; the
    same key then applies a good correction once. Answers the refusal's body."""
    key = uuid.uuid4().hex
    before, keys = snapshot(), RequestKey.objects.count()
    r = post(api, world, {"player": world.alice.pk, "reason": "audit", "request_id": key,
                          **bad})
    assert r.status_code == 400, r.json()
    assert snapshot() == before and RequestKey.objects.count() == keys
    assert not RequestKey.objects.filter(key=key).exists()
    good = post(api, world, {"player": world.alice.pk, "reason": "audit", "request_id": key,
                             **GOOD_CREDITS})
    assert good.status_code == 201, good.json()
    assert post(api, world, {"player": world.alice.pk, "reason": "audit",
                             "request_id": key, **GOOD_CREDITS}).status_code == 409
    return r.json()


# (what is sent over the good base, the refusal's code, the field named, words of detail)
BAD_INPUT = [
    pytest.param({"reason": None}, "invalid", "reason", "needs a reason", id="reason-null"),
    pytest.param({"reason": "   "}, "invalid", "reason", "needs a reason", id="reason-blank"),
    pytest.param({"reason": 12}, "invalid", "reason", "must be text", id="reason-number"),
    pytest.param({"reason": "x" * 201}, "invalid", "reason", "at most 200",
                 id="reason-too-long"),
    pytest.param({"credits": 0}, "invalid", "credits", "non-zero whole number",
                 id="credits-zero"),
    pytest.param({"credits": 1.5}, "invalid", "credits", "non-zero whole number",
                 id="credits-float"),
    pytest.param({"credits": "5"}, "invalid", "credits", "non-zero whole number",
                 id="credits-string"),
    pytest.param({"credits": True}, "invalid", "credits", "non-zero whole number",
                 id="credits-bool"),
    pytest.param({"credits": 1_000_001}, "invalid", "credits", "1,000,000",
                 id="credits-huge"),
    pytest.param({"credits": -10**30}, "invalid", "credits", "1,000,000",
                 id="credits-huge-negative"),
    pytest.param({"goods": "water"}, "invalid", "goods.non_field_errors",
                 "'goods' must be an object", id="goods-not-object"),
    pytest.param({"goods": {"territory": 1, "resource": "gold", "units": 3}}, "invalid",
                 "goods.resource", "Unknown resource 'gold'", id="goods-unknown-resource"),
    pytest.param({"goods": {"territory": 1, "resource": "water", "units": 3,
                            "refined": True, "pure": True}}, "invalid", "goods.pure",
                 "never both true", id="goods-refined-and-pure"),
    pytest.param({"goods": {"territory": 1, "resource": "water", "units": 3,
                            "refined": "yes"}}, "invalid", "goods.refined",
                 "true or false", id="goods-refined-not-bool"),
    pytest.param({"goods": {"territory": 1, "resource": "water", "units": 0}}, "invalid",
                 "goods.units", "non-zero whole number", id="goods-units-zero"),
    pytest.param({"goods": {"territory": 1, "resource": "water", "units": -2_000_000}},
                 "invalid", "goods.units", "1,000,000", id="goods-units-huge"),
    pytest.param({"goods": {"resource": "water", "units": 3}}, "invalid",
                 "goods.territory", "territory id", id="goods-no-territory"),
    pytest.param({"unit": "golem"}, "invalid", "unit.non_field_errors",
                 "'unit' must be an object", id="unit-not-object"),
    pytest.param({"unit": {}}, "invalid", "unit.non_field_errors", "to grant",
                 id="unit-empty"),
    pytest.param({"unit": {"take": 1, "model": "golem"}}, "invalid",
                 "unit.non_field_errors", "not both", id="unit-grant-and-take"),
    pytest.param({"unit": {"model": "nope", "territory": 1}}, "invalid_item", "unit.model",
                 "Unknown vehicle 'nope'", id="unit-unknown-model"),
    pytest.param({"unit": {"model": "golem"}}, "invalid", "unit.territory",
                 "'unit.territory'", id="unit-no-territory"),
    pytest.param({"unit": {"take": True}}, "invalid", "unit.take", "unit id",
                 id="unit-take-bool"),
    pytest.param({"unit": {"take": "abc"}}, "invalid", "unit.take", "unit id",
                 id="unit-take-text"),
    pytest.param({"weapon": {"weapon": "cannon", "templates": "heavy", "territory": 1}},
                 "invalid", "weapon.templates", "list of template names",
                 id="weapon-templates-not-list"),
    pytest.param({"weapon": {"weapon": "cannon", "templates": [1], "territory": 1}},
                 "invalid", "weapon.templates.0", "list of template names",
                 id="weapon-templates-not-names"),
    pytest.param({"weapon": {"weapon": "cannon", "templates": ["heavy", "light"],
                             "territory": 1}}, "invalid_item", "weapon.weapon", "Heavy",
                 id="weapon-templates-forbidden"),
    pytest.param({"weapon": {"weapon": "laser_sword", "territory": 1}}, "invalid_item",
                 "weapon.weapon", "Unknown weapon", id="weapon-unknown"),
    pytest.param({"pilot": {"class": "wizard", "territory": 1}}, "invalid_item",
                 "pilot.class", "Unknown operative class 'wizard'", id="pilot-unknown-class"),
    pytest.param({"pilot": {"class": "soldier", "territory": 1, "name": "n" * 61}},
                 "invalid", "pilot.name", "at most 60", id="pilot-name-too-long"),
    pytest.param({"pilot": {"take": 1, "class": "soldier"}}, "invalid",
                 "pilot.non_field_errors", "not both", id="pilot-grant-and-take"),
    pytest.param({"building": {"kind": "castle", "territory": 1, "x": 1, "y": 1}},
                 "invalid_item", "building.kind", "Unknown building 'castle'",
                 id="building-unknown-kind"),
    pytest.param({"building": {"kind": "warehouse", "territory": 1, "x": "a", "y": 1}},
                 "invalid_square", "building.x", "whole numbers x and y",
                 id="building-x-not-number"),
    pytest.param({"building": {"kind": "warehouse", "territory": 1, "x": 1}}, "invalid",
                 "building.y", "'building.y'", id="building-no-y"),
    pytest.param({"building": {"take": 1, "x": 1}}, "invalid", "building.non_field_errors",
                 "not both", id="building-grant-and-take"),
    pytest.param({"player": None}, "invalid", "player", "player id", id="player-null"),
    pytest.param({"player": "abc"}, "invalid", "player", "player id", id="player-text"),
    pytest.param({"player": 10**30}, "invalid", "player", "player id", id="player-huge"),
]


@pytest.mark.parametrize(("bad", "code", "path", "words"), BAD_INPUT)
def test_bad_input_is_a_precise_400_and_changes_nothing(world, api, bad, code, path, words):
    body = refused_then_resent(api, world, {**GOOD_CREDITS, **bad})
    assert body["code"] == code, body
    assert words in body["detail"], body
    messages = field(body, path)
    assert isinstance(messages, list) and any(words in m for m in messages), body


def test_nothing_to_correct_is_refused(world, api):
    body = refused_then_resent(api, world, {})
    assert body["code"] == "invalid"
    assert body["detail"] == ("Send 'credits', 'goods', 'unit', 'weapon', 'pilot' and/or "
                              "'building'.")
    body = refused_then_resent(api, world, {"credits": None, "unit": None})
    assert "Send 'credits'" in body["detail"]


def test_a_missing_reason_keeps_its_message(world, api):
    body = {"player": world.alice.pk, "credits": 5, "request_id": uuid.uuid4().hex}
    before = snapshot()
    r = post(api, world, body)
    assert r.status_code == 400
    assert r.json() == {"code": "invalid", "detail": "A correction needs a reason.",
                        "fields": {"reason": ["A correction needs a reason."]}}
    assert snapshot() == before


@pytest.mark.parametrize("raw", [b"[1, 2]", b'"credits"', b"5", b"null", b"true"])
def test_a_body_that_is_not_an_object_is_refused(world, api, raw):
    before = snapshot()
    r = api["uma"].post(url(world), data=raw, content_type="application/json")
    assert r.status_code == 400, r.json()
    assert r.json()["code"] == "invalid" and "JSON object" in r.json()["detail"]
    assert snapshot() == before


def test_the_request_id_is_checked_as_before(world, api):
    """`request_keys.claim` still judges the key: 428 without it, 400 malformed; neither
    changes anything nor keeps a key."""
    before = snapshot()
    base = {"player": world.alice.pk, "reason": "audit", "credits": 5}
    r = post(api, world, base)
    assert (r.status_code, r.json()["code"]) == (428, "precondition_required")
    for junk in ("short", 12345678, ["x" * 10], "has spaces in it"):
        r = post(api, world, {**base, "request_id": junk})
        assert r.status_code == 400 and "request_id" in r.json()["fields"], junk
    assert snapshot() == before and RequestKey.objects.count() == 0


# refusals of the database's rules: same guarantees (the key is claimed in the same
# transaction and rolled back with it)
def _db_refusals(world) -> list[tuple[dict[str, Any], int, str]]:
    golem = world.unit(world.bob, world.beta, "golem")
    gun = world.weapon(world.bob, world.beta)
    spy = world.operative(world.bob, world.beta)
    theirs = world.build(world.beta, "warehouse")
    taken = world.build(world.alpha, "bunker")
    alpha, beta = world.alpha.pk, world.beta.pk
    return [
        ({"player": world.bob.pk + 1000}, 404, "not_found"),
        ({"unit": {"model": "golem", "territory": beta}}, 400, "invalid_territory"),
        ({"unit": {"take": golem.pk}}, 404, "not_found"),
        ({"weapon": {"weapon": "cannon", "territory": alpha}}, 400, "no_room"),
        ({"weapon": {"take": gun.pk}}, 404, "not_found"),
        ({"pilot": {"class": "soldier", "territory": beta}}, 400, "invalid_territory"),
        ({"pilot": {"take": spy.pk}}, 404, "not_found"),
        ({"building": {"take": theirs.pk}}, 404, "not_found"),
        ({"building": {"kind": "warehouse", "territory": alpha, "x": taken.x,
                       "y": taken.y}}, 400, "square_taken"),
        ({"building": {"kind": "warehouse", "territory": alpha, "x": 16, "y": 0}}, 400,
         "outside_grid"),
        ({"goods": {"territory": alpha, "resource": "water", "units": -1}}, 400,
         "insufficient_goods"),
        ({"credits": -5000}, 400, "insufficient_credits"),
    ]


def test_refusals_of_the_rules_change_nothing_and_keep_the_key(world, api):
    for extra, status, code in _db_refusals(world):
        key = uuid.uuid4().hex
        before = snapshot()
        body = {"player": world.alice.pk, "reason": "audit", "request_id": key,
                "credits": 7, **extra}
        r = post(api, world, body)
        assert (r.status_code, r.json()["code"]) == (status, code), (extra, r.json())
        assert snapshot() == before, extra
        assert not RequestKey.objects.filter(key=key).exists(), extra


def test_the_api_grants_and_takes_a_pilot(world, api):
    r = post(api, world, {"player": world.alice.pk, "reason": "hired off the books",
                          "request_id": uuid.uuid4().hex,
                          "pilot": {"class": "Soldier", "territory": world.alpha.pk,
                                    "name": " Vex "}})
    assert r.status_code == 201, r.json()
    granted = r.json()["pilot"]
    assert granted == {"granted": granted["granted"], "class": "soldier",
                       "territory": world.alpha.pk}
    vex = Operative.objects.get(pk=granted["granted"])
    assert (vex.player_id, vex.territory_id, vex.klass, vex.name, vex.level, vex.alive) == \
        (world.alice.pk, world.alpha.pk, "soldier", "Vex", 1, True)
    golem = world.unit(world.alice, world.alpha, "golem", pilot=vex)
    r = post(api, world, {"player": world.alice.pk, "reason": "deserted",
                          "request_id": uuid.uuid4().hex, "pilot": {"take": vex.pk}})
    assert r.status_code == 201, r.json()
    assert r.json()["pilot"] == {"taken": vex.pk, "class": "soldier"}
    vex.refresh_from_db()
    golem.refresh_from_db()
    assert not vex.alive and golem.pilot_id is None
    entries = Event.objects.filter(kind="umpire_correction").order_by("pk")
    assert [e.data["reason"] for e in entries] == ["hired off the books", "deserted"]
    assert all(list(e.viewers.all()) == [world.alice] for e in entries)


def test_the_api_grants_and_takes_a_building(world, api):
    r = post(api, world, {"player": world.alice.pk, "reason": "missed in the set-up",
                          "request_id": uuid.uuid4().hex,
                          "building": {"kind": "Warehouse", "territory": world.alpha.pk,
                                       "x": 15, "y": 15}})
    assert r.status_code == 201, r.json()
    granted = r.json()["building"]
    built = Building.objects.get(pk=granted["granted"])
    assert (built.territory_id, built.kind, built.x, built.y, built.active) == \
        (world.alpha.pk, "warehouse", 15, 15, False)
    assert granted == {"granted": built.pk, "kind": "warehouse", "territory": world.alpha.pk,
                       "x": 15, "y": 15}
    r = post(api, world, {"player": world.alice.pk, "reason": "built twice",
                          "request_id": uuid.uuid4().hex, "building": {"take": built.pk}})
    assert r.status_code == 201, r.json()
    assert r.json()["building"] == {"taken": built.pk, "kind": "warehouse",
                                    "territory": world.alpha.pk}
    assert not Building.objects.filter(pk=built.pk).exists()


def test_every_correction_at_once_applies_together(world, api):
    world.build(world.alpha, "warehouse")
    mg = world.weapon(world.alice, world.alpha)
    r = post(api, world, {
        "player": world.alice.pk, "reason": "the big audit", "request_id": uuid.uuid4().hex,
        "credits": -100, "goods": {"territory": world.alpha.pk, "resource": "Water",
                                   "units": 4, "pure": True},
        "unit": {"model": "golem", "territory": world.alpha.pk}, "weapon": {"take": mg.pk},
        "pilot": {"class": "worker", "territory": world.alpha.pk},
        "building": {"kind": "bunker", "territory": world.alpha.pk, "x": 14, "y": 15}})
    assert r.status_code == 201, r.json()
    assert world.credits(world.alice) == 900
    assert r.json()["goods"] == {"territory": world.alpha.pk, "resource": "water",
                                 "refined": False, "pure": True, "units": 4}
    assert Unit.objects.filter(player=world.alice, model="golem").count() == 1
    assert not Weapon.objects.filter(pk=mg.pk).exists()
    assert Operative.objects.filter(player=world.alice, klass="worker").count() == 1
    assert Building.objects.filter(territory=world.alpha, kind="bunker", x=14).exists()
    assert Event.objects.filter(kind="umpire_correction").count() == 1


def test_only_the_umpire_corrects(world, api, client_for, charlie):
    body = {"player": world.alice.pk, "reason": "mine", "request_id": uuid.uuid4().hex,
            "pilot": {"class": "soldier", "territory": world.alpha.pk}}
    before = snapshot()
    for who in ("alice", "bob"):
        r = post(api, world, body, who)
        assert (r.status_code, r.json()["code"]) == (403, "forbidden"), who
        # bad input from a player: still 403, the input is never looked at
        assert post(api, world, {"credits": "junk"}, who).status_code == 403
    outsider = client_for(charlie).post(url(world), body, format="json")
    assert outsider.status_code == 404
    assert snapshot() == before and RequestKey.objects.count() == 0


def test_the_page_refuses_with_the_serializers_sentence(world, uma):
    """The umpire's page goes through the same validation: its refusal is the API's
    sentence, and nothing changes."""
    from django.test import Client

    page = Client()
    page.force_login(uma)
    before = snapshot()
    r = page.post(f"/campaigns/{world.campaign.pk}/umpire/corrections/", {
        "request_id": uuid.uuid4().hex, "player": world.alice.pk, "reason": "a hire",
        "pilot_class": "wizard", "unit_territory": world.alpha.pk})
    assert r.status_code == 302
    shown = [str(m) for m in r.wsgi_request._messages]
    assert shown == ["Unknown operative class 'wizard'."]
    assert snapshot() == before and RequestKey.objects.count() == 0


def test_the_service_refuses_raw_input_as_the_api_does(world):
    """The case book and the page call `correction_create` with the body's shape."""
    from campaign.errors import InvalidInput
    from economy.services.corrections import correction_create

    before = snapshot()
    with pytest.raises(InvalidInput) as refused:
        correction_create(campaign=world.campaign, player_id=world.alice.pk, reason="x",
                          unit={"model": "golem", "take": 3})
    assert "not both" in refused.value.detail and "unit" in refused.value.fields
    with pytest.raises(InvalidInput) as refused:
        correction_create(campaign=world.campaign, player_id=world.alice.pk, reason="",
                          credits=5)
    assert refused.value.code == "invalid" and refused.value.fields == {
        "reason": ["A correction needs a reason."]}
    assert snapshot() == before
