"""Pages of the capabilities that had an API only: right of passage (economy page,
Diplomacy section)."""

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
    client = web_client(alice)
    with django_assert_max_num_queries(20):
        assert client.get(f"/campaigns/{running_campaign.pk}/economy/").status_code == 200
