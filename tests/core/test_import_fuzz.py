"""Issue 30.1: the import fuzzed over the export schema's document (hand-written
strategies: hypothesis-jsonschema is not installed). A real export is taken apart at
random: any value of any section replaced by any JSON, fields dropped or added, rows
repeated, sections emptied or replaced. Whatever arrives, the answer is a 201 or a 400
`{code, detail, fields}`, never a 5xx, and a refused document writes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.models import Campaign, Event, PhaseSeed, Player
from campaign.services.campaigns import campaign_join
from campaign.services.setup import campaign_start
from economy.models import LedgerEntry
from territories.models import Adjacency, Territory

pytestmark = pytest.mark.django_db

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=300)
    | st.sampled_from(["", "abc", "lots", "bogus", "2026-01-01T00:00:00Z", "1", "-1",
                       "commercial", "running", "#fff", "alice", "red"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["id", "name", "x", "a_id", "owner_id"]) | st.text(
        max_size=8), inner, max_size=3),
    max_leaves=6)


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Campaign, Player, get_user_model(), Event,
                                             Territory, Adjacency, LedgerEntry, PhaseSeed))


@st.composite
def mutations(draw: Any, doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` with one to three random changes, anywhere."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        # walk down to a random container
        node: Any = doc
        path: list[Any] = []
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            child = node[key]
            path.append(key)
            if not isinstance(child, (dict, list)) or not child \
                    or draw(st.booleans()):
                break
            node = child
        if not path:
            continue
        key = path[-1]
        action = draw(st.sampled_from(["replace", "replace", "drop", "add", "repeat",
                                       "swap_type"]))
        if action == "replace":
            node[key] = draw(JSON)
        elif action == "drop":
            if isinstance(node, dict):
                del node[key]
            else:
                node.pop(key)
        elif action == "add" and isinstance(node, dict):
            node[draw(st.text(min_size=1, max_size=10))] = draw(JSON)
        elif action == "repeat" and isinstance(node, list):
            node.append(copy.deepcopy(node[key]))
        elif action == "swap_type":
            value = node[key]
            node[key] = str(value) if not isinstance(value, str) else [value]
    return doc


@pytest.fixture
def document(make_campaign, uma, alice, bob, client_for):
    campaign = make_campaign(uma, map_spec={"generator": "hex", "territories": 6, "seed": 4},
                             seed=4)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    return client_for(uma).get(f"/api/campaigns/{campaign.pk}/export/").json()


def test_a_fuzzed_document_is_imported_whole_or_refused_whole(document, charlie):
    from rest_framework.test import APIClient

    from campaign.services.imports import import_campaign

    api = APIClient()
    api.force_authenticate(charlie)
    answers: list[int] = []

    @settings(max_examples=120, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def check(data: Any) -> None:
        from django.core.cache import cache

        cache.clear()  # the import throttle counts requests, not examples
        doc = data.draw(mutations(document))
        before = _counts()
        r = api.post("/api/campaigns/import/", doc, format="json")
        assert r.status_code in (201, 400), (r.status_code, r.content[:500])
        answers.append(r.status_code)
        if r.status_code == 400:
            body = r.json()
            assert set(body) >= {"code", "detail"} and body["detail"]
            assert _counts() == before, body
        else:
            made = Campaign.objects.get(pk=r.json()["id"])
            assert made.umpire == charlie
            assert not Player.objects.filter(campaign=made, claim_code="").exists()

    check()
    assert answers.count(400) > len(answers) // 3  # the fuzz reaches the checks
    # the service alone (manage.py import_campaign, sandboxes) refuses alike
    assert import_campaign(document=document, umpire=charlie).pk
