"""The meta-map and territory pages: what each role sees, building, upgrading,
activation with the live energy budget, warehouse contents."""

from __future__ import annotations

import pytest

from campaign.models import Campaign
from economy.models import Building
from territories.models import Territory

pytestmark = pytest.mark.django_db


def _home(campaign, user) -> Territory:
    return Territory.objects.get(campaign=campaign, owner__user=user)


def _set_phase(campaign, phase: str) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(phase=phase)


def test_meta_map_inlines_the_svg_with_links_to_territories(web_client, running_campaign,
                                                             alice) -> None:
    page = web_client(alice).get(f"/campaigns/{running_campaign.pk}/map/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "<svg" in text
    home = _home(running_campaign, alice)
    assert f"/campaigns/{running_campaign.pk}/territories/{home.pk}/" in text
    assert "(you)" in text


def test_own_territory_shows_buildings_and_build_form(web_client, running_campaign,
                                                      alice) -> None:
    home = _home(running_campaign, alice)
    page = web_client(alice).get(f"/campaigns/{running_campaign.pk}/territories/{home.pk}/")
    text = page.content.decode()
    assert "Power plant" in text and "Build</button>" in text
    assert "Warehouses" in text


def test_other_players_buildings_are_hidden(web_client, running_campaign, alice, bob
                                            ) -> None:
    theirs = _home(running_campaign, bob)
    page = web_client(alice).get(f"/campaigns/{running_campaign.pk}/territories/{theirs.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "known to the owner only" in text
    assert "Build</button>" not in text and "Warehouses" not in text


def test_unknown_territory_is_a_404(web_client, running_campaign, alice) -> None:
    assert web_client(alice).get(
        f"/campaigns/{running_campaign.pk}/territories/999999/").status_code == 404


def test_build_in_the_commercial_phase_spends_credits(web_client, running_campaign,
                                                      alice) -> None:
    home = _home(running_campaign, alice)
    taken = set(Building.objects.filter(territory=home).values_list("x", "y"))
    x, y = next((x, y) for x in range(16) for y in range(16) if (x, y) not in taken)
    client = web_client(alice)
    response = client.post(f"/campaigns/{running_campaign.pk}/territories/{home.pk}/build/",
                           {"kind": "warehouse", "x": x, "y": y}, follow=True)
    assert Building.objects.filter(territory=home, kind="warehouse", x=x, y=y).exists()
    assert b"built at" in response.content


def test_a_refused_build_shows_the_reason(web_client, running_campaign, alice) -> None:
    home = _home(running_campaign, alice)
    b = Building.objects.filter(territory=home).first()
    response = web_client(alice).post(
        f"/campaigns/{running_campaign.pk}/territories/{home.pk}/build/",
        {"kind": "warehouse", "x": b.x, "y": b.y}, follow=True)
    assert response.status_code == 200
    assert b'class="error"' in response.content


def test_energy_preview_and_activation(web_client, running_campaign, alice) -> None:
    _set_phase(running_campaign, "activity")
    home = _home(running_campaign, alice)
    consumers = [b.pk for b in Building.objects.filter(territory=home)
                 if b.kind != "power_plant"]
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
    preview = client.post(base + "energy/", {"active": consumers}, HTTP_HX_REQUEST="true")
    assert preview.status_code == 200 and b"used of" in preview.content
    assert b"<html" not in preview.content
    client.post(base + "activate/", {"active": consumers[:1]})
    assert set(Building.objects.filter(territory=home, active=True)
               .values_list("pk", flat=True)) == set(consumers[:1])


def test_bob_cannot_build_on_alices_territory(web_client, running_campaign, alice, bob
                                              ) -> None:
    home = _home(running_campaign, alice)
    before = Building.objects.filter(territory=home).count()
    web_client(bob).post(f"/campaigns/{running_campaign.pk}/territories/{home.pk}/build/",
                         {"kind": "warehouse", "x": 15, "y": 15})
    assert Building.objects.filter(territory=home).count() == before
