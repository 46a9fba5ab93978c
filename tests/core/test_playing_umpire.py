"""R-ORD-10: an umpire who also plays does not read the other players' private business
unless the campaign allows it; an umpire without a seat does."""

from __future__ import annotations

import pytest

from campaign.access import membership
from campaign.models import Event, Player
from campaign.selectors import events_visible_to
from campaign.services.journal import record_private
from campaign.services.setup import campaign_start
from economy.services.trades import visible_trades

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(uma, alice, bob, make_campaign):
    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma)
    for user in (uma, alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    return campaign


def _alice_and_bob_trade(campaign):
    from economy.services.trades import trade_create

    alice = Player.objects.get(campaign=campaign, user__username="alice")
    bob = Player.objects.get(campaign=campaign, user__username="bob")
    alice.campaign = campaign
    return trade_create(player=alice, to_player=bob.pk, give={"credits": 10},
                        receive={"credits": 5})


def test_a_playing_umpire_sees_neither_their_trades_nor_private_entries(league, uma):
    trade = _alice_and_bob_trade(league)
    alice = Player.objects.get(campaign=league, user__username="alice")
    entry = record_private(player=alice, kind="secret_plan", data={"x": 1})
    member = membership(uma, league.pk)
    assert member.umpire_plays and not member.sees_private
    assert not visible_trades(member).filter(pk=trade.pk).exists()
    assert not events_visible_to(member).filter(pk=entry.pk).exists()


def test_the_campaign_can_let_a_playing_umpire_read_private_business(league, uma):
    league.options = {**league.options, "playing_umpire_sees_private": True}
    league.save(update_fields=["options"])
    trade = _alice_and_bob_trade(league)
    alice = Player.objects.get(campaign=league, user__username="alice")
    entry = record_private(player=alice, kind="secret_plan")
    sealed = record_private(player=alice, kind="orders_sealed", sealed=True)
    member = membership(uma, league.pk)
    assert member.sees_private
    assert visible_trades(member).filter(pk=trade.pk).exists()
    visible = events_visible_to(member)
    assert visible.filter(pk=entry.pk).exists()
    assert not visible.filter(pk=sealed.pk).exists()  # never sealed orders (R-ORD-3)


def test_an_umpire_without_a_seat_reads_private_business(uma, alice, bob, make_campaign):
    from campaign.services.campaigns import campaign_join

    campaign = make_campaign(uma)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    trade = _alice_and_bob_trade(campaign)
    alice = Player.objects.get(campaign=campaign, user__username="alice")
    entry = record_private(player=alice, kind="secret_plan")
    member = membership(uma, campaign.pk)
    assert member.sees_private and not member.umpire_plays
    assert visible_trades(member).filter(pk=trade.pk).exists()
    visible = events_visible_to(member)
    assert visible.filter(pk=entry.pk, visibility=Event.Visibility.PRIVATE).exists()
