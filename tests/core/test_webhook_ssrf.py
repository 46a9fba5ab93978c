"""Issue 19.5: a campaign webhook cannot make the server call itself or its network (SSRF).

Only http(s) to public addresses, checked when saved (a clear 400, nothing changed) and
again when sent (the connection goes to the checked address, no redirects, a timeout and
a response size cap)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from campaign import webhooks
from campaign.models import Campaign
from campaign.services import notifications

REFUSED = [
    "http://127.0.0.1/hook", "http://localhost.localdomain./x", "http://[::1]/hook",
    "http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/", "http://192.168.0.4/",
    "http://172.16.0.1/", "http://100.64.0.1/", "http://0.0.0.0/", "http://224.0.0.1/",
    "http://240.0.0.1/", "http://[fe80::1]/", "http://[fc00::1]/", "http://[::ffff:127.0.0.1]/",
    "ftp://93.184.216.34/", "file:///etc/passwd", "gopher://93.184.216.34/",
    "http://user:pw@93.184.216.34/", "http:///nohost", "not a url",
]


def fake_dns(table):
    def resolve(host, port):
        if host not in table:
            raise OSError("no such host")
        return table[host]
    return resolve


@pytest.mark.parametrize("url", REFUSED)
def test_loopback_private_link_local_and_odd_schemes_are_refused(url):
    dns = fake_dns({"localhost.localdomain.": ["127.0.0.1"]})
    with pytest.raises(webhooks.UnsafeWebhook):
        webhooks.checked_address(url, dns)


def test_a_public_address_is_accepted_and_pinned():
    dns = fake_dns({"chat.example.org": ["93.184.216.34", "2606:2800:220:1::"]})
    scheme, host, port, path, address = webhooks.checked_address(
        "https://chat.example.org/hook?x=1", dns)
    assert (scheme, host, port, path, address) == (
        "https", "chat.example.org", 443, "/hook?x=1", "93.184.216.34")


def test_a_name_with_one_private_address_among_public_ones_is_refused():
    """DNS can answer with several addresses; one inside the network is enough to refuse."""
    dns = fake_dns({"sneaky.example.org": ["93.184.216.34", "10.0.0.7"]})
    with pytest.raises(webhooks.UnsafeWebhook, match=r"10\.0\.0\.7"):
        webhooks.checked_address("http://sneaky.example.org/", dns)


def test_a_name_that_does_not_resolve_is_refused():
    with pytest.raises(webhooks.UnsafeWebhook, match="could not be resolved"):
        webhooks.checked_address("http://nowhere.invalid/", fake_dns({}))


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/admin/", "http://169.254.169.254/",
                                 "ftp://93.184.216.34/x"])
def test_settings_refuse_an_unsafe_webhook_with_400_and_change_nothing(make_campaign,
                                                                      client_for, uma, url):
    campaign = make_campaign(uma)
    before = Campaign.objects.get(pk=campaign.pk).options
    response = client_for(uma).patch(f"/api/campaigns/{campaign.pk}/settings/",
                                     {"webhook_url": url}, format="json")
    assert response.status_code == 400
    assert "webhook" in response.json()["detail"]
    assert Campaign.objects.get(pk=campaign.pk).options == before


@pytest.mark.django_db
def test_settings_accept_a_public_ip_webhook_and_an_empty_one(make_campaign, client_for, uma):
    campaign = make_campaign(uma)
    url = f"/api/campaigns/{campaign.pk}/settings/"
    assert client_for(uma).patch(url, {"webhook_url": "https://93.184.216.34/hook"},
                                 format="json").status_code == 200
    assert client_for(uma).patch(url, {"webhook_url": ""}, format="json").status_code == 200


class _Receiver(BaseHTTPRequestHandler):
    received: list = []
    status = 204

    def do_POST(self):
        length = int(self.headers["Content-Length"])
        type(self).received.append(json.loads(self.rfile.read(length)))
        self.send_response(type(self).status)
        if type(self).status in (301, 302):
            self.send_header("Location", "http://169.254.169.254/")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver():
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    _Receiver.received = []
    _Receiver.status = 204
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_a_loopback_receiver_is_never_called_by_default(receiver, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    url = f"http://127.0.0.1:{receiver.server_port}/hook"
    assert notifications.post_webhook(url, {"kind": "phase_opened"}) is False
    assert _Receiver.received == []


def test_a_trusted_network_is_called_with_the_json_and_redirects_are_not_followed(
        receiver, settings):
    """WEBHOOK_ALLOWED_NETWORKS lets a site reach its own bridge; a redirect answer is not
    followed (the receiver would send the server to the metadata address)."""
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    url = f"http://127.0.0.1:{receiver.server_port}/hook"
    assert notifications.post_webhook(url, {"kind": "phase_opened"}) is True
    assert _Receiver.received == [{"kind": "phase_opened"}]
    _Receiver.status = 302
    assert notifications.post_webhook(url, {"kind": "results_in"}) is False
    assert len(_Receiver.received) == 2
