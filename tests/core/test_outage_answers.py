"""Issue 30, item 6: the database's refusals are never a 500.

- A deadlock or serialization failure (SQLSTATE 40P01, 40001) aborts a service: it runs
  again, up to three times in all (tests/economy/test_retry_on_conflict.py); one that
  escapes a view anyway is 503 `busy`.
- The database gone (connection refused, dropped): 503 `unavailable` with `Retry-After`,
  as the contract's JSON on the API and as a page (drawn without the database) elsewhere.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError


class Aborted(OperationalError):
    def __init__(self, state: str) -> None:
        super().__init__(f"aborted ({state})")
        self.sqlstate = state


def _database_gone(*_args, **_kwargs):
    raise OperationalError("connection to server at \"127.0.0.1\", port 5432 failed: "
                           "Connection refused")


@pytest.mark.django_db
def test_the_api_answers_503_json_while_the_database_is_gone(
        make_campaign, uma, client_for, monkeypatch):
    campaign = make_campaign(uma)
    from campaign.api import views

    monkeypatch.setattr(views, "membership", _database_gone)
    monkeypatch.setattr(views, "reader", _database_gone)
    client = client_for(uma)
    client.raise_request_exception = False
    r = client.get(f"/api/campaigns/{campaign.pk}/")
    assert r.status_code == 503
    assert r.json()["code"] == "unavailable" and "Try again" in r.json()["detail"]
    assert r["Retry-After"] == "30"


@pytest.mark.django_db
def test_a_page_answers_a_503_page_drawn_without_the_database(
        make_campaign, uma, client, monkeypatch):
    """Even a failure before any view (the session's user read in a middleware) is a
    503 page, not a 500."""
    make_campaign(uma)
    client.force_login(uma)
    client.raise_request_exception = False
    from django.contrib.auth import middleware

    monkeypatch.setattr(middleware, "get_user", _database_gone)
    r = client.get("/")
    assert r.status_code == 503
    page = r.content.decode()
    assert "Back in a minute" in page and "Nothing you sent was lost" in page
    assert r["Retry-After"] == "30"


@pytest.mark.django_db
def test_a_deadlock_that_escapes_a_view_is_still_not_a_500(make_campaign, uma, client_for,
                                                          monkeypatch):
    """A transient abort outside any retried service (retried by the client instead)."""
    campaign = make_campaign(uma)
    from campaign.api import views

    def deadlocked(*_a, **_k):
        raise Aborted("40P01")

    monkeypatch.setattr(views, "membership", deadlocked)
    monkeypatch.setattr(views, "reader", deadlocked)
    client = client_for(uma)
    client.raise_request_exception = False
    r = client.get(f"/api/campaigns/{campaign.pk}/")
    assert r.status_code == 503 and r.json()["code"] == "busy"
