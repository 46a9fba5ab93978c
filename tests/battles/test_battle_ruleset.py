"""API.md, "Rulesets": each battle stores the ruleset (name and version) it was opened
with; replays, odds and tabletop results of that battle use it forever."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_each_battle_names_the_ruleset_it_was_opened_with(world, client_for, uma):
    from battles.services.opening import open_battles

    w = world(owners={"Alpha": "alice", "Beta": "bob"})
    w.unit("alice", "Beta")
    w.unit("bob", "Beta")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    assert (battle.ruleset_name, battle.ruleset_version) == ("unlimit3d8", "1")
    shown = client_for(uma).get(f"/api/campaigns/{w.campaign.pk}/battles/{battle.pk}/").json()
    assert shown["ruleset"] == {"name": "unlimit3d8", "version": "1"}
