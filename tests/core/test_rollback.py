"""Issue 18, rollback (API.md "Trust"): the umpire rolls the campaign back to the start of
its current or previous phase; everything since is undone exactly (ledger, holdings,
units, orders, battles, journal), with a journal entry saying who and why; the dice
committed or revealed since stay (R-DICE-4, tests/core/test_rollback_keeps.py)."""

from __future__ import annotations

import pytest

from campaign.models import Campaign, Event, PhaseStart
from campaign.services import clock
from campaign.services.export import export_campaign
from economy.models import LedgerEntry, Unit
from territories.models import Territory

pytestmark = pytest.mark.django_db


def _state(campaign: Campaign) -> dict:
    doc = export_campaign(Campaign.objects.get(pk=campaign.pk), complete=True)
    doc.pop("exported_at")
    doc["journal"] = [e for e in doc["journal"] if e["kind"] != "campaign_rolled_back"]
    row = doc.pop("campaign_row")
    doc["head"] = {k: row[k] for k in ("turn", "phase", "status")}
    return doc


def test_a_rollback_restores_the_start_of_the_phase_exactly(league, client_for, uma, alice):
    start = PhaseStart.objects.get(campaign=league, turn=1, phase="commercial").document
    api = client_for(alice)
    home = Territory.objects.get(campaign=league, owner__user=alice)
    bought = api.post(f"/api/campaigns/{league.pk}/purchases/",
                      {"territory": home.pk, "item": {"kind": "vehicle", "model": "golem"}},
                      format="json")
    assert bought.status_code == 201, bought.content
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity (production ran)
    assert Unit.objects.filter(player__campaign=league).count() == 1

    r = client_for(uma).post(f"/api/campaigns/{league.pk}/rollback/",
                             {"turn": 1, "phase": "commercial", "reason": "wrong purchase"},
                             format="json")
    assert r.status_code == 200, r.content
    assert r.json()["phase"] == "commercial"
    assert not Unit.objects.filter(player__campaign=league).exists()
    restored = _state(league)
    expected = dict(start)
    expected.pop("exported_at")
    row = expected.pop("campaign_row")
    expected["head"] = {k: row[k] for k in ("turn", "phase", "status")}
    # R-DICE-4: the dice are not undone: the activity phase's seed committed since stays
    # (with its journal entry), the commercial seed revealed since stays revealed.
    then = {e["id"] for e in start["journal"]}
    dice_since = [e for e in restored["journal"] if e["id"] not in then]
    assert [(e["kind"], e["data"]["phase"]) for e in dice_since] == [
        ("dice_committed", "activity"), ("dice_revealed", "commercial")]
    restored["journal"] = [e for e in restored["journal"] if e["id"] in then]
    seeds = {s["phase"]: s for s in restored.pop("seeds")}
    seeds_then = {s["phase"]: s for s in expected.pop("seeds")}
    assert seeds.keys() == {"setup", "commercial", "activity"}
    assert seeds["commercial"]["secret"] == seeds_then["commercial"]["secret"]
    assert seeds["commercial"]["revealed_at"] is not None
    revealed = {r["phase"]: r["seed"] for r in restored.pop("dice")}
    assert revealed["commercial"] == seeds_then["commercial"]["secret"]
    expected.pop("dice")
    assert restored == expected
    from campaign.models import OutboxMessage

    assert any(m.args[1] == "rolled_back" for m in
               OutboxMessage.objects.filter(task="campaign.tasks.notify"))
    entry = Event.objects.get(campaign=league, kind="campaign_rolled_back")
    assert entry.data == {"to_turn": 1, "to_phase": "commercial", "by": "uma",
                          "reason": "wrong purchase",
                          "seeds_kept": [{"turn": 1, "phase": "activity",
                                          "commitment": seeds["activity"]["commitment"]}]}
    # the phase can be played again: the same advance opens the activity phase anew
    assert clock.advance(campaign_id=league.pk, by="umpire").changed


def test_only_the_current_or_previous_phase_and_only_the_umpire(league, client_for, uma,
                                                                alice):
    url = f"/api/campaigns/{league.pk}/rollback/"
    clock.advance(campaign_id=league.pk, by="umpire")
    clock.advance(campaign_id=league.pk, by="umpire")  # -> move
    before = LedgerEntry.objects.count()
    too_far = client_for(uma).post(url, {"turn": 1, "phase": "commercial"}, format="json")
    assert too_far.status_code == 409 and too_far.json()["code"] == "invalid_rollback"
    assert client_for(alice).post(url, {"turn": 1, "phase": "activity"},
                                  format="json").status_code == 403
    assert LedgerEntry.objects.count() == before
    # only the starts a rollback can reach are kept (a document each)
    assert list(PhaseStart.objects.filter(campaign=league).values_list("turn", "phase")) \
        == [(1, "activity"), (1, "move")]
    assert client_for(uma).post(url, {"turn": 1, "phase": "activity"},
                                format="json").status_code == 200
    assert Campaign.objects.get(pk=league.pk).phase == "activity"
