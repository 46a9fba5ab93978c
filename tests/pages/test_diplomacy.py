"""Pages of the capabilities that had an API only: right of passage (economy page,
Diplomacy section) and xenotechnologic artifacts (sell, house)."""

from __future__ import annotations

import pytest

from territories.models import Passage, Territory

pytestmark = pytest.mark.django_db


def _home(campaign, user) -> Territory:
    return Territory.objects.get(campaign=campaign, owner__user=user)


def test_grant_and_revoke_passage_from_the_economy_page(web_client, running_campaign, alice,
                                                        bob) -> None:
    """Seed, "Move Phase": "A player can grant passage over his territories to another"."""
    base = f"/campaigns/{running_campaign.pk}"
    home = _home(running_campaign, alice)
    bob_seat = running_campaign.players.get(user=bob)
    client = web_client(alice)
    page = client.post(base + "/passages/grant/", {"grantee": bob_seat.pk,
                                                  "territories": [home.pk]}, follow=True)
    assert b"Passage granted to bob" in page.content
    assert Passage.objects.filter(grantee=bob_seat, territory=home).exists()
    received = web_client(bob).get(base + "/economy/")
    assert f"{home.name} from alice".encode() in received.content
    client.post(base + "/passages/revoke/", {"grantee": bob_seat.pk, "territory": home.pk})
    assert not Passage.objects.exists()


def test_passage_over_someone_elses_territory_is_refused(web_client, running_campaign, alice,
                                                         bob) -> None:
    base = f"/campaigns/{running_campaign.pk}"
    bob_seat = running_campaign.players.get(user=bob)
    theirs = _home(running_campaign, bob)
    page = web_client(alice).post(base + "/passages/grant/", {
        "grantee": bob_seat.pk, "territories": [theirs.pk]}, follow=True)
    assert page.status_code == 200
    assert b'class="error"' in page.content and b"not yours" in page.content
    assert not Passage.objects.exists()


def test_economy_page_with_passages_has_bounded_queries(web_client, running_campaign, alice,
                                                        bob, django_assert_max_num_queries
                                                        ) -> None:
    from territories.services.passages import grant_passage

    a = running_campaign.players.get(user=alice)
    b = running_campaign.players.get(user=bob)
    a.campaign = b.campaign = running_campaign
    grant_passage(grantor=a, grantee=b, territories=[_home(running_campaign, alice)])
    grant_passage(grantor=b, grantee=a, territories=[_home(running_campaign, bob)])
    _artifact_on(_home(running_campaign, alice))
    client = web_client(alice)
    with django_assert_max_num_queries(24):
        assert client.get(f"/campaigns/{running_campaign.pk}/economy/").status_code == 200


# --------------------------------------------------------------------------- artifacts


def _artifact_on(territory: Territory):
    """An exploration of `territory` that found an artifact (exploration table, 7)."""
    from territories.models import Exploration

    updated = Exploration.objects.filter(territory=territory).update(discovery="artifact")
    if not updated:
        Exploration.objects.create(
            campaign=territory.campaign, territory=territory, player=territory.owner, turn=1,
            active_die=4, passive_die=3, nemesis_die=4, resource="minerals",
            units_per_shaft=3, discovery="artifact")


def test_sell_an_artifact_for_200_credits(web_client, running_campaign, alice) -> None:
    """Exploration table, 7: "You can either sell it for 200 credits or house it in a
    laboratory"."""
    from economy.models import Artifact

    home = _home(running_campaign, alice)
    _artifact_on(home)
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}"
    page = client.get(base + "/economy/")
    assert b"Kept, not yet housed" in page.content and b"Sell for 200 SC" in page.content
    seat = running_campaign.players.get(user=alice)
    before = seat.credits
    done = client.post(base + f"/artifacts/{home.pk}/sell/", follow=True)
    assert b"Artifact sold" in done.content
    seat.refresh_from_db()
    assert seat.credits == before + 200
    assert Artifact.objects.get(territory=home).status == "sold"


def test_housing_an_artifact_in_a_non_laboratory_is_refused(web_client, running_campaign,
                                                            alice) -> None:
    from economy.models import Artifact, Building

    home = _home(running_campaign, alice)
    _artifact_on(home)
    not_a_lab = Building.objects.filter(territory=home).first()
    page = web_client(alice).post(
        f"/campaigns/{running_campaign.pk}/artifacts/{home.pk}/house/",
        {"laboratory": not_a_lab.pk}, follow=True)
    assert b'class="error"' in page.content and b"laboratory" in page.content
    assert Artifact.objects.get(territory=home).laboratory_id is None


def test_house_an_artifact_in_a_laboratory(web_client, running_campaign, alice) -> None:
    from economy.models import Artifact, Building

    home = _home(running_campaign, alice)
    _artifact_on(home)
    taken = set(Building.objects.filter(territory=home).values_list("x", "y"))
    x, y = next((x, y) for x in range(16) for y in range(16) if (x, y) not in taken)
    lab = Building.objects.create(territory=home, kind="laboratory", x=x, y=y, hit_points=10)
    client = web_client(alice)
    done = client.post(f"/campaigns/{running_campaign.pk}/artifacts/{home.pk}/house/",
                       {"laboratory": lab.pk}, follow=True)
    assert b"Artifact housed" in done.content and b"Housed in the laboratory" in done.content
    assert Artifact.objects.get(territory=home).laboratory_id == lab.pk
