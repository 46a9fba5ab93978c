"""Accounts: sign-up and token auth as API.md writes them, with the contract's errors."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_signs_up_a_user(anon_client):
    response = anon_client.post("/api/users/", {"username": "dora", "password": PASSWORD},
                                format="json")
    assert response.status_code == 201
    assert response.json() == {"id": get_user_model().objects.get(username="dora").pk,
                               "username": "dora"}


def test_it_refuses_a_taken_username_and_creates_nothing(anon_client, alice):
    response = anon_client.post("/api/users/", {"username": "alice", "password": PASSWORD},
                                format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert "taken" in body["detail"]
    assert get_user_model().objects.filter(username="alice").count() == 1


def test_it_refuses_a_weak_password(anon_client):
    response = anon_client.post("/api/users/", {"username": "dora", "password": "123"},
                                format="json")
    assert response.status_code == 400
    assert "password" in response.json()["fields"]
    assert not get_user_model().objects.filter(username="dora").exists()


def test_it_refuses_a_malformed_body(anon_client):
    response = anon_client.post("/api/users/", data="not json", content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) >= {"code", "detail"}


def test_sign_up_can_be_closed(anon_client, settings):
    settings.ALLOW_SIGNUP = False
    response = anon_client.post("/api/users/", {"username": "dora", "password": PASSWORD},
                                format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "signup_closed"


def test_it_issues_a_token_that_authenticates(anon_client, alice):
    response = anon_client.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                                format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    anon_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon_client.get("/api/campaigns/").status_code == 200


def test_it_refuses_a_wrong_password(anon_client, alice):
    response = anon_client.post("/api/auth/token/", {"username": "alice", "password": "nope"},
                                format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "invalid_credentials",
                               "detail": "Wrong username or password."}


def test_anonymous_callers_get_the_error_shape(anon_client):
    response = anon_client.get("/api/campaigns/")
    assert response.status_code in (401, 403)
    assert set(response.json()) == {"code", "detail"}


def test_the_openapi_schema_is_served(anon_client):
    response = anon_client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/campaigns/" in response.content


def test_the_schema_is_generated_once_per_format_and_served_alike(anon_client, monkeypatch):
    """Generating the document costs ~0.5 s of CPU: an anonymous caller must not be able
    to make the server pay it on every request (issue 32). Each format is generated once
    and then served as it was rendered, with its own media type."""
    from drf_spectacular.generators import SchemaGenerator

    from campaign.schema import SchemaView

    monkeypatch.setattr(SchemaView, "_rendered", {})
    generated = []
    real = SchemaGenerator.get_schema

    def counting(self, *args, **kwargs):
        generated.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counting)
    yaml_first = anon_client.get("/api/schema/")
    yaml_again = anon_client.get("/api/schema/")
    as_json = anon_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    json_again = anon_client.get("/api/schema/?format=json")
    assert len(generated) == 2  # once for YAML, once for JSON
    assert yaml_again.content == yaml_first.content
    assert yaml_again["Content-Type"] == yaml_first["Content-Type"]
    assert yaml_first["Content-Type"].startswith("application/vnd.oai.openapi")
    assert as_json.json()["paths"]["/api/campaigns/"]
    assert json_again.json() == as_json.json()
    assert "/api/schema/" not in as_json.json()["paths"]  # the document leaves itself out


def test_the_first_page_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Unlimit3d 8" in response.content
