"""Issue 19.8: the OpenAPI schema matches the responses. schemathesis generates requests
for every operation of `/api/schema/` (a few examples each, a fixed seed), sends them to
the real WSGI application as a player of a started campaign, and checks: no 5xx, every
status documented, every body matching its documented schema and content type."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.django_db

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@pytest.fixture
def seat(make_campaign, uma, alice, bob):
    """alice's token in a started campaign (its id replaces generated campaign ids)."""
    from rest_framework.authtoken.models import Token

    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    return campaign.pk, Token.objects.get_or_create(user=alice)[0].key


@pytest.fixture
def keep_the_test_connection():
    """The WSGI app closes "old" connections after each request; inside the test's
    transaction that would close the test database's connection (PostgreSQL), so do as
    Django's own test client does and leave it open."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_every_operation_answers_as_its_schema_says(seat, keep_the_test_connection):
    from django.core.cache import cache
    from django.core.wsgi import get_wsgi_application

    campaign_id, token = seat
    api = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    failures: list[str] = []
    operations = 0
    for result in api.get_all_operations():
        operation = result.ok()
        operations += 1

        @given(case=operation.as_strategy())
        @settings(max_examples=4, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def answers_as_documented(case) -> None:
            cache.clear()  # throttles are tested elsewhere; here every request is answered
            if case.path_parameters and "campaign_id" in case.path_parameters:
                case.path_parameters["campaign_id"] = campaign_id
            case.call_and_validate(headers={"Authorization": f"Token {token}"},
                                   checks=CHECKS)

        try:
            answers_as_documented()
        except BaseException as exc:
            failures.append(f"{operation.method.upper()} {operation.path}: "
                            f"{str(exc).strip()[:600]}")
    assert operations >= 50
    assert not failures, "\n\n".join(failures)
