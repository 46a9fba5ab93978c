"""Issue 27, item 2: chat and push channels. Addresses are checked as webhooks are (no
private addresses), kept encrypted and never shown back or exported; a campaign's channel
gets exactly the webhook's public events, a user's channel their own notifications of
the kinds they chose; each is sent once; and a real receiver on 127.0.0.1 gets them."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from campaign import channels as transports
from campaign import tasks
from campaign.errors import InvalidInput
from campaign.models import Channel, Notification, Player, Profile
from campaign.services import channels
from campaign.services.export import export_campaign, export_campaign_text

pytestmark = pytest.mark.django_db

SECRET = "discord://1234567890/s3cr3t-token-of-the-webhook-XYZW"


def public_resolver(host, port):
    return ["93.184.216.34"]


def private_resolver(host, port):
    return ["192.168.1.20"]


# ---------------------------------------------------------------------------
# Addresses
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("address", [
    "json://127.0.0.1:8080/hook",
    "ntfy://127.0.0.1:8080/topic",
    "ntfys://10.0.0.5/topic",
    "matrixs://user:pw@169.254.169.254/#room",
    "jsons://[::1]/hook",
])
def test_a_private_or_loopback_host_is_refused_with_a_sentence(address):
    with pytest.raises(transports.UnsafeChannel, match="not a public address"):
        transports.check_address(address)


def test_a_host_name_resolving_to_a_private_address_is_refused():
    with pytest.raises(transports.UnsafeChannel, match="not a public address"):
        transports.check_address("matrixs://u:p@chat.example.org/#room", private_resolver)
    checked = transports.check_address("matrixs://u:p@chat.example.org/#room",
                                       public_resolver)
    assert checked.label == "Matrix"


@pytest.mark.parametrize("address", ["https://hooks.example.org/x", "mailto://a@b.org",
                                     "file:///etc/passwd", "no scheme at all", ""])
def test_an_unknown_scheme_is_refused(address):
    with pytest.raises(transports.UnsafeChannel, match=r"must begin with|Give the"):
        transports.check_address(address)


def test_services_with_a_fixed_host_are_accepted_without_looking_it_up():
    with mock.patch("campaign.webhooks.system_resolver") as resolver:
        assert transports.check_address(SECRET).label == "Discord"
        assert transports.check_address("tgram://123456:ABCdef/987").label == "Telegram"
        assert transports.check_address("ntfy://my-topic").label == "ntfy"
    resolver.assert_not_called()


def test_local_receivers_are_refused_unless_the_tests_allow_them():
    assert django_settings.CHANNELS_ALLOW_LOCAL is False


def test_a_refused_address_saves_nothing(alice):
    with pytest.raises(InvalidInput, match="not a public address"):
        channels.channel_add(address="json://127.0.0.1:9/x", user=alice)
    assert Channel.objects.count() == 0


# ---------------------------------------------------------------------------
# Kept secret
# ---------------------------------------------------------------------------


def test_the_address_is_stored_encrypted_and_shown_masked(alice, client):
    channel = channels.channel_add(address=SECRET, user=alice)
    raw = Channel.objects.values_list("address_encrypted", flat=True).get(pk=channel.pk)
    assert "s3cr3t" not in raw and "1234567890" not in raw
    assert transports.decrypt(raw) == SECRET
    client.force_login(alice)
    page = client.get(reverse("channels")).content.decode()
    assert "Discord address ending …XYZW" in page
    assert "s3cr3t" not in page and "1234567890" not in page


def test_a_campaign_channel_is_not_in_the_export(world):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    document = json.dumps(export_campaign(world.campaign, complete=True))
    text = export_campaign_text(world.campaign, complete=True)
    for leaked in ("s3cr3t", "1234567890", "discord://"):
        assert leaked not in document and leaked not in text


def test_the_umpire_page_shows_the_campaign_channel_masked(world, client):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    client.force_login(world.users["uma"])
    page = client.get(reverse("umpire-channels", args=[world.campaign.pk])).content.decode()
    assert "Discord address ending …XYZW" in page and "s3cr3t" not in page


def test_only_the_umpire_has_the_campaign_channels_page(world, client):
    url = reverse("umpire-channels", args=[world.campaign.pk])
    client.force_login(world.users["alice"])
    assert client.get(url).status_code == 403
    assert client.post(url, {"address": SECRET}).status_code == 403
    client.force_login(world.users["charlie"])
    assert client.get(url).status_code == 404
    assert Channel.objects.count() == 0


def test_a_player_cannot_remove_another_users_channel(world, client):
    theirs = channels.channel_add(address=SECRET, user=world.users["bob"])
    client.force_login(world.users["alice"])
    client.post(reverse("channel-remove", args=[theirs.pk]))
    assert Channel.objects.filter(pk=theirs.pk).exists()


# ---------------------------------------------------------------------------
# What goes where, once
# ---------------------------------------------------------------------------


def deliver(world, kind, player_ids=None):
    c = world.campaign
    return channels.deliver(campaign_id=c.pk, kind=kind, turn=c.turn, phase=c.phase,
                            player_ids=player_ids)


@pytest.fixture
def sent():
    calls: list[tuple[str, str, str]] = []

    def record(address, title, body):
        calls.append((address, title, body))
        return True

    with mock.patch("campaign.channels.send", side_effect=record):
        yield calls


@pytest.mark.parametrize("kind", ["phase_opened", "results", "rolled_back", "nudge"])
def test_a_campaign_channel_gets_the_public_events(world, sent, kind):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    assert deliver(world, kind) == 1
    assert sent[0][0] == SECRET and world.campaign.name in sent[0][1]


@pytest.mark.parametrize("kind", ["reminder", "corrected"])
def test_a_campaign_channel_never_gets_a_private_event(world, sent, kind):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    deliver(world, kind, [world.alice.pk])
    assert sent == []


def write(world, text, to=None):
    from campaign.models import Message

    c = world.campaign
    return Message.objects.create(campaign=c, sender=world.alice, recipient=to, text=text,
                                  turn=c.turn, phase=c.phase)


def test_a_campaign_channel_never_gets_a_message(world, sent):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    channels.deliver_message(message_id=write(world, "Secret plan").pk)
    assert sent == []


def test_a_message_reaches_its_readers_channel_once(world, sent):
    channels.channel_add(address="ntfy://bobs-topic", user=world.users["bob"])
    channels.channel_add(address="ntfy://alices-topic", user=world.users["alice"])
    message = write(world, "Meet me at Gamma", to=world.bob)
    assert channels.deliver_message(message_id=message.pk) == 1
    assert channels.deliver_message(message_id=message.pk) == 0
    assert [a for a, _, _ in sent] == ["ntfy://bobs-topic"]
    assert "Meet me at Gamma" in sent[0][2] and "/messages/" in sent[0][2]


def test_a_users_channel_gets_their_own_notifications_of_the_kinds_they_chose(world, sent):
    mine = "ntfy://alices-topic"
    channels.channel_add(address=mine, user=world.users["alice"])
    channels.channel_add(address="ntfy://bobs-topic", user=world.users["bob"])
    deliver(world, "reminder", [world.alice.pk])
    assert [a for a, _, _ in sent] == [mine]
    Profile.objects.update_or_create(user=world.users["alice"],
                                     defaults={"muted_kinds": ["results"]})
    sent.clear()
    deliver(world, "results")
    assert [a for a, _, _ in sent] == ["ntfy://bobs-topic"]


def test_a_seat_with_notifications_off_gets_nothing(world, sent):
    channels.channel_add(address="ntfy://alices-topic", user=world.users["alice"])
    Player.objects.filter(pk=world.alice.pk).update(notifications=False)
    deliver(world, "phase_opened")
    assert sent == []


def test_a_job_delivered_twice_posts_once(world, sent):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    channels.channel_add(address="ntfy://alices-topic", user=world.users["alice"])
    assert deliver(world, "phase_opened") == 2
    assert deliver(world, "phase_opened") == 0
    assert len(sent) == 2
    assert Notification.objects.filter(recipient__startswith="channel:").count() == 2


def test_a_failed_post_is_released_for_a_retry(world):
    channel = channels.channel_add(address=SECRET, campaign=world.campaign)
    with mock.patch("campaign.channels.send", return_value=False), \
            pytest.raises(channels.DeliveryFailed):
        deliver(world, "phase_opened")
    assert not Notification.objects.filter(recipient=f"channel:{channel.pk}").exists()
    with mock.patch("campaign.channels.send", return_value=True) as again:
        assert deliver(world, "phase_opened") == 1
    again.assert_called_once()


def test_the_mail_job_hands_the_channels_their_job(world, sent, django_capture_on_commit_callbacks):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    c = world.campaign
    with django_capture_on_commit_callbacks(execute=True):
        tasks.notify(c.pk, "phase_opened", c.turn, c.phase, None)
    assert len(sent) == 1


def test_a_sandbox_posts_nothing(world, sent):
    channels.channel_add(address=SECRET, campaign=world.campaign)
    type(world.campaign).objects.filter(pk=world.campaign.pk).update(is_sandbox=True)
    assert deliver(world, "phase_opened") == 0
    assert sent == []


# ---------------------------------------------------------------------------
# A real receiver on 127.0.0.1
# ---------------------------------------------------------------------------


class Receiver:
    """An HTTP server on 127.0.0.1 that records what is POSTed to it."""

    def __init__(self, status: int = 200, headers: dict[str, str] | None = None) -> None:
        self.requests: list[dict] = []
        received = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                received.append({"path": self.path, "headers": {k.lower(): v for k, v in
                                                             self.headers.items()},
                                 "body": body})
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def local(settings):
    settings.CHANNELS_ALLOW_LOCAL = True


def test_send_a_test_reaches_a_json_receiver(alice, local, django_capture_on_commit_callbacks):
    with Receiver() as receiver:
        channel = channels.channel_add(address=f"json://127.0.0.1:{receiver.port}/hook",
                                       user=alice)
        with django_capture_on_commit_callbacks(execute=True):
            channels.channel_test(channel_id=channel.pk, user=alice)
    assert len(receiver.requests) == 1
    assert receiver.requests[0]["path"] == "/hook"
    payload = json.loads(receiver.requests[0]["body"])
    assert payload["title"] == "Unlimit3d 8: a test message"
    assert "/accounts/channels/" in payload["message"]
    channel.refresh_from_db()
    assert channel.last_outcome == "The test message was delivered."
    assert channel.test_token == ""


def test_a_redelivered_test_job_sends_once(alice, local, django_capture_on_commit_callbacks):
    with Receiver() as receiver:
        channel = channels.channel_add(address=f"json://127.0.0.1:{receiver.port}/hook",
                                       user=alice)
        channels.channel_test(channel_id=channel.pk, user=alice)
        token = Channel.objects.get(pk=channel.pk).test_token
        assert channels.send_test(channel_id=channel.pk, token=token) is True
        assert channels.send_test(channel_id=channel.pk, token=token) is False
    assert len(receiver.requests) == 1


def test_a_campaign_event_reaches_an_ntfy_receiver(world, local):
    with Receiver() as receiver:
        channels.channel_add(address=f"ntfy://127.0.0.1:{receiver.port}/league",
                             campaign=world.campaign)
        assert deliver(world, "results") == 1
    assert len(receiver.requests) == 1
    body = receiver.requests[0]["body"].decode()
    assert "results are in" in body and world.campaign.name in body


def test_a_refusing_receiver_is_a_failure_recorded_on_the_channel(world, local):
    with Receiver(status=500) as receiver:
        channel = channels.channel_add(address=f"json://127.0.0.1:{receiver.port}/h",
                                       campaign=world.campaign)
        with pytest.raises(channels.DeliveryFailed):
            deliver(world, "phase_opened")
    channel.refresh_from_db()
    assert "could not be delivered" in channel.last_outcome


def test_without_the_test_setting_a_local_receiver_is_not_called(world):
    channel = Channel.objects.create(campaign=world.campaign, service="json", hint="hook",
                                     address_encrypted=transports.encrypt(
                                         "json://127.0.0.1:9/hook"))
    with Receiver() as receiver, mock.patch("apprise.Apprise.notify") as notify:
        Channel.objects.filter(pk=channel.pk).update(address_encrypted=transports.encrypt(
            f"json://127.0.0.1:{receiver.port}/hook"))
        with pytest.raises(channels.DeliveryFailed):
            deliver(world, "phase_opened")
    notify.assert_not_called()
    assert receiver.requests == []


def test_a_second_test_right_after_a_message_is_refused(alice, local,
                                                        django_capture_on_commit_callbacks):
    with Receiver() as receiver:
        channel = channels.channel_add(address=f"json://127.0.0.1:{receiver.port}/hook",
                                       user=alice)
        with django_capture_on_commit_callbacks(execute=True):
            channels.channel_test(channel_id=channel.pk, user=alice)
        with pytest.raises(InvalidInput, match="wait a moment"), \
                django_capture_on_commit_callbacks(execute=True):
            channels.channel_test(channel_id=channel.pk, user=alice)
    assert len(receiver.requests) == 1
    assert Channel.objects.get(pk=channel.pk).test_token == ""


def test_a_redirect_is_not_followed(world, local):
    with Receiver(status=307, headers={"Location": "/elsewhere"}) as receiver:
        channels.channel_add(address=f"json://127.0.0.1:{receiver.port}/hook?redirect=yes",
                             campaign=world.campaign)
        with pytest.raises(channels.DeliveryFailed):
            deliver(world, "phase_opened")
    assert [r["path"] for r in receiver.requests] == ["/hook"]


def test_a_failed_delivery_is_retried_later_by_a_worker_with_a_growing_delay():
    from celery.exceptions import Retry

    task = mock.Mock()
    task.request.is_eager, task.request.retries = False, 2
    task.retry.side_effect = Retry()
    with pytest.raises(Retry):
        tasks._retry_later(task, channels.DeliveryFailed("1 channel(s) failed"))
    assert task.retry.call_args.kwargs["countdown"] == 240
    task.request.retries = tasks.CHANNEL_RETRIES
    assert tasks._retry_later(task, channels.DeliveryFailed("x")) == 0
    task.request.retries, task.request.is_eager = 0, True
    assert tasks._retry_later(task, channels.DeliveryFailed("x")) == 0


def test_the_channels_job_in_the_embedded_mode_drops_a_failure_it_recorded(world):
    channel = channels.channel_add(address=SECRET, campaign=world.campaign)
    c = world.campaign
    with mock.patch("campaign.channels.send", return_value=False):
        assert tasks.notify_channels.apply(
            args=(c.pk, "phase_opened", c.turn, c.phase, None)).get() == 0
    channel.refresh_from_db()
    assert "could not be delivered" in channel.last_outcome


def test_a_players_channel_shows_the_deadline_in_their_time_zone(world, sent):
    import datetime as dt

    from campaign.models import Campaign

    Campaign.objects.filter(pk=world.campaign.pk).update(
        phase_deadline=dt.datetime(2030, 1, 2, 12, 0, tzinfo=dt.UTC))
    Profile.objects.update_or_create(user=world.users["alice"],
                                     defaults={"time_zone": "Europe/Paris"})
    channels.channel_add(address="ntfy://alices-topic", user=world.users["alice"])
    channels.channel_add(address=SECRET, campaign=world.campaign)
    deliver(world, "phase_opened")
    texts = {address: body for address, _, body in sent}
    assert "2030-01-02 13:00 (Europe/Paris)" in texts["ntfy://alices-topic"]
    assert "2030-01-02 12:00 (UTC)" in texts[SECRET]
