"""Issue 17: "a styled 403/404/409 page that says what the person can do instead". A
refusal that a page view did not turn into a message on its form answers a page with
its sentence, its status and advice, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.core.urls_with_refusing_views")]


def test_a_wrong_phase_on_a_page_is_a_styled_409(settings):
    settings.DEBUG = False
    page = Client(raise_request_exception=False).get("/refusals/too-late/")
    assert page.status_code == 409
    html = page.content.decode()
    assert "<h1>Not now</h1>" in html and "Orders are given in the move phase" in html
    assert "dashboard says which phase" in html and 'href="/"' in html


def test_bad_input_on_a_page_is_a_styled_400(settings):
    settings.DEBUG = False
    page = Client(raise_request_exception=False).get("/refusals/bad-number/")
    assert page.status_code == 400
    assert "whole number of at least 1" in page.content.decode()


def test_the_api_keeps_its_own_error_shape():
    """A plain Django view under /api/ is not the pages' business: the middleware leaves
    it to the API's handlers (here the exception propagates: no page is rendered)."""
    with pytest.raises(Exception, match="Not now"):
        Client().get("/api/refusals/conflict/")
