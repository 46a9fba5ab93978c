"""Issue 18, export (API.md "Trust"): the umpire exports the whole campaign as one
versioned JSON document that follows the published JSON Schema; sealed orders, an open
phase's seed and the invite code are never in it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from jsonschema import Draft202012Validator

from campaign.models import Order, PhaseSeed
from campaign.services import clock
from campaign.services.campaigns import campaign_join
from campaign.services.setup import campaign_start
from economy.models import Unit
from territories.models import Territory

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "export.schema.json").read_text())


@pytest.fixture
def league(make_campaign, uma, alice, bob, settings):
    settings.DICE_SECRETS = "random"
    campaign = make_campaign(uma, map_spec={"generator": "hex", "territories": 6, "seed": 4},
                             seed=4)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
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
    assert doc["format"] == "unlimit3d-campaign" and doc["version"] == 1
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
