"""API.md, "Rulesets": the rulesets a site offers, their tables, a campaign's ruleset
(chosen at creation, fixed once started), the catalogue, and each battle's ruleset."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.rulesets.registry import find_ruleset
from battles.rulesets.unlimit3d8.engine.model import BattleInput
from battles.rulesets.unlimit3d8.engine.resolve import resolve_battle
from battles.rulesets.unlimit3d8.ruleset import seeded_dice
from campaign.models import Campaign
from tests.integration.conftest import ROOT

pytestmark = pytest.mark.django_db

LINE = {"nodes": ["Alpha", "Beta", "Gamma"], "edges": [["Alpha", "Beta"], ["Beta", "Gamma"]]}


def test_the_site_lists_its_rulesets(client):
    rows = client.get("/api/rulesets/").json()
    u8 = next(r for r in rows if r["name"] == "unlimit3d8")
    assert u8 == {"name": "unlimit3d8", "title": "Unlimit3d 8", "version": "1",
                  "seed": "003_70a0c7c3c2dda768.txt", "dice": ["d8"], "factions": []}


def test_rules_of_a_ruleset_and_of_an_unknown_one(client):
    plain = client.get("/api/rules/").json()
    assert client.get("/api/rules/?ruleset=unlimit3d8").json() == plain
    unknown = client.get("/api/rules/?ruleset=nonesuch")
    assert unknown.status_code == 404 and "unlimit3d8" in unknown.json()["detail"]


def test_a_campaign_names_its_ruleset_and_refuses_one_the_site_lacks(client_for, uma):
    api = client_for(uma)
    made = api.post("/api/campaigns/", {"name": "League", "map": LINE,
                                        "settings": {"ruleset": "unlimit3d8"}}, format="json")
    assert made.status_code == 201, made.json()
    detail = api.get(f"/api/campaigns/{made.json()['id']}/").json()
    assert detail["ruleset"] == {"name": "unlimit3d8", "version": "1"}
    before = Campaign.objects.count()
    refused = api.post("/api/campaigns/", {"name": "Other", "map": LINE,
                                           "settings": {"ruleset": "nonesuch"}},
                       format="json")
    assert refused.status_code == 400 and "unlimit3d8" in refused.json()["detail"]
    assert Campaign.objects.count() == before


def test_the_ruleset_is_fixed_once_the_campaign_starts(client_for, uma, alice, bob,
                                                       make_campaign):
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma)
    url = f"/api/campaigns/{campaign.pk}/settings/"
    api = client_for(uma)
    assert api.patch(url, {"ruleset": "unlimit3d8"}, format="json").status_code == 200
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    options = Campaign.objects.get(pk=campaign.pk).options
    refused = api.patch(url, {"ruleset": "nonesuch"}, format="json")
    assert refused.status_code == 400  # not offered at all
    import campaign.rulesets as registered

    registered.register(registered.RulesetInfo(
        name="toy", title="Toy", version="0", seed="", dice=("d6",), factions=(),
        tables=dict, catalogue=lambda faction, options=None: []))
    try:
        fixed = api.patch(url, {"ruleset": "toy"}, format="json")
        assert fixed.status_code == 409 and fixed.json()["code"] == "ruleset_fixed"
    finally:
        registered._registered.pop("toy", None)
    assert Campaign.objects.get(pk=campaign.pk).options == options


def test_the_catalogue_is_for_players_cheapest_first_in_bounded_queries(
        client_for, uma, alice, bob, make_campaign):
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    url = f"/api/campaigns/{campaign.pk}/catalogue/"
    api = client_for(alice)
    with CaptureQueriesContext(connection) as queries:
        rows = api.get(url).json()
    assert len(queries) <= 8
    assert {"key", "name", "kind", "price"} <= set(rows[0])
    assert [r["price"] for r in rows] == sorted(r["price"] for r in rows)
    golem = next(r for r in rows if r["key"] == "golem")
    assert golem["kind"] == "vehicle" and golem["price"] > 0
    assert client_for(uma).get(url).status_code == 403  # the umpire buys nothing


def test_the_unlimit3d8_ruleset_resolves_exactly_as_its_engine():
    """Behind the seam the engine is unchanged: same input and seed, same document."""
    ruleset = find_ruleset("unlimit3d8")
    for seed in range(5):
        data = ruleset.sample_battle(seed)
        via_seam = ruleset.resolve(data, seeded_dice(data))
        direct = resolve_battle(BattleInput.from_dict(data))
        assert via_seam.result == direct.to_dict()
        assert via_seam.winner == (int(direct.winner) if direct.winner else None)
        assert {u.unit: u.fate for u in via_seam.units} == {int(u.id): u.fate
                                                            for u in direct.units}


def test_the_ruleset_modules_import_no_django():
    code = ("import sys, battles.rulesets.base, battles.rulesets.registry, "
            "battles.rulesets.unlimit3d8.ruleset; "
            "bad = [m for m in ('django', 'rest_framework', 'celery') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stdout + done.stderr
