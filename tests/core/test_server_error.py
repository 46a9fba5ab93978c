"""Issue 19.8: a production (DEBUG=0) 500 answers the contract's JSON on the API, never an
HTML page a client cannot read, and tells nothing of the error itself."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.urls("tests.core.urls_with_a_broken_view")
def test_a_server_error_on_the_api_is_json_with_code_and_detail(settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    answer = client.get("/api/boom/")
    assert answer.status_code == 500
    assert answer["Content-Type"].startswith("application/json")
    body = answer.json()
    assert body["code"] == "server_error" and "a bug" not in body["detail"]
    page = client.get("/boom/")
    assert page.status_code == 500 and not page["Content-Type"].startswith("application/json")


def test_the_project_urls_use_that_handler():
    from campaign import urls

    assert urls.handler500 == "campaign.errors.server_error"
