"""Exploration, checked exhaustively against the seed's table ("When you take control of
a territory no-one owned before, you make an exploration roll to determine the
resources present"). Dice are scripted with `forced_dice`; campaigns use seed 7."""

from __future__ import annotations

import pytest

from campaign.dice import ForcedDice, campaign_dice, forced_dice
from campaign.models import Event, Player
from economy.models import LedgerEntry
from territories.models import Exploration, Territory
from territories.services.exploration import explore

pytestmark = pytest.mark.django_db

EIGHT = {"nodes": [f"T{i}" for i in range(8)],
         "edges": [[f"T{i}", f"T{i + 1}"] for i in range(7)]}


@pytest.fixture
def world(make_campaign, uma, alice, bob):
    """A running campaign (seed 7) with alice and bob; returns (campaign, alice's player,
    a list of territories nobody owns)."""
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma, map_spec=EIGHT, seed=7)
    campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code)
    campaign_join(campaign_id=campaign.pk, user=bob, invite=campaign.invite_code)
    with forced_dice([1, 1, 1] * 2):  # plain water, no discovery, for both starts
        campaign_start(campaign_id=campaign.pk)
    campaign.refresh_from_db()
    player = Player.objects.select_related("campaign").get(campaign=campaign, user=alice)
    free = list(Territory.objects.filter(campaign=campaign, owner__isnull=True))
    return campaign, player, free


def take(player, territory, faces):
    territory.owner = player
    territory.save(update_fields=["owner"])
    return explore(territory=territory, player=player, dice=ForcedDice(faces))


# Seed table: 3-8 Water, 9-10 Precious gas, 11-12 Common Gas, 13-14 Minerals,
# 15-16 Common metal, 17-18 Precious metal, 19-24 Unique Material.
EXPECTED_RESOURCE = {**dict.fromkeys(range(3, 9), "water"), 9: "precious_gas",
                     10: "precious_gas", 11: "common_gas", 12: "common_gas", 13: "minerals",
                     14: "minerals", 15: "common_metal", 16: "common_metal",
                     17: "precious_metal", 18: "precious_metal",
                     **dict.fromkeys(range(19, 25), "unique_material")}


def faces_for_sum(total: int) -> list[int]:
    """Three faces summing to `total`; a nemesis die of 3..7 where the sum allows (3, 4
    need a nemesis of 1-2; 24 needs 8,8,8 and then a discovery roll)."""
    if total <= 4:
        return [1, 1, total - 2]
    if total == 24:
        return [8, 8, 8, 1, 1]
    nemesis = max(3, min(7, total - 16))
    rest = total - nemesis
    active = min(8, rest - 1)
    passive = rest - active
    assert 1 <= passive <= 8 and 3 <= nemesis <= 7
    return [active, passive, nemesis]


@pytest.mark.parametrize("total", range(3, 25))
def test_every_sum_picks_the_seed_resource(world, total):
    """Seed exploration table, "Score / Resource type" (every sum 3-24)."""
    _, player, free = world
    exploration = take(player, free[0], faces_for_sum(total))
    assert exploration.resource == EXPECTED_RESOURCE[total]
    assert exploration.active_die + exploration.passive_die + exploration.nemesis_die == total


@pytest.mark.parametrize(("face", "units"),
                         [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4), (7, 4), (8, 5)])
def test_active_die_sets_units_per_shaft(world, face, units):
    """Seed: "The active die states how many resources units are extracted by each mine
    shaft each Strategic turn : 1 -> 1, 2-3 -> 2, 4-5 -> 3, 6-7 -> 4, 8 -> 5"."""
    _, player, free = world
    assert take(player, free[0], [face, 4, 4]).units_per_shaft == units


@pytest.mark.parametrize("face", range(1, 9))
def test_passive_die_of_seven_or_more_is_pure(world, face):
    """Seed: "Passive die : on 7+, the resources are exceptionally pure"."""
    _, player, free = world
    assert take(player, free[0], [4, face, 4]).pure is (face >= 7)


@pytest.mark.parametrize("face", range(1, 8))
def test_nemesis_die_of_two_or_less_is_unstable(world, face):
    """Seed: "Nemesis die : 2- : the ground is unstable"; 3-7 nothing happens."""
    _, player, free = world
    exploration = take(player, free[0], [4, 4, face])
    assert exploration.unstable is (face <= 2)
    assert exploration.discovery == "" and exploration.discovery_die is None


@pytest.mark.parametrize(("face", "kind", "multiplier"), [
    (1, "shipwreck", 10), (2, "shipwreck", 10), (3, "shipwreck", 10), (4, "shipwreck", 10),
    (5, "xenotech", 20), (6, "xenotech", 20), (7, "artifact", None), (8, "xeno_craft", None),
])
def test_nemesis_eight_rolls_a_discovery(world, face, kind, multiplier):
    """Seed: "8+ : you find something unexpected, roll a d8 : 1-4 : A shipwreck ... worth
    1d8x10 SC; 5-6 : Xenotechnologic elements, worth d8x20 SC; 7 : Xenotechnologic
    artifact; 8 : xeno craft"."""
    _, player, free = world
    before = Player.objects.get(pk=player.pk).credits
    faces = [4, 4, 8, face] + ([3] if multiplier else [])
    exploration = take(player, free[0], faces)
    assert exploration.discovery == kind
    assert exploration.discovery_die == face
    assert not exploration.unstable
    after = Player.objects.get(pk=player.pk).credits
    if multiplier:
        assert exploration.value_die == 3
        assert exploration.credits_awarded == 3 * multiplier
        assert after - before == 3 * multiplier
        entry = LedgerEntry.objects.get(player=player, reason="discovery")
        assert entry.amount == 3 * multiplier and entry.related_id == exploration.pk
    else:
        assert exploration.value_die is None and exploration.credits_awarded == 0
        assert after == before


@pytest.mark.parametrize("value", range(1, 9))
def test_every_value_die_of_a_shipwreck(world, value):
    """Seed: "A shipwreck, where you can salvage hardware worth 1d8x10 SC"."""
    _, player, free = world
    assert take(player, free[0], [4, 4, 8, 1, value]).credits_awarded == value * 10


def test_second_xeno_craft_becomes_an_artifact(world):
    """Seed: "There can only be one craft in a campaign ... a second becomes a simple
    artifact" (issue 3)."""
    campaign, player, free = world
    first = take(player, free[0], [4, 4, 8, 8])
    second = take(player, free[1], [4, 4, 8, 8])
    assert first.discovery == "xeno_craft"
    assert second.discovery == "artifact" and second.discovery_die == 8
    event = Event.objects.filter(kind="territory_explored").last()
    assert event.data["xeno_craft_became_artifact"] is True
    assert Exploration.objects.filter(campaign=campaign, discovery="xeno_craft").count() == 1


def test_the_database_allows_one_xeno_craft(world):
    from django.db import IntegrityError, transaction

    campaign, player, free = world
    take(player, free[0], [4, 4, 8, 8])
    with pytest.raises(IntegrityError), transaction.atomic():
        Exploration.objects.create(campaign=campaign, territory=free[1], player=player, turn=1,
                                   active_die=1, passive_die=1, nemesis_die=8,
                                   resource="water", units_per_shaft=1,
                                   discovery="xeno_craft")


def test_a_territory_is_explored_once(world):
    """Seed: only a territory "no-one owned before" is explored."""
    _, player, free = world
    first = take(player, free[0], [4, 4, 4])
    again = explore(territory=free[0], player=player, dice=ForcedDice([]))
    assert again.pk == first.pk


def test_exploration_is_private_to_the_owner(world, client_for, alice, bob, uma):
    campaign, player, free = world
    take(player, free[0], [2, 7, 1])
    event = Event.objects.filter(kind="territory_explored").last()
    assert event.visibility == "private"
    assert list(event.viewers.all()) == [player]
    assert event.data["pure"] and event.data["unstable"]
    assert event.data["discoveries"] == ["pure_deposit"]
    # Through the API: alice sees her deposit, bob does not.
    url = f"/api/campaigns/{campaign.pk}/territories/{free[0].pk}/"
    assert client_for(alice).get(url).json()["deposit"]["resource"] == "precious_gas"  # 2+7+1
    assert client_for(bob).get(url).json()["deposit"] is None
    assert client_for(uma).get(url).json()["deposit"]["pure"] is True


def test_deposits_public_option_shows_deposits_to_all(make_campaign, uma, alice, bob,
                                                      client_for):
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma, map_spec=EIGHT, options={"deposits_public": True})
    campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code)
    campaign_join(campaign_id=campaign.pk, user=bob, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    assert set(Event.objects.filter(kind="territory_explored")
               .values_list("visibility", flat=True)) == {"public"}
    alice_home = Territory.objects.get(campaign=campaign, owner__user=alice)
    body = client_for(bob).get(f"/api/campaigns/{campaign.pk}/territories/{alice_home.pk}/")
    assert body.json()["deposit"] is not None
    assert "buildings" not in body.json()


def test_campaign_dice_are_seeded_by_campaign_and_purpose(world):
    campaign, _, _ = world
    a = [campaign_dice(campaign, "explore:T1").d8() for _ in range(1)]
    rolls = lambda purpose: [campaign_dice(campaign, purpose).roll_3d8() for _ in range(3)]  # noqa: E731
    assert rolls("explore:T1") == rolls("explore:T1")
    assert a
    d1, d2 = campaign_dice(campaign, "x"), campaign_dice(campaign, "y")
    assert [d1.d8() for _ in range(20)] != [d2.d8() for _ in range(20)]
    with forced_dice([5, 6, 7]) as forced:
        assert campaign_dice(campaign, "anything") is forced
        assert campaign_dice(campaign, "other").roll_3d8().total == 18
    assert campaign_dice(campaign, "anything") is not forced


def test_starting_exploration_uses_the_campaign_dice(make_campaign, uma, alice, bob):
    """The starting territory gets its exploration roll (issue 3, "Set-up")."""
    from campaign.services.campaigns import campaign_join
    from campaign.services.setup import campaign_start

    campaign = make_campaign(uma, map_spec=EIGHT)
    campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code)
    campaign_join(campaign_id=campaign.pk, user=bob, invite=campaign.invite_code)
    with forced_dice([8, 8, 8, 5, 2, 3, 2, 3]):
        campaign_start(campaign_id=campaign.pk)
    explorations = list(Exploration.objects.filter(campaign=campaign).order_by("pk"))
    assert explorations[0].discovery == "xenotech" and explorations[0].credits_awarded == 40
    assert explorations[0].resource == "unique_material"
    assert explorations[1].resource == "water" and explorations[1].units_per_shaft == 2
    winner = explorations[0].player
    winner.refresh_from_db()
    assert winner.credits == 1040
