"""Issue 31, item 5: every economy write endpoint validates its body through its declared
serializer, the one place for the 400 (API.md: "400 for invalid input ... validation
errors may add "fields""). A wrong type is refused with the field named and nothing
changes; the serializers are as strict as the services were (a number is not text,
"5" is not a whole number, "yes" is not true)."""

from __future__ import annotations

import pytest

from economy.models import Building
from tests.economy.conftest import snapshot


def _c(world) -> str:
    return f"/api/campaigns/{world.campaign.pk}/"


@pytest.mark.parametrize(("field", "value", "message"), [
    ("x", "5", "Must be a whole number."),
    ("y", 1.5, "Must be a whole number."),
    ("x", True, "Must be a whole number."),
    ("kind", 12, "Must be text."),
    ("territory", "abc", "A valid integer is required."),
])
def test_a_building_with_a_wrong_type_is_a_400_naming_the_field(world, api, field, value,
                                                                 message):
    body = {"territory": world.alpha.pk, "kind": "warehouse", "x": 5, "y": 5, field: value}
    before = snapshot()
    r = api["alice"].post(_c(world) + "buildings/", body, format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["code"] == "invalid"
    assert r.json()["fields"][field] == [message]
    assert r.json()["detail"] == f"{field}: {message}"
    assert snapshot() == before


@pytest.mark.parametrize("body", [[], "abc", None, {"territory": 1}])
def test_a_shipment_body_that_is_not_the_declared_object_is_a_400(world, api, body):
    before = snapshot()
    r = api["alice"].post(_c(world) + "shipments/", body, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.json()
    assert r.json()["detail"]
    assert snapshot() == before


def test_a_container_flag_must_be_true_or_false(world, api):
    world.stock(world.alpha, "minerals", 10)
    before = snapshot()
    r = api["alice"].post(_c(world) + "shipments/", {"territory": world.alpha.pk, "containers": [
        {"resource": "minerals", "units": 10, "refined": "yes"}]}, format="json")
    assert r.status_code == 400 and r.json()["fields"] == {
        "containers": {"0": {"refined": ["Must be true or false."]}}}
    assert snapshot() == before


def test_a_turret_weapon_must_be_named_even_when_null(world, api):
    turret = world.build(world.alpha, "turret")
    world.phase("activity")
    before = snapshot()
    r = api["alice"].put(_c(world) + f"buildings/{turret.pk}/weapon/", {}, format="json")
    assert r.status_code == 400 and "weapon" in r.json()["fields"], r.json()
    assert snapshot() == before
    assert Building.objects.get(pk=turret.pk).weapon_id is None


def test_a_name_that_is_not_text_is_refused(world, api):
    unit = world.unit(world.alice, world.alpha, "golem")
    before = snapshot()
    r = api["alice"].patch(_c(world) + f"units/{unit.pk}/", {"name": 42}, format="json")
    assert r.status_code == 400 and r.json()["fields"] == {"name": ["Must be text."]}
    assert snapshot() == before
