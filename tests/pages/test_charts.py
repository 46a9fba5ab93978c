"""History charts (issue 7: "charts of credits, territories and units per player over
the turns (only what the viewer may see)"). Territories are public, as on the map;
credits and units are private to their player (and to an umpire who does not play)."""

from __future__ import annotations

import pytest

from campaign.models import Campaign, TurnSnapshot

pytestmark = pytest.mark.django_db


def _finish_turn(campaign: Campaign, django_capture_on_commit_callbacks) -> Campaign:
    from campaign.services import clock

    while True:
        campaign.refresh_from_db()
        if campaign.phase == "tactical":
            break
        with django_capture_on_commit_callbacks(execute=True):
            clock.advance(campaign_id=campaign.pk, by="umpire")
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(campaign_id=campaign.pk, by="umpire")
    campaign.refresh_from_db()
    return campaign


def test_leaving_the_tactical_phase_snapshots_every_player(
        played_campaign, django_capture_on_commit_callbacks) -> None:
    campaign = _finish_turn(played_campaign, django_capture_on_commit_callbacks)
    assert (campaign.turn, campaign.phase) == (2, "commercial")
    snaps = {s.player.user.username: s for s in
             TurnSnapshot.objects.filter(campaign=campaign, turn=1).select_related(
                 "player__user")}
    assert set(snaps) == {"alice", "bob"}
    for name, snap in snaps.items():
        player = campaign.players.get(user__username=name)
        assert snap.credits == player.credits
        assert snap.territories == campaign.territories.filter(owner=player).count()
        assert snap.units == player.units.exclude(status="destroyed").count()
    # idempotent: the hook run again for the same turn changes nothing
    from campaign.services.snapshots import snapshot_turn

    campaign.turn = 1
    snapshot_turn(campaign=campaign)
    assert TurnSnapshot.objects.filter(campaign=campaign, turn=1).count() == 2


def _chart_table(html: str, key: str) -> str:
    start = html.index(f'id="{key}-h"')
    return html[start:html.index("</table>", start)]


def test_a_player_sees_every_territory_series_but_only_their_own_credits_and_units(
        web_client, played_campaign, alice, bob, django_capture_on_commit_callbacks) -> None:
    campaign = _finish_turn(played_campaign, django_capture_on_commit_callbacks)
    alice_seat = campaign.players.get(user=alice)
    bob_seat = campaign.players.get(user=bob)
    TurnSnapshot.objects.filter(player=bob_seat).update(credits=987_654, units=77)
    page = web_client(alice).get(f"/campaigns/{campaign.pk}/history/").content.decode()
    territories = _chart_table(page, "territories")
    assert ">alice<" in territories and ">bob<" in territories
    credits = _chart_table(page, "credits")
    assert ">alice<" in credits and ">bob<" not in credits
    assert str(alice_seat.credits) in credits
    assert "987654" not in page and "987,654" not in page
    assert ">bob<" not in _chart_table(page, "units")
    assert "Only your own series" in page


def test_the_umpire_who_does_not_play_sees_everyone(web_client, played_campaign, uma
                                                   ) -> None:
    page = web_client(uma).get(f"/campaigns/{played_campaign.pk}/history/").content.decode()
    for key in ("territories", "credits", "units"):
        table = _chart_table(page, key)
        assert ">alice<" in table and ">bob<" in table
    assert "Turn 1 (now)" in page, "the turn in progress is charted live"
    assert page.count('role="img"') >= 3


def test_charts_cost_the_same_queries_after_many_turns(
        web_client, played_campaign, alice, django_capture_on_commit_callbacks) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = web_client(alice)
    url = f"/campaigns/{played_campaign.pk}/history/"
    with CaptureQueriesContext(connection) as before:
        client.get(url)
    campaign = played_campaign
    for _ in range(3):
        campaign = _finish_turn(campaign, django_capture_on_commit_callbacks)
    assert TurnSnapshot.objects.filter(campaign=campaign).values("turn").distinct().count() \
        == 3
    with CaptureQueriesContext(connection) as after:
        page = client.get(url)
    assert page.status_code == 200 and b"Turn 3<" in page.content
    assert len(after.captured_queries) <= len(before.captured_queries) <= 30


def test_a_campaign_in_setup_has_nothing_to_chart(web_client, setup_campaign, alice) -> None:
    page = web_client(alice).get(f"/campaigns/{setup_campaign.pk}/history/")
    assert page.status_code == 200 and b"Nothing to chart yet" in page.content
