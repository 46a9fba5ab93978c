"""Issue 30.1 pages (R-SEC-3): the umpire console lists the imported seats waiting for
their players with their codes; `/campaigns/<id>/claim/` takes a code and ends on the
campaign's dashboard; a wrong code is a form error that changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.models import Player
from campaign.services.campaigns import campaign_join
from campaign.services.imports import import_campaign
from campaign.services.setup import campaign_start

#: How the console names a seat, with a typographic apostrophe (U+2019).
SEAT = "\u2019s seat"

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported(make_campaign, uma, alice, bob, charlie, client_for):
    campaign = make_campaign(uma, map_spec={"generator": "hex", "territories": 6, "seed": 4},
                             seed=4)
    for user in (alice, bob):
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    doc = client_for(uma).get(f"/api/campaigns/{campaign.pk}/export/").json()
    return import_campaign(document=doc, umpire=charlie)


def _page(user) -> Client:
    page = Client()
    page.force_login(user)
    return page


def test_the_umpire_console_lists_the_waiting_seats_and_their_codes(imported, charlie,
                                                                    alice):
    html = _page(charlie).get(f"/campaigns/{imported.pk}/umpire/seats/").content.decode()
    assert "Seats waiting for their players" in html
    for seat in Player.objects.filter(campaign=imported):
        assert seat.claim_code in html
        assert f"{seat.user.first_name}{SEAT}" in html
    assert f"/campaigns/{imported.pk}/claim/" in html
    dashboard = _page(charlie).get(f"/campaigns/{imported.pk}/").content.decode()
    assert "2 imported seats wait for a player" in dashboard


def test_a_player_claims_a_seat_on_the_page_and_lands_on_the_dashboard(imported, alice):
    seat = Player.objects.filter(campaign=imported, user__first_name="alice").get()
    page = _page(alice)
    form = page.get(f"/campaigns/{imported.pk}/claim/?code={seat.claim_code}")
    assert form.status_code == 200
    html = form.content.decode()
    assert imported.name not in html  # nothing told before the claim
    assert f'value="{seat.claim_code}"' in html
    wrong = page.post(f"/campaigns/{imported.pk}/claim/", {"code": "nope"})
    assert wrong.status_code == 404
    assert "No seat of this campaign waits for that code" in wrong.content.decode()
    seat.refresh_from_db()
    assert seat.claim_code and seat.user.first_name == "alice" and seat.user != alice
    empty = page.post(f"/campaigns/{imported.pk}/claim/", {"code": ""})
    assert empty.status_code == 400
    done = page.post(f"/campaigns/{imported.pk}/claim/", {"code": seat.claim_code},
                     follow=True)
    assert done.redirect_chain[-1][0] == f"/campaigns/{imported.pk}/"
    assert "The seat is yours" in done.content.decode()
    seat.refresh_from_db()
    assert seat.user == alice and seat.claim_code == ""
    # the console no longer lists it
    html = _page(imported.umpire).get(f"/campaigns/{imported.pk}/umpire/seats/").content.decode()
    assert f"alice{SEAT}" not in html and f"bob{SEAT}" in html
