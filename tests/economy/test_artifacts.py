"""Artifacts: "You can either sell it for 200 credits or house it in a laboratory,
allowing it to produce twice as many research points / turn"; xeno craft: "all your
laboratories produce twice as many research points". R-ECO-19."""

from __future__ import annotations

from campaign.dice import forced_dice
from campaign.models import Event
from economy.models import Artifact, LedgerEntry
from economy.services.production import production_run
from territories.services.exploration import explore
from tests.economy.conftest import snapshot


def url(world, territory, action):
    return f"/api/campaigns/{world.campaign.pk}/artifacts/{territory.pk}/{action}/"


def labs(world, territory, n=1):
    """n active laboratories, each with its own power plant (a laboratory needs 60)."""
    made = []
    world.build(territory, "power_plant")
    for _ in range(n):
        world.build(territory, "power_plant")
        made.append(world.build(territory, "laboratory", active=True))
    return made


def research(world, player):
    production_run(campaign=world.campaign)
    player.refresh_from_db()
    return player.research_points


def test_an_exploration_that_finds_an_artifact_makes_one(world):
    with forced_dice([4, 3, 8, 7]):
        explore(territory=world.gamma, player=world.alice)
    artifact = Artifact.objects.get()
    assert (artifact.territory_id, artifact.status) == (world.gamma.pk, "kept")


def test_selling_pays_200_once_and_the_laboratory_no_longer_doubles(world, api):
    (_lab,) = labs(world, world.alpha)
    world.explore(world.alpha, "water", discovery="artifact")
    assert research(world, world.alice) == 2  # 1 point doubled (first lab of its territory)
    r = api["alice"].post(url(world, world.alpha, "sell"))
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "sold" and r.json()["credits"] == 1200
    entry = LedgerEntry.objects.get(reason="artifact_sale")
    assert (entry.amount, entry.player_id) == (200, world.alice.pk)
    before = snapshot()
    r = api["alice"].post(url(world, world.alpha, "sell"))
    assert r.status_code == 409 and r.json()["code"] == "artifact_sold"
    assert snapshot() == before
    assert research(world, world.alice) == 2 + 1  # no longer doubled


def test_selling_only_in_the_commercial_phase_and_only_ones_own(world, api):
    world.explore(world.alpha, "water", discovery="artifact")
    before = snapshot()
    r = api["bob"].post(url(world, world.alpha, "sell"))
    assert r.status_code == 404
    r = api["alice"].post(url(world, world.beta, "sell"))
    assert r.status_code == 404
    world.phase("activity")
    r = api["alice"].post(url(world, world.alpha, "sell"))
    assert r.status_code == 409 and r.json()["code"] == "wrong_phase"
    assert snapshot() == before


def test_housing_it_in_a_chosen_laboratory_doubles_that_one(world, api):
    """Two laboratories, one level-3 scientist: the artifact housed in the second lab (1
    point) doubles it to 2 instead of the scientist's lab."""
    _first, second = labs(world, world.alpha, 2)
    world.operative(world.alice, world.alpha, "scientist", level=3)
    world.operative(world.alice, world.alpha, "scientist", level=2)
    world.explore(world.alpha, "water", discovery="artifact")
    assert research(world, world.alice) == 3 * 2 + 2  # default: first lab
    r = api["alice"].post(url(world, world.alpha, "house"), {"laboratory": second.pk},
                          format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["laboratory"] == second.pk
    assert research(world, world.alice) == 8 + 3 + 2 * 2
    ev = Event.objects.filter(kind="artifact_housed").get()
    assert ev.data["laboratory"] == second.pk


def test_housing_refusals_change_nothing(world, api):
    (lab,) = labs(world, world.alpha)
    (bobs_lab,) = labs(world, world.beta)
    plant = world.build(world.alpha, "power_plant")
    world.explore(world.alpha, "water", discovery="artifact")
    world.explore(world.beta, "water", discovery="artifact")
    before = snapshot()
    for body, code in [({"laboratory": bobs_lab.pk}, 404), ({"laboratory": plant.pk}, 400),
                       ({"laboratory": "x"}, 400), ({}, 400)]:
        r = api["alice"].post(url(world, world.alpha, "house"), body, format="json")
        assert r.status_code == code, (body, r.json())
    # one artifact per laboratory
    api["alice"].post(url(world, world.alpha, "house"), {"laboratory": lab.pk}, format="json")
    world.beta.owner = world.alice
    world.beta.save()
    before = snapshot()
    r = api["alice"].post(url(world, world.beta, "house"), {"laboratory": lab.pk},
                          format="json")
    assert r.status_code == 409 and r.json()["code"] == "laboratory_occupied"
    assert snapshot() == before


def test_a_xeno_craft_doubles_every_laboratory_of_its_owner(world):
    """Xeno craft found on Alpha: Alice's labs on Alpha and Gamma double; Bob's do not."""
    world.gamma.owner = world.alice
    world.gamma.save()
    labs(world, world.alpha)
    labs(world, world.gamma)
    labs(world, world.beta)
    world.explore(world.alpha, "water", discovery="xeno_craft")
    assert research(world, world.alice) == 4
    world.bob.refresh_from_db()
    assert world.bob.research_points == 1


def test_the_list_shows_the_callers_artifacts(world, api):
    world.explore(world.alpha, "water", discovery="artifact")
    r = api["alice"].get(f"/api/campaigns/{world.campaign.pk}/artifacts/")
    assert r.status_code == 200 and [a["territory"] for a in r.json()] == [world.alpha.pk]
    assert api["bob"].get(f"/api/campaigns/{world.campaign.pk}/artifacts/").json() == []
