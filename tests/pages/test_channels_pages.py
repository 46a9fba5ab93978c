"""The channels pages (issue 27, item 2): a player's `/accounts/channels/` and an
umpire's `/campaigns/<id>/umpire/channels/`: accessible, a refused address is a sentence
on the page and saves nothing, and a page's query count does not grow with its rows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Channel
from campaign.services import channels
from tests.pages.a11y import page_problems

pytestmark = pytest.mark.django_db


def test_the_players_channels_page_passes_the_accessibility_check(alice, client):
    channels.channel_add(address="ntfy://alices-topic", user=alice)
    client.force_login(alice)
    page = client.get(reverse("channels")).content.decode()
    assert page_problems(page) == []
    assert "Enable push on this device" in page and "Send a test" in page


def test_the_umpires_channels_page_passes_the_accessibility_check(uma, make_campaign, client):
    campaign = make_campaign(uma)
    channels.channel_add(address="ntfy://league-topic", campaign=campaign)
    client.force_login(uma)
    page = client.get(reverse("umpire-channels", args=[campaign.pk])).content.decode()
    assert page_problems(page) == []
    assert "ntfy address ending …opic" in page


def test_a_private_address_is_refused_on_the_page_with_a_sentence(alice, client):
    client.force_login(alice)
    answer = client.post(reverse("channels"), {"address": "json://192.168.0.10/hook"},
                         follow=True)
    assert "is not a public address" in answer.content.decode()
    assert Channel.objects.count() == 0


def test_a_bad_scheme_is_refused_on_the_umpire_page(uma, make_campaign, client):
    campaign = make_campaign(uma)
    client.force_login(uma)
    answer = client.post(reverse("umpire-channels", args=[campaign.pk]),
                         {"action": "add", "address": "https://example.org/hook"}, follow=True)
    assert "must begin with one of" in answer.content.decode()
    assert Channel.objects.count() == 0


def test_adding_testing_and_removing_on_the_players_page(alice, client,
                                                         django_capture_on_commit_callbacks):
    client.force_login(alice)
    answer = client.post(reverse("channels"), {"address": "ntfy://alices-topic"}, follow=True)
    assert "Channel saved" in answer.content.decode()
    channel = Channel.objects.get(user=alice)
    from unittest import mock

    with mock.patch("campaign.channels.send", return_value=True) as send, \
            django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("channel-test", args=[channel.pk]))
    send.assert_called_once()
    assert "was delivered" in client.get(reverse("channels")).content.decode()
    client.post(reverse("channel-remove", args=[channel.pk]))
    assert Channel.objects.count() == 0


def test_the_pages_query_count_does_not_grow_with_channels(alice, client):
    client.force_login(alice)
    channels.channel_add(address="ntfy://topic-one", user=alice)
    client.get(reverse("channels"))  # the development VAPID key is made on the first
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("channels"))
    for n in range(2, 6):
        channels.channel_add(address=f"ntfy://topic-{n}", user=alice)
    with CaptureQueriesContext(connection) as five:
        client.get(reverse("channels"))
    assert len(five) == len(one)


def test_the_umpire_tests_and_removes_a_campaign_channel(uma, make_campaign, client,
                                                         django_capture_on_commit_callbacks):
    from unittest import mock

    campaign = make_campaign(uma)
    channel = channels.channel_add(address="ntfy://league-topic", campaign=campaign)
    client.force_login(uma)
    url = reverse("umpire-channels", args=[campaign.pk])
    with mock.patch("campaign.channels.send", return_value=True) as send, \
            django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "test", "channel": channel.pk})
    assert "set up for the campaign" in send.call_args.args[2]
    client.post(url, {"action": "remove", "channel": channel.pk})
    assert Channel.objects.count() == 0
