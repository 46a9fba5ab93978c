"""Issue 27, item 2: Web Push with a test subscription. The test is the browser: it makes
its own key pair and runs the push service on 127.0.0.1; a deadline, results or a message
arrives there as an aes128gcm body it can decrypt, signed with the site's VAPID key."""

from __future__ import annotations

import base64
import json
import os

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.test import Client
from django.urls import reverse

from campaign import push
from campaign.errors import InvalidInput
from campaign.models import Notification, PushSubscription, VapidKey
from campaign.services import channels

from .test_channels import Receiver

pytestmark = pytest.mark.django_db


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A test subscription: the browser's key pair and auth secret."""

    def __init__(self) -> None:
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.p256dh = b64url(self.private.public_key().public_bytes(
            Encoding.X962, PublicFormat.UncompressedPoint))
        self.auth_secret = os.urandom(16)
        self.auth = b64url(self.auth_secret)

    def decrypt(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.private,
                                           auth_secret=self.auth_secret,
                                           version="aes128gcm"))


@pytest.fixture
def local(settings):
    settings.CHANNELS_ALLOW_LOCAL = True


def subscribe(user, receiver: Receiver, browser: Browser) -> PushSubscription:
    return channels.push_subscribe(
        user=user, endpoint=f"http://127.0.0.1:{receiver.port}/push/{browser.auth[:6]}",
        p256dh=browser.p256dh, auth=browser.auth)


def deliver(world, kind, player_ids=None):
    c = world.campaign
    return channels.deliver(campaign_id=c.pk, kind=kind, turn=c.turn, phase=c.phase,
                            player_ids=player_ids)


def check_vapid(header: str, audience: str) -> None:
    """`vapid t=JWT, k=KEY`: the JWT names the push service and is signed by KEY."""
    assert header.startswith("vapid ")
    parts = dict(p.strip().split("=", 1) for p in header[len("vapid "):].split(","))
    token, key = parts["t"], parts["k"]
    assert key == push.vapid_keys().public
    head, claims, signature = token.split(".")
    assert json.loads(unb64url(claims))["aud"] == audience
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                       int.from_bytes(raw[32:], "big")),
                  f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))


def test_results_arrive_encrypted_and_signed_at_the_push_service(world, local):
    browser = Browser()
    with Receiver(status=201) as service:
        subscribe(world.users["alice"], service, browser)
        assert deliver(world, "results") == 1
    assert len(service.requests) == 1
    request = service.requests[0]
    assert request["headers"]["content-encoding"] == "aes128gcm"
    assert request["headers"]["ttl"] == str(push.TTL_SECONDS)
    check_vapid(request["headers"]["authorization"], f"http://127.0.0.1:{service.port}")
    payload = browser.decrypt(request["body"])
    assert "results are in" in payload["title"] and world.campaign.name in payload["title"]
    assert payload["url"].endswith(reverse("campaign-dashboard", args=[world.campaign.pk]))


def test_a_deadline_reminder_is_pushed_to_the_player_waited_for_only(world, local):
    alice, bob = Browser(), Browser()
    with Receiver(status=201) as service:
        subscribe(world.users["alice"], service, alice)
        subscribe(world.users["bob"], service, bob)
        assert deliver(world, "reminder", [world.alice.pk]) == 1
    assert len(service.requests) == 1
    assert "ends soon" in alice.decrypt(service.requests[0]["body"])["title"]


def test_a_message_is_pushed_to_its_reader(world, local):
    from campaign.models import Message

    browser = Browser()
    c = world.campaign
    message = Message.objects.create(campaign=c, sender=world.alice, recipient=world.bob,
                                     text="Gamma at dawn", turn=c.turn, phase=c.phase)
    with Receiver(status=201) as service:
        subscribe(world.users["bob"], service, browser)
        assert channels.deliver_message(message_id=message.pk) == 1
        assert channels.deliver_message(message_id=message.pk) == 0
    assert len(service.requests) == 1
    assert browser.decrypt(service.requests[0]["body"])["body"] == "Gamma at dawn"


def test_a_phase_opening_is_not_pushed(world, local):
    with Receiver(status=201) as service:
        subscribe(world.users["alice"], service, Browser())
        assert deliver(world, "phase_opened") == 0
    assert service.requests == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_calls_gone_is_deleted(world, local, status):
    with Receiver(status=status) as service:
        sub = subscribe(world.users["alice"], service, Browser())
        deliver(world, "results")
    assert not PushSubscription.objects.filter(pk=sub.pk).exists()


def test_a_push_service_error_is_retried_later(world, local):
    with Receiver(status=503) as service:
        sub = subscribe(world.users["alice"], service, Browser())
        with pytest.raises(channels.DeliveryFailed):
            deliver(world, "results")
    assert PushSubscription.objects.filter(pk=sub.pk).exists()
    assert not Notification.objects.filter(recipient=f"push:{sub.pk}").exists()


def test_a_push_service_redirect_is_not_followed(world, local):
    with Receiver(status=307, headers={"Location": "/elsewhere"}) as service:
        subscribe(world.users["alice"], service, Browser())
        with pytest.raises(channels.DeliveryFailed):
            deliver(world, "results")
    assert len(service.requests) == 1


# ---------------------------------------------------------------------------
# Keys and subscriptions
# ---------------------------------------------------------------------------


def test_a_development_key_pair_is_made_once_and_kept(settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    first = push.vapid_keys()
    assert push.vapid_keys() == first
    assert VapidKey.objects.count() == 1
    assert len(unb64url(first.public)) == 65


def test_keys_from_the_settings_are_used(settings):
    made = push._generate()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = made.private, made.public
    assert push.vapid_keys() == made
    assert VapidKey.objects.count() == 0


def test_the_printed_environment_keys_sign_a_push(world, local, settings):
    lines = dict(line.split("=", 1) for line in push.env_lines().splitlines())
    settings.VAPID_PRIVATE_KEY = lines["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = lines["VAPID_PUBLIC_KEY"]
    with Receiver(status=201) as service:
        subscribe(world.users["alice"], service, Browser())
        assert deliver(world, "results") == 1
    check_vapid(service.requests[0]["headers"]["authorization"],
                f"http://127.0.0.1:{service.port}")
    assert VapidKey.objects.count() == 0


@pytest.mark.parametrize("endpoint", ["http://push.example.org/x", "https://127.0.0.1/x",
                                      "https://10.1.2.3/x", "", "javascript:alert(1)"])
def test_a_private_or_plain_http_endpoint_is_refused(alice, endpoint):
    with pytest.raises(InvalidInput):
        channels.push_subscribe(user=alice, endpoint=endpoint, p256dh=Browser().p256dh,
                                auth="a" * 22)
    assert PushSubscription.objects.count() == 0


def post_json(client, method, data):
    return getattr(client, method)(reverse("push-subscription"), data=json.dumps(data),
                                   content_type="application/json")


def test_the_page_endpoint_saves_and_removes_a_subscription(alice, client, local):
    client.force_login(alice)
    browser = Browser()
    body = {"endpoint": "http://127.0.0.1:9/push/one",
            "keys": {"p256dh": browser.p256dh, "auth": browser.auth}}
    answer = post_json(client, "post", body)
    assert answer.status_code == 201 and "Push is on" in answer.json()["detail"]
    assert PushSubscription.objects.filter(user=alice).count() == 1
    answer = post_json(client, "delete", {"endpoint": body["endpoint"]})
    assert answer.status_code == 200 and PushSubscription.objects.count() == 0


def test_a_bad_subscription_is_a_400_and_saves_nothing(alice, client):
    client.force_login(alice)
    answer = post_json(client, "post", {"endpoint": "https://10.0.0.1/x",
                                        "keys": {"p256dh": Browser().p256dh, "auth": "a" * 22}})
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_subscription"
    assert "not a public address" in answer.json()["detail"]
    answer = client.post(reverse("push-subscription"), data="not json",
                         content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_json"
    assert PushSubscription.objects.count() == 0


def test_the_subscription_endpoint_wants_the_csrf_token(alice, local):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    answer = post_json(client, "post", {"endpoint": "http://127.0.0.1:9/p",
                                        "keys": {"p256dh": Browser().p256dh, "auth": "a" * 22}})
    assert answer.status_code == 403
    assert PushSubscription.objects.count() == 0


def test_someone_signed_out_cannot_subscribe(client):
    answer = post_json(client, "post", {"endpoint": "https://push.example.org/x"})
    assert answer.status_code == 302 and PushSubscription.objects.count() == 0


# ---------------------------------------------------------------------------
# Installable
# ---------------------------------------------------------------------------


def test_the_manifest_makes_the_site_installable(client):
    answer = client.get("/manifest.webmanifest")
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}


def test_the_service_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("push"' in answer.content


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert "js/sw-register" in page
