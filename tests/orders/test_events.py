"""History: GET /events/ -- oldest first, filtered by turn and kind, and by what the
caller may see (campaign.selectors.events_visible_to)."""

from __future__ import annotations

import pytest

from campaign.models import Event, Phase
from campaign.services.journal import record_event, record_private
from tests.orders.conftest import advance_to

pytestmark = pytest.mark.django_db


def events(client, world, query: str = "") -> list[dict]:
    r = client.get(f"/api/campaigns/{world.campaign.pk}/events/{query}")
    assert r.status_code == 200, r.content
    return r.json()


def test_events_are_oldest_first_with_the_contract_fields(world, client_for):
    advance_to(world, Phase.TACTICAL)
    got = events(client_for(world.users["bob"]), world)
    # Oldest first: the journal's own order (ids are random public ids, issue 19.9).
    assert [e["at"] for e in got] == sorted(e["at"] for e in got)
    assert len({e["id"] for e in got}) == len(got)
    assert set(got[0]) == {"id", "turn", "phase", "kind", "at", "data"}
    assert got[0]["at"].endswith(("Z", "+00:00"))


def test_filter_by_turn_and_kind(world, client_for):
    advance_to(world, Phase.TACTICAL)
    bob = client_for(world.users["bob"])
    assert {e["turn"] for e in events(bob, world, "?turn=1")} == {1}
    assert events(bob, world, "?turn=7") == []
    assert {e["kind"] for e in events(bob, world, "?kind=phase_opened")} == {"phase_opened"}
    r = bob.get(f"/api/campaigns/{world.campaign.pk}/events/?turn=abc")
    assert r.status_code == 400 and r.json()["code"] == "invalid"


def test_visibility_rules(build_world, client_for):
    """Private entries: their viewers and the umpire unless sealed; umpire entries: the
    umpire; sealed entries: the viewers and the umpire only if allowed to read orders."""
    world = build_world()
    record_private(player=world.alice, kind="secret", data={"x": 1}, sealed=True)
    record_private(player=world.alice, kind="private", data={"x": 2})
    record_event(campaign=world.campaign, kind="umpire_only", data={},
                 visibility=Event.Visibility.UMPIRE)
    kinds = {name: {e["kind"] for e in events(client_for(world.users[name]), world)}
             for name in ("uma", "alice", "bob")}
    assert {"secret", "private"} <= kinds["alice"] and "umpire_only" not in kinds["alice"]
    assert not {"secret", "private", "umpire_only"} & kinds["bob"]
    assert {"private", "umpire_only"} <= kinds["uma"] and "secret" not in kinds["uma"]
    world.campaign.options = {"umpire_sees_orders": True}
    world.campaign.save()
    assert "secret" in {e["kind"] for e in events(client_for(world.users["uma"]), world)}


def test_non_members_get_404_and_anonymous_401(world, client_for, anon_client):
    assert client_for(world.users["charlie"]).get(
        f"/api/campaigns/{world.campaign.pk}/events/").status_code == 404
    assert anon_client.get(f"/api/campaigns/{world.campaign.pk}/events/").status_code == 401
