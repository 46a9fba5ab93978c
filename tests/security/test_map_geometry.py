"""The meta-map's geometry layers (issue 32, target 5) are the same for every reader: the
lines and names only, nothing of anyone's units, holdings or deposits, and no more
readable than the map itself (a private league's layers ask to log in, or do not exist
for an outsider)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.security.test_public_pages import _make_public, league  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _layer_urls(client: Client, campaign) -> list[str]:
    html = client.get(f"/campaigns/{campaign.pk}/map/").content.decode()
    lines = re.search(r'data-geometry="([^"]+)"', html)
    assert lines, "the page draws its lines from a layer"
    return [lines.group(1), lines.group(1).replace("lines.svg", "labels.svg")]


def test_every_reader_gets_the_same_layers_and_they_hold_no_ones_secrets(
        league, uma, alice, bob) -> None:  # noqa: F811
    campaign, _t, _finished = league
    _make_public(campaign)
    readers = {"alice": _client(alice), "bob": _client(bob), "umpire": _client(uma),
               "spectator": _client()}
    # the secret is on its owner's page (so the checks below can fail) ...
    mine = readers["alice"].get(f"/campaigns/{campaign.pk}/map/").content.decode()
    assert "Alpha (yours), 1 of your units" in mine
    # ... and on nobody else's
    theirs = readers["bob"].get(f"/campaigns/{campaign.pk}/map/").content.decode()
    assert "Alpha (held by alice)</title>" in theirs and "of your units" not in theirs
    urls = _layer_urls(readers["alice"], campaign)
    assert _layer_urls(readers["spectator"], campaign) == urls
    for url in urls:
        bodies = {who: client.get(url) for who, client in readers.items()}
        assert {r.status_code for r in bodies.values()} == {200}
        assert len({r.content for r in bodies.values()}) == 1, url
        text = bodies["alice"].content.decode()
        for secret in ("units", "yours", "held by", "alice", "bob", "iron", "Deposit"):
            assert secret not in text, (url, secret)


def test_a_private_leagues_layers_ask_to_log_in_or_do_not_exist(
        league, alice, django_user_model) -> None:  # noqa: F811
    campaign, _t, _finished = league
    urls = _layer_urls(_client(alice), campaign)
    outsider = _client(django_user_model.objects.create_user("mallory", password="x"))
    for url in urls:
        signed_out = Client().get(url)
        assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]
        assert outsider.get(url).status_code == 404
