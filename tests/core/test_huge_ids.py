"""An id beyond what the database stores names nothing: 404 on pages and API, never 500."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

HUGE = 10**30


@pytest.fixture
def started(uma, alice, bob, make_campaign):
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    return campaign


def test_pages_answer_404_for_an_out_of_range_id(client, alice, started):
    client.force_login(alice)
    for url in (f"/campaigns/{HUGE}/", f"/campaigns/{started.pk}/territories/{HUGE}/",
                f"/campaigns/{started.pk}/battles/{HUGE}/"):
        assert client.get(url).status_code == 404, url


def test_the_api_answers_404_for_an_out_of_range_id(client_for, alice, started):
    api = client_for(alice)
    response = api.get(f"/api/campaigns/{started.pk}/territories/{HUGE}/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
