"""Issue 26: a unit's name, renamed after a battle, is what the battle page and the
forces page say, escaped like any text a player types; the API's battle report names
the units by the names they bear."""

from __future__ import annotations

import re

from django.utils.html import escape

from battles.models import Battle
from economy.models import Unit
from economy.services.names import unit_rename


def test_a_renamed_unit_is_named_and_escaped_on_the_battle_and_forces_pages(
        web_client, played_campaign, alice, bob, client_for) -> None:
    battle = Battle.objects.get(campaign=played_campaign)
    golem = Unit.objects.get(player__campaign=played_campaign, player__user=alice)
    golem.player.campaign = played_campaign
    unit_rename(player=golem.player, unit_id=golem.pk, name="<script>x</script> Wolf")
    nasty = "<script>x</script> Wolf"
    pages = [(bob, f"battles/{battle.pk}/"), (alice, f"battles/{battle.pk}/")]
    golem.refresh_from_db()
    if golem.status != Unit.Status.DESTROYED:  # the forces page lists units in play
        pages.append((alice, "forces/"))
    for who, path in pages:
        html = web_client(who).get(f"/campaigns/{played_campaign.pk}/{path}"
                                   ).content.decode()
        assert escape(nasty) in html, (who, path)
        assert nasty not in html
        assert str(golem.pk) not in re.sub(r'\s[\w-]+="[^"]*"', "", html)
    report = client_for(bob).get(f"/api/campaigns/{played_campaign.pk}/battles/{battle.pk}/"
                                 ).json()["report"]
    names = [u["name"] for side in report["sides"] for u in side["units"]]
    assert nasty in names
