"""Issue 26, item 4: units, pilots and weapons have names. A readable default at
purchase (each ruleset's lists, drawn from a hash, never from the dice), renamed by their
owner in any phase (API and forces page), shown by name wherever a person reads them."""

from __future__ import annotations

import importlib
import random
import re

import pytest
from django.test import Client
from django.utils.html import escape

from battles.rulesets.registry import find_ruleset
from campaign.models import Event
from campaign.rules import names
from economy.labels import unit_label, weapon_label
from economy.models import Building, Operative, Trade, Unit, Weapon
from economy.services.names import default_pilot_name, default_unit_name
from tests.economy.conftest import snapshot

RULESETS = ["unlimit3d8", "onepage", "battledice", "thirtymm", "mobius"]


def buy(api, world, item, who="alice"):
    return api[who].post(f"/api/campaigns/{world.campaign.pk}/purchases/",
                         {"territory": world.alpha.pk, "item": item}, format="json")


def rename(api, world, what, pk, body, who="alice"):
    return api[who].patch(f"/api/campaigns/{world.campaign.pk}/{what}/{pk}/", body,
                          format="json")


@pytest.fixture
def port(world):
    Building.objects.filter(territory=world.alpha, kind__in=["radar", "landing_pad"]).update(
        active=True)
    world.build(world.alpha, "warehouse")
    return world


# ------------------------------------------------------------------- default names


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ruleset_names_units_and_pilots_from_its_own_lists(world, ruleset):
    world.campaign.options = {**world.campaign.options, "ruleset": ruleset}
    world.campaign.save(update_fields=["options"])
    world.alice.campaign = world.campaign
    lists = find_ruleset(ruleset).name_lists()
    assert lists["nicknames"] and lists["first"] and lists["last"]

    unit = default_unit_name(player=world.alice, model="golem")
    model, _, nickname = unit.partition(" '")
    assert model == "Golem" and nickname.rstrip("'") in lists["nicknames"], unit
    pilot = default_pilot_name(player=world.alice)
    assert any(pilot.startswith(f"{r} ") for r in lists["ranks"]), pilot
    assert any(f" {f} " in f" {pilot} " for f in lists["first"]), pilot
    assert any(pilot.endswith(f" {x}") for x in lists["last"]), pilot
    assert len(pilot.split()) >= 3  # a rank and a person's name


def test_the_five_rulesets_give_different_lists():
    nicknames = {r: tuple(find_ruleset(r).name_lists()["nicknames"]) for r in RULESETS}
    assert len(set(nicknames.values())) == len(RULESETS)


def test_a_default_name_is_deterministic_and_rolls_no_dice():
    """Drawn from a hash of the campaign, the player and a counter: the same inputs give
    the same name, and Python's generator (and so any seeded dice) is left untouched."""
    state = random.getstate()
    lists = names.DEFAULT_LISTS
    first = names.unit_name(lists, "Golem", campaign_id=7, player_id=3, counter=0)
    again = names.unit_name(lists, "Golem", campaign_id=7, player_id=3, counter=0)
    assert first == again and first.startswith("Golem '")
    assert random.getstate() == state
    pilots = {names.pilot_name(lists, campaign_id=7, player_id=3, counter=n)
              for n in range(20)}
    assert len(pilots) > 10  # the counter moves the draw


def test_default_names_avoid_the_players_other_names():
    lists = names.NameLists(ranks=(), first=("Ada",), last=("Voss", "Kade"),
                            nicknames=("Wolf", "Owl"))
    taken: list[str] = []
    for n in range(4):
        taken.append(names.pilot_name(lists, campaign_id=1, player_id=1, counter=n,
                                      taken=taken))
    # two names exist; after them the duplicates are numbered, never repeated
    assert len(set(taken)) == 4 and {"Ada Voss", "Ada Kade"} <= set(taken)


def test_buying_a_vehicle_and_hiring_a_pilot_names_them(port, api):
    w = port
    golems = []
    for _ in range(3):
        r = buy(api, w, {"kind": "vehicle", "model": "Golem"})
        assert r.status_code == 201, r.json()
        golems.append(Unit.objects.get(pk=r.json()["unit"]))
    r = buy(api, w, {"kind": "operative", "class": "soldier"})
    assert r.status_code == 201, r.json()
    pilot = Operative.objects.get(pk=r.json()["pilot"])
    assert all(g.name.startswith("Golem '") for g in golems)
    assert len({g.name for g in golems}) == 3  # unique within the force
    assert pilot.name and pilot.name.split()[0].endswith(".")  # "Sgt. Mara Voss"
    listed = api["alice"].get(f"/api/campaigns/{w.campaign.pk}/units/").json()
    assert {u["name"] for u in listed} == {g.name for g in golems}
    pilots = api["alice"].get(f"/api/campaigns/{w.campaign.pk}/pilots/").json()
    assert pilots[0]["name"] == pilot.name
    # the purchase says what was bought, by name, in the private journal
    items = list(Event.objects.filter(kind="purchase").values_list("data__item", flat=True))
    assert golems[0].name in items


def test_a_name_asked_for_at_purchase_is_kept_and_checked(port, api):
    r = buy(api, port, {"kind": "vehicle", "model": "Golem", "name": "  Bessie  "})
    assert r.status_code == 201
    assert Unit.objects.get(pk=r.json()["unit"]).name == "Bessie"
    before = snapshot()
    r = buy(api, port, {"kind": "vehicle", "model": "Golem", "name": "x" * 41})
    assert r.status_code == 400 and r.json()["code"] == "invalid_name"
    assert snapshot() == before


def test_a_weapon_is_known_by_its_model_until_named(port, api):
    r = buy(api, port, {"kind": "weapon", "weapon": "cannon", "templates": []})
    assert r.status_code == 201, r.json()
    weapon = Weapon.objects.get(pk=r.json()["weapon"])
    assert weapon.name == "" and weapon_label(weapon) == "Cannon"
    listed = api["alice"].get(f"/api/campaigns/{port.campaign.pk}/weapons/").json()
    assert listed[0]["name"] == "Cannon"


def test_the_data_migration_names_rows_bought_before_names(world):
    from django.apps import apps

    named = world.unit(world.alice, world.alpha, "golem", name="Old Bess")
    blank = [world.unit(world.alice, world.alpha, "golem") for _ in range(2)]
    op = world.operative(world.alice, world.alpha)
    migration = importlib.import_module("economy.migrations.0007_names")
    migration.name_everything(apps, None)
    for row in [named, *blank, op]:
        row.refresh_from_db()
    assert named.name == "Old Bess"
    assert all(u.name.startswith("Golem '") for u in blank)
    assert blank[0].name != blank[1].name
    assert op.name and op.name != "Soldier"


# ------------------------------------------------------------------------ renaming


@pytest.mark.parametrize("phase", ["commercial", "move", "tactical"])
def test_the_owner_renames_a_unit_in_any_phase(world, api, phase):
    world.phase(phase)
    golem = world.unit(world.alice, world.alpha, "golem", name="Golem 'Jackal'")
    r = rename(api, world, "units", golem.pk, {"name": "  Iron   Wolf "})
    assert r.status_code == 200, r.json()
    assert r.json()["name"] == "Iron Wolf"
    golem.refresh_from_db()
    assert golem.name == "Iron Wolf"


def test_crew_with_a_name_outside_activity_is_refused_and_changes_nothing(world, api):
    world.phase("commercial")
    golem = world.unit(world.alice, world.alpha, "golem", name="Golem 'Jackal'")
    pilot = world.operative(world.alice, world.alpha)
    before = snapshot()
    r = rename(api, world, "units", golem.pk, {"name": "Iron Wolf", "pilot": pilot.pk})
    assert r.status_code == 409
    assert snapshot() == before


def test_rename_with_crew_in_activity_does_both(world, api):
    world.phase("activity")
    golem = world.unit(world.alice, world.alpha, "golem", name="Golem 'Jackal'")
    pilot = world.operative(world.alice, world.alpha)
    r = rename(api, world, "units", golem.pk, {"name": "Iron Wolf", "pilot": pilot.pk})
    assert r.status_code == 200, r.json()
    golem.refresh_from_db()
    assert (golem.name, golem.pilot_id) == ("Iron Wolf", pilot.pk)


@pytest.mark.parametrize("what", ["units", "pilots", "weapons"])
def test_someone_elses_unit_pilot_or_weapon_is_404_and_unchanged(world, api, what):
    row = {"units": lambda: world.unit(world.bob, world.beta, "golem", name="Bob's Golem"),
           "pilots": lambda: world.operative(world.bob, world.beta),
           "weapons": lambda: world.weapon(world.bob, world.beta)}[what]()
    before = snapshot()
    r = rename(api, world, what, row.pk, {"name": "Mine now"})
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    missing = rename(api, world, what, 999_999_999, {"name": "Mine now"})
    assert missing.status_code == 404 and missing.json()["detail"] == r.json()["detail"]
    assert snapshot() == before


@pytest.mark.parametrize("bad", ["", "   ", "x" * 41, "tab\there", "line\nbreak", "nul\x00",
                                 42, None, ["a"]])
@pytest.mark.parametrize("what", ["units", "pilots", "weapons"])
def test_a_bad_name_is_400_and_changes_nothing(world, api, what, bad):
    row = {"units": lambda: world.unit(world.alice, world.alpha, "golem", name="Golem 'Owl'"),
           "pilots": lambda: world.operative(world.alice, world.alpha),
           "weapons": lambda: world.weapon(world.alice, world.alpha)}[what]()
    before = snapshot()
    r = rename(api, world, what, row.pk, {"name": bad})
    assert r.status_code == 400, r.json()
    body = r.json()
    assert body["code"] in ("invalid_name", "invalid") and body["detail"]
    assert snapshot() == before


def test_forty_characters_are_enough(world, api):
    op = world.operative(world.alice, world.alpha)
    r = rename(api, world, "pilots", op.pk, {"name": "y" * 40})
    assert r.status_code == 200 and r.json()["name"] == "y" * 40


def test_pilots_and_weapons_are_renamed_through_the_api(world, api):
    op = world.operative(world.alice, world.alpha)
    gun = world.weapon(world.alice, world.alpha, "cannon")
    assert rename(api, world, "pilots", op.pk, {"name": "Sgt. Vex"}).json()["name"] == "Sgt. Vex"
    r = rename(api, world, "weapons", gun.pk, {"name": "Big Bertha"})
    assert r.status_code == 200 and r.json()["name"] == "Big Bertha"
    assert r.json()["label"] == "Big Bertha (Cannon)"
    op.refresh_from_db()
    gun.refresh_from_db()
    assert (op.name, gun.name) == ("Sgt. Vex", "Big Bertha")


# -------------------------------------------------------------------------- pages


def _shown(html: str) -> str:
    """What a person reads: the page without its attributes (form addresses, ids)."""
    return re.sub(r'\s[\w-]+="[^"]*"', "", html)


def test_the_forces_page_renames_and_escapes(world, alice, bob):
    golem = world.unit(world.alice, world.alpha, "golem", name="Golem 'Jackal'")
    page = Client()
    page.force_login(alice)
    url = f"/campaigns/{world.campaign.pk}/forces/"
    html = page.get(url).content.decode()
    assert escape("Golem 'Jackal'") in html and str(golem.pk) not in _shown(html)
    r = page.post(f"/campaigns/{world.campaign.pk}/forces/unit/{golem.pk}/name/",
                  {"name": "<b>Wolf</b>"}, follow=True)
    golem.refresh_from_db()
    assert golem.name == "<b>Wolf</b>"
    assert "&lt;b&gt;Wolf&lt;/b&gt;" in r.content.decode()
    assert "<b>Wolf</b>" not in r.content.decode()


def test_a_page_rename_of_someone_elses_unit_or_a_bad_name_changes_nothing(world, alice,
                                                                           bob):
    theirs = world.unit(world.bob, world.beta, "golem", name="Bob's Golem")
    mine = world.unit(world.alice, world.alpha, "golem", name="Golem 'Owl'")
    page = Client()
    page.force_login(alice)
    base = f"/campaigns/{world.campaign.pk}/forces"
    before = snapshot()
    r = page.post(f"{base}/unit/{theirs.pk}/name/", {"name": "Mine"}, follow=True)
    assert "No such unit among yours." in r.content.decode()
    r = page.post(f"{base}/unit/{mine.pk}/name/", {"name": "  "}, follow=True)
    assert "A name cannot be empty." in r.content.decode()
    assert page.post(f"{base}/tank/{mine.pk}/name/", {"name": "X"}).status_code == 404
    assert snapshot() == before


# ------------------------------------------------------------------------- trades


def test_trades_say_what_they_carry_by_name(world, api):
    world.build(world.alpha, "warehouse")
    world.build(world.beta, "warehouse")
    cannon = world.weapon(world.alice, world.alpha, "cannon")
    golem = world.unit(world.bob, world.beta, "golem", name="Golem 'Iron Wolf'")
    r = api["alice"].post(f"/api/campaigns/{world.campaign.pk}/trades/", {
        "to_player": world.bob.pk,
        "give": {"weapons": [cannon.pk], "credits": 200, "deliver_to": world.beta.pk},
        "receive": {"units": [golem.pk], "deliver_to": world.alpha.pk}}, format="json")
    assert r.status_code == 201, r.json()
    sentence = "alice offers a Cannon and 200 SC for bob's Golem 'Iron Wolf'"
    assert r.json()["summary"] == sentence
    listed = api["bob"].get(f"/api/campaigns/{world.campaign.pk}/trades/").json()
    assert listed[0]["summary"] == sentence
    offered = Event.objects.get(kind="trade_offered")
    assert offered.data["summary"] == sentence
    trade = Trade.objects.get()
    page = Client()
    page.force_login(world.bob.user)
    html = page.get(f"/campaigns/{world.campaign.pk}/economy/").content.decode()
    assert escape(sentence) in html and str(trade.pk) not in _shown(html)


def test_labels_never_show_an_id(world):
    unnamed = world.unit(world.alice, world.alpha, "golem")
    op = world.operative(world.alice, world.alpha, "scientist")
    assert unit_label(unnamed) == "Golem" and str(unnamed) == "Golem"
    assert str(op) == "Scientist"


def test_a_factory_names_the_vehicles_it_makes(world):
    """Issue 26: a factory-made vehicle gets a default name as a bought one does, unlike
    the player's other units, read in one query for the whole campaign."""
    from economy.services.production import production_run
    from tests.economy.test_product_lines import rich

    world.unit(world.alice, world.alpha, "golem", name="Golem 'Iron Wolf'")
    rich(world)
    world.build(world.alpha, "factory", active=True, product="vehicle:golem;vehicle:lycaon")
    production_run(campaign=world.campaign)
    made = list(Unit.objects.filter(player=world.alice).values_list("model", "name"))
    assert len(made) == 5
    assert all(name.startswith({"golem": "Golem '", "lycaon": "Lycaon '"}[model])
               for model, name in made), made
    assert len({name for _, name in made}) == 5


def test_the_umpires_grants_arrive_named(world, api):
    import uuid

    world.build(world.alpha, "warehouse")
    r = api["uma"].post(f"/api/campaigns/{world.campaign.pk}/corrections/", {
        "request_id": uuid.uuid4().hex, "player": world.alice.pk, "reason": "lost mail",
        "unit": {"model": "golem", "territory": world.alpha.pk},
        "pilot": {"class": "soldier", "territory": world.alpha.pk}}, format="json")
    assert r.status_code == 201, r.json()
    assert Unit.objects.get(player=world.alice).name.startswith("Golem '")
    assert Operative.objects.get(player=world.alice).name.count(" ") >= 2


def test_naming_a_long_run_with_taken_names_gives_the_names_a_plain_list_gives():
    """A factory names each vehicle against a `TakenNames` (kept folded as names are
    added, the "... n" count resumed where it stopped) instead of a list it re-reads on
    every draw: the same names, in the same order, past the nicknames' exhaustion."""
    lists = names.DEFAULT_LISTS
    plain: list[str] = ["golem 'IRON WOLF'"]  # case is ignored when comparing
    kept = names.TakenNames(plain)
    for counter in range(3 * len(lists.nicknames) + 7):
        model = "Golem" if counter % 3 else "Paladin"
        expected = names.unit_name(lists, model, campaign_id=4, player_id=9,
                                   counter=len(plain), taken=plain)
        got = names.unit_name(lists, model, campaign_id=4, player_id=9,
                              counter=len(kept), taken=kept)
        assert got == expected, counter
        plain.append(expected)
        kept.add(got)
    assert len({n.casefold() for n in plain}) == len(plain)
    assert any(re.search(r" \d+$", n) for n in plain)  # the run went past the nicknames
    assert "GOLEM 'IRON WOLF'" in kept and list(kept) == plain
