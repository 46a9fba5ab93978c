"""Issue 30 item 4: the tactical phase's two lots — who defends a territory nobody owns
or everybody entered (R-BJ-2), who picks the first battle (R-BJ-4) — are drawn from the
phase's committed secret seed, not from the campaign seed every member reads in
map.json, and `verify` recomputes them once the seed is revealed."""

from __future__ import annotations

import pytest

from battles.models import Battle
from battles.services.opening import defender_lot, order_lot
from battles.services.verify import verify_battles
from campaign.dice import derived_random
from campaign.models import Event, PhaseSeed
from campaign.services import clock

pytestmark = pytest.mark.django_db

LEAGUES = 8


def _contested_tactical(world, capture):
    """Alice and bob both stood on Gamma (nobody's) before the moves: a defender lot
    among two, and the order lot among three players."""
    w = world(seed=11)
    w.unit("alice", "Gamma")
    w.unit("bob", "Gamma")
    with capture(execute=False):
        clock.advance(campaign_id=w.campaign.pk, by="umpire")  # move -> tactical
    return w.refresh()


def test_the_lots_follow_the_phase_secret_not_the_public_campaign_seed(
        world, settings, django_capture_on_commit_callbacks):
    settings.DICE_SECRETS = "random"
    predicted = drawn = 0
    for _ in range(LEAGUES):
        w = _contested_tactical(world, django_capture_on_commit_callbacks)
        secret = PhaseSeed.objects.get(campaign=w.campaign, turn=1, phase="tactical").secret
        battle = Battle.objects.get(campaign=w.campaign)
        opened = Event.objects.get(campaign=w.campaign, kind="battle_opened").data
        order = Event.objects.get(campaign=w.campaign, kind="battle_order").data
        gamma = w.t["Gamma"].pk
        candidates = sorted([w.players["alice"].pk, w.players["bob"].pk])
        # R-BJ-2 and R-BJ-4's lots, with their purposes, from the phase's secret.
        defender = derived_random(secret, "defender", 1, gamma).randrange(2)
        first = derived_random(secret, "battle_order", 1).randrange(3)
        assert opened["defender_reason"] == "lot"
        assert battle.defender_id == candidates[defender]
        assert order["lot"]["drawn"] == first
        assert opened["lot"] == {"candidates": candidates, "drawn": defender}
        assert (defender_lot(secret, 1, gamma, 2), order_lot(secret, 1, 3)) \
            == (defender, first)
        # What a member who read the campaign seed (11) in map.json would have predicted.
        predicted += candidates[derived_random(11, "defender", 1, gamma).randrange(2)] \
            == battle.defender_id
        predicted += derived_random(11, "battle_order", 1).randrange(3) == first
        drawn += 2
    assert predicted < drawn  # 16 of 16 predicted before: the campaign seed decided


def test_verify_recomputes_both_lots_and_catches_a_forged_defender(
        world, settings, django_capture_on_commit_callbacks):
    settings.DICE_SECRETS = "random"
    w = _contested_tactical(world, django_capture_on_commit_callbacks)
    secret = PhaseSeed.objects.get(campaign=w.campaign, turn=1, phase="tactical").secret
    check = verify_battles(w.campaign, 1, "tactical", secret)
    assert check.mismatches == [] and check.rolls == 2  # the two lots (no battle fought)
    battle = Battle.objects.get(campaign=w.campaign)
    loser = next(p for p in (w.players["alice"].pk, w.players["bob"].pk)
                 if p != battle.defender_id)
    Battle.objects.filter(pk=battle.pk).update(defender_id=loser)
    forged = verify_battles(w.campaign, 1, "tactical", secret)
    assert [m["lot"] for m in forged.mismatches] == ["defender"]
    assert forged.mismatches[0]["territory"] == "Gamma"
    Battle.objects.filter(pk=battle.pk).update(defender_id=battle.defender_id)
    order = Event.objects.get(campaign=w.campaign, kind="battle_order")
    lot = order.data["lot"]
    order.data = {**order.data, "lot": {**lot, "drawn": (lot["drawn"] + 1) % 3}}
    order.save(update_fields=["data"])
    assert [m["lot"] for m in verify_battles(w.campaign, 1, "tactical", secret).mismatches] \
        == ["order of battles"]
