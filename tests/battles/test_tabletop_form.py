"""The tabletop result form on the battle page speaks each ruleset's words, drawn from
the schema the ruleset publishes (issue 13: 30 Minute Missions' sections destroyed,
damage per section and AP stored); entered by one player, confirmed by the other."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from battles.rulesets.registry import find_ruleset
from economy.models import Unit

pytestmark = pytest.mark.django_db


def _page(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def table_battle(world):
    from battles.services.opening import open_battles

    w = world(options={"ruleset": "thirtymm", "battle_mode": "tabletop"},
              owners={"Alpha": "alice", "Beta": "bob"})
    rules = find_ruleset("thirtymm")

    def unit(who, key, name):
        return Unit.objects.create(player=w.players[who], territory=w.t["Beta"], model=key,
                                   name=name, profile=next(e.profile for e in rules.catalogue()
                                                           if e.key == key),
                                   state=rules.initial_state(key))

    mech, drone = unit("alice", "standard_mech", "Red mech"), unit("bob", "scout_drone", "Eye")
    w.campaign.phase = "tactical"
    w.campaign.save()
    (battle,) = open_battles(campaign=w.campaign)
    return w, battle, mech, drone


def test_the_form_speaks_30mm_and_two_players_record_it(table_battle, alice, bob):
    w, battle, mech, drone = table_battle
    url = f"/campaigns/{w.campaign.pk}/battles/{battle.pk}/"
    html = _page(alice).get(url).content.decode()
    assert "Played on the table" in html and "hx-trigger" not in html  # no polling
    assert f'name="u{mech.pk}.sections_destroyed" value="left_leg"' in html
    assert f'name="u{mech.pk}.damage.torso"' in html
    assert f'name="u{drone.pk}.ap_stored"' in html and 'max="16"' in html
    assert f'name="victory_points.{w.players["alice"].pk}"' in html

    r = _page(alice).post(url + "tabletop/", {
        "winner": str(w.players["alice"].pk), "mission": "Show of Force",
        f"victory_points.{w.players['alice'].pk}": "9",
        f"u{mech.pk}.sections_destroyed": ["left_leg"], f"u{mech.pk}.damage.torso": "12",
        f"u{drone.pk}.sections_destroyed": ["core"], f"u{drone.pk}.ap_stored": ""})
    assert r.status_code == 302
    battle.refresh_from_db()
    assert battle.status != "finished" and battle.confirmations == [w.players["alice"].pk]
    html = _page(bob).get(url).content.decode()
    assert "Red mech: damage torso 12; sections destroyed left_leg" in html
    assert "Confirm this result" in html

    r = _page(bob).post(url + "confirm/")
    assert r.status_code == 302
    battle.refresh_from_db()
    mech.refresh_from_db()
    assert battle.status == "finished" and battle.winner_id == w.players["alice"].pk
    assert mech.state["sections"] == {"left_leg": 0, "torso": 18}
    assert Unit.objects.get(pk=drone.pk).status == "destroyed"


def test_a_bad_entry_is_refused_with_a_sentence_and_changes_nothing(table_battle, alice, uma):
    w, battle, mech, _drone = table_battle
    url = f"/campaigns/{w.campaign.pk}/battles/{battle.pk}/"
    for data, words in (
            ({"winner": "999"}, "Choose the winner"),
            ({"winner": "", f"u{mech.pk}.ap_stored": "lots"}, "must be a whole number"),
            ({"winner": "", f"u{mech.pk}.ap_stored": "40"}, "40 is greater than"),
    ):
        r = _page(alice).post(url + "tabletop/", data, follow=True)
        assert words in r.content.decode(), words
        fresh = Battle.objects.get(pk=battle.pk)
        assert fresh.proposed_result is None and fresh.status != "finished"


def test_a_spectator_sees_no_form(table_battle, django_user_model):
    w, battle, _mech, _drone = table_battle
    from campaign.models import Player

    carol = django_user_model.objects.create_user(username="carol", password="x" * 12)
    Player.objects.create(campaign=w.campaign, user=carol)
    html = _page(carol).get(f"/campaigns/{w.campaign.pk}/battles/{battle.pk}/").content.decode()
    assert "Played on the table" in html and "Enter the result" not in html
    r = _page(carol).post(f"/campaigns/{w.campaign.pk}/battles/{battle.pk}/tabletop/",
                          {"winner": ""}, follow=True)
    assert "Only the players who fought" in r.content.decode()
    assert Battle.objects.get(pk=battle.pk).proposed_result is None
