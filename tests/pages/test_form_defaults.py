"""Issue 26 item 7: the forms of the player pages preselect only what the service
accepts, or say in a sentence why there is no legal choice. Each test submits the form
as its defaults stand (what a person pressing the button at once sends) and checks the
service took it."""

from __future__ import annotations

import re

import pytest

from economy.models import Building, Unit
from territories.models import Territory

pytestmark = pytest.mark.django_db


def _home(campaign, user) -> Territory:
    return Territory.objects.exclude(name="Aaa outpost").get(campaign=campaign,
                                                             owner__user=user)


def _default(html: str, select_id: str) -> str | None:
    """The value a browser sends for the select: its selected option, else its first
    option that is not disabled; None when the select is not on the page."""
    found = re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', html, re.S)
    if found is None:
        return None
    options = re.findall(r"<option([^>]*)>", found.group(1))
    chosen = [o for o in options if " selected" in o] or \
        [o for o in options if " disabled" not in o]
    value = re.search(r'value="([^"]*)"', chosen[0]) if chosen else None
    return value.group(1) if value else None


@pytest.fixture
def outpost(running_campaign, alice):
    """A second territory of alice's, first by name, with no building at all."""
    t = Territory.objects.filter(campaign=running_campaign, owner__isnull=True).first()
    Territory.objects.filter(pk=t.pk).update(owner=_home(running_campaign, alice).owner,
                                             name="Aaa outpost")
    t.refresh_from_db()
    return t


def test_the_purchase_forms_offer_only_territories_with_a_landing_pad(
        web_client, running_campaign, alice, outpost) -> None:
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}"
    html = client.get(base + "/economy/").content.decode()
    home = _home(running_campaign, alice)
    for prefix in ("v", "o", "w", "e"):
        assert _default(html, f"{prefix}-territory") == str(home.pk), prefix
        assert f'<option value="{outpost.pk}"' not in re.search(
            rf'id="{prefix}-territory"[^>]*>(.*?)</select>', html, re.S).group(1)
    model = _default(html, "v-model")
    client.post(base + "/economy/buy/", {"kind": "vehicle", "model": model,
                                         "territory": _default(html, "v-territory")})
    assert Unit.objects.filter(player__user=alice, territory=home).count() == 1


def test_without_a_landing_pad_the_purchases_say_why_instead_of_a_form(
        web_client, running_campaign, alice) -> None:
    home = _home(running_campaign, alice)
    Building.objects.filter(territory=home, kind="landing_pad").update(hit_points=0)
    html = web_client(alice).get(f"/campaigns/{running_campaign.pk}/economy/"
                                 ).content.decode()
    assert "You need a landing pad to receive purchases: build one at one of your " \
           "territories" in html
    assert f'href="/campaigns/{running_campaign.pk}/territories/{home.pk}/"' in html
    assert _default(html, "v-territory") is None and "Buy vehicle" not in html


def test_without_a_working_landing_pad_and_radar_shipping_says_why(
        web_client, running_campaign, alice) -> None:
    home = _home(running_campaign, alice)
    url = f"/campaigns/{running_campaign.pk}/economy/"
    assert _default(web_client(alice).get(url).content.decode(), "s-territory") == \
        str(home.pk)
    Building.objects.filter(territory=home, kind="radar").update(active=False)
    html = web_client(alice).get(url).content.decode()
    assert "You need an active landing pad and an active radar on the same territory " \
           "to ship" in html
    assert _default(html, "s-territory") is None


def test_the_build_form_preselects_a_building_the_territory_can_take(
        web_client, running_campaign, alice, outpost) -> None:
    """On a bare territory only a station can go up (seed, "Buildings": every other
    building needs one, directly or not); the first kind in the list, the bunker, needs
    a command center and is offered disabled, with the reason."""
    client = web_client(alice)
    url = f"/campaigns/{running_campaign.pk}/territories/{outpost.pk}/"
    html = client.get(url).content.decode()
    assert _default(html, "kind") == "station"
    assert "needs a Command center here first" in html
    client.post(url + "build/", {"kind": _default(html, "kind"), "x": 3, "y": 3})
    assert Building.objects.filter(territory=outpost, kind="station").count() == 1


def test_the_build_form_preselects_what_the_player_can_afford_or_says_why_not(
        web_client, running_campaign, alice) -> None:
    from campaign.models import Player

    home = _home(running_campaign, alice)
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    Player.objects.filter(pk=seat.pk).update(credits=15)
    client = web_client(alice)
    url = f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
    html = client.get(url).content.decode()
    assert _default(html, "kind") == "warehouse" and "costs more than your 15 SC" in html
    Player.objects.filter(pk=seat.pk).update(credits=5)
    html = client.get(url).content.decode()
    assert _default(html, "kind") is None
    assert "every building costs more than your 5 SC" in html


def test_the_upgrade_forms_offer_what_the_player_can_pay_for_or_say_why_not(
        web_client, running_campaign, alice) -> None:
    from campaign.models import Player

    home = _home(running_campaign, alice)
    client = web_client(alice)
    url = f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
    upgradable = next(b for b in Building.objects.filter(territory=home).order_by("pk")
                      if f'id="up-{b.pk}"' in client.get(url).content.decode())
    Player.objects.filter(campaign=running_campaign, user=alice).update(credits=0)
    html = client.get(url).content.decode()
    assert f'id="up-{upgradable.pk}"' not in html
    assert "cost more than your 0 SC" in html


def test_an_upgrade_once_per_territory_is_not_offered_twice(
        web_client, running_campaign, alice) -> None:
    """Seed, "Power plant": enhanced generators, "Only one per territory"."""
    home = _home(running_campaign, alice)
    first = Building.objects.get(territory=home, kind="power_plant")
    second = Building.objects.create(territory=home, kind="power_plant", x=14, y=14,
                                     hit_points=first.hit_points)
    client = web_client(alice)
    url = f"/campaigns/{running_campaign.pk}/territories/{home.pk}/"
    assert _default(client.get(url).content.decode(), f"up-{second.pk}") == \
        "enhanced_generators"
    Building.objects.filter(pk=first.pk).update(upgrades=["enhanced_generators"])
    html = client.get(url).content.decode()
    assert _default(html, f"up-{second.pk}") == "extended_power_grid"
    client.post(url + "upgrade/", {"building": second.pk,
                                   "upgrade": _default(html, f"up-{second.pk}")})
    second.refresh_from_db()
    assert second.upgrades == ["extended_power_grid"]
