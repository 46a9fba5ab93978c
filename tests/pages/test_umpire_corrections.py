"""Issue 17: the umpire corrects credits, goods, units and ownership on the pages, each
with a reason, in the journal; a bad correction changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.models import Event, Player
from economy.models import Stock, Unit
from territories.models import Territory

pytestmark = pytest.mark.django_db


def _console(uma, campaign):
    page = Client()
    page.force_login(uma)
    html = page.get(f"/campaigns/{campaign.pk}/umpire/correct/").content.decode()
    key = html.split('name="request_id" value="')[1].split('"')[0]
    return page, html, key


def test_a_unit_is_granted_with_a_reason_and_goods_need_room(running_campaign, uma, alice):
    page, html, key = _console(uma, running_campaign)
    assert "Grant a vehicle" in html and "Correct ownership" in html
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    home = Territory.objects.get(campaign=running_campaign, owner=seat)
    url = f"/campaigns/{running_campaign.pk}/umpire/corrections/"
    before = (Stock.objects.count(), Event.objects.count())
    r = page.post(url, {"request_id": key, "player": seat.pk, "goods_units": "3",
                        "goods_resource": "minerals", "goods_quality": "raw",
                        "goods_territory": home.pk, "reason": "a lost shipment"}, follow=True)
    assert "No room in the warehouses" in r.content.decode()
    assert (Stock.objects.count(), Event.objects.count()) == before
    page, _html, key = _console(uma, running_campaign)
    r = page.post(url, {"request_id": key, "player": seat.pk, "unit_model": "golem",
                        "unit_territory": home.pk, "reason": "lost in a crash"}, follow=True)
    assert "Correction recorded" in r.content.decode()
    assert Unit.objects.filter(player=seat, model="golem", territory=home).count() == 1
    entry = Event.objects.filter(campaign=running_campaign, kind="umpire_correction").last()
    assert entry.data["reason"] == "lost in a crash" and entry.data["unit"]["model"] == "golem"
    taken = Unit.objects.get(player=seat, model="golem")
    page, _html, key = _console(uma, running_campaign)
    page.post(url, {"request_id": key, "player": seat.pk, "unit_take": taken.pk,
                    "reason": "granted twice"})
    taken.refresh_from_db()
    assert taken.status == "destroyed"


def test_a_bad_correction_changes_nothing(running_campaign, uma, alice):
    page, _html, key = _console(uma, running_campaign)
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    before = (Unit.objects.count(), Event.objects.count(), seat.credits)
    r = page.post(f"/campaigns/{running_campaign.pk}/umpire/corrections/", {
        "request_id": key, "player": seat.pk, "credits": "50", "unit_model": "golem",
        "unit_territory": "999999", "reason": "oops"}, follow=True)
    assert "territory the player owns" in r.content.decode()
    seat.refresh_from_db()
    assert (Unit.objects.count(), Event.objects.count(), seat.credits) == before
    r = page.post(f"/campaigns/{running_campaign.pk}/umpire/corrections/", {
        "request_id": key + "x", "player": seat.pk, "goods_units": "many",
        "reason": "x"}, follow=True)
    assert "whole numbers (goods units)" in r.content.decode()


def test_the_umpire_corrects_who_holds_a_territory(running_campaign, uma, alice, bob):
    page, _html, _key = _console(uma, running_campaign)
    a = Player.objects.get(campaign=running_campaign, user=alice)
    b = Player.objects.get(campaign=running_campaign, user=bob)
    land = Territory.objects.filter(campaign=running_campaign, owner=a).first()
    url = f"/campaigns/{running_campaign.pk}/umpire/ownership/"
    r = page.post(url, {"territory": land.pk, "player": b.pk, "reason": "a misclick"},
                  follow=True)
    assert "Ownership corrected" in r.content.decode()
    land.refresh_from_db()
    assert land.owner_id == b.pk
    entry = Event.objects.get(campaign=running_campaign, kind="ownership_corrected")
    assert entry.visibility == "public" and entry.data["from"] == a.pk
    # the map's history reads it like any change of owner
    from territories.services.history import owners_at

    assert owners_at(running_campaign, running_campaign.turn,
                     running_campaign.phase)[land.pk] == b.pk
    r = page.post(url, {"territory": land.pk, "player": b.pk, "reason": "again"},
                  follow=True)
    assert "already held so" in r.content.decode()
    r = page.post(url, {"territory": land.pk, "player": "", "reason": ""}, follow=True)
    assert "needs a reason" in r.content.decode()
    land.refresh_from_db()
    assert land.owner_id == b.pk
    other = Client()
    other.force_login(alice)
    assert other.post(url, {"territory": land.pk, "player": a.pk,
                            "reason": "mine"}).status_code == 403


def test_the_umpire_nudges_the_players_who_are_not_ready(running_campaign, uma, alice, bob,
                                                         mailoutbox,
                                                         django_capture_on_commit_callbacks):
    from campaign.models import Profile

    for user in (alice, bob):
        user.email = f"{user.username}@example.org"
        user.save()
        Profile.objects.update_or_create(user=user, defaults={"email_verified": user.email})
    Player.objects.filter(campaign=running_campaign, user=alice).update(ready=True)
    page, _html, _key = _console(uma, running_campaign)
    html = page.get(f"/campaigns/{running_campaign.pk}/umpire/seats/").content.decode()
    assert "Nudge the players who are not ready" in html
    url = f"/campaigns/{running_campaign.pk}/umpire/nudge/"
    with django_capture_on_commit_callbacks(execute=True):
        r = page.post(url, follow=True)
    assert "1 player(s) not ready were nudged" in r.content.decode()
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    assert "the umpire is waiting for you" in mailoutbox[0].subject
    with django_capture_on_commit_callbacks(execute=True):
        page.post(url)
    assert len(mailoutbox) == 1  # once per phase


def test_the_economy_forms_default_to_legal_choices(running_campaign, alice, bob):
    """Issue 17: the shipping form offers first the territories that can ship and says
    why the others cannot; the trade form's "their territory" lists the partner's first
    and carries each territory's owner (site.js keeps to the partner chosen)."""
    import re

    page = Client()
    page.force_login(alice)
    html = page.get(f"/campaigns/{running_campaign.pk}/economy/").content.decode()
    from economy.models import Building

    ship = html.split('id="s-territory"')[1].split("</select>")[0]
    home = Territory.objects.get(campaign=running_campaign, owner__user=alice)
    kinds = set(Building.objects.filter(territory=home, active=True)
                .values_list("kind", flat=True))
    can_ship = {"landing_pad", "radar"} <= kinds
    assert ("(needs an active landing pad and radar)" in ship) == (not can_ship)
    partner = re.search(r'id="t-to"><option value="(\d+)"', html).group(1)
    deliver = html.split('id="t-deliver"')[1].split("</select>")[0]
    owners = re.findall(r'data-owner="(\d+)"', deliver)
    assert owners and owners[0] == partner
    assert 'data-owned-by="t-to"' in html


def test_pilots_and_buildings_are_corrected_too(running_campaign, uma, alice):
    from economy.models import Building, Operative

    seat = Player.objects.get(campaign=running_campaign, user=alice)
    home = Territory.objects.get(campaign=running_campaign, owner=seat)
    url = f"/campaigns/{running_campaign.pk}/umpire/corrections/"
    taken = set(Building.objects.filter(territory=home).values_list("x", "y"))
    x, y = next((x, y) for y in range(16) for x in range(16) if (x, y) not in taken)
    page, _html, key = _console(uma, running_campaign)
    r = page.post(url, {"request_id": key, "player": seat.pk, "unit_territory": home.pk,
                        "pilot_class": "soldier", "pilot_name": "Vex",
                        "building_kind": "warehouse", "building_x": x, "building_y": y,
                        "reason": "the table said so"}, follow=True)
    assert "Correction recorded" in r.content.decode()
    pilot = Operative.objects.get(player=seat, name="Vex")
    built = Building.objects.get(territory=home, x=x, y=y)
    assert (pilot.klass, built.kind) == ("soldier", "warehouse")
    before = (Operative.objects.count(), Building.objects.count())
    page, _html, key = _console(uma, running_campaign)
    r = page.post(url, {"request_id": key, "player": seat.pk, "unit_territory": home.pk,
                        "pilot_class": "soldier", "building_kind": "warehouse",
                        "building_x": x, "building_y": y, "reason": "twice"}, follow=True)
    assert "already has a building" in r.content.decode()
    assert (Operative.objects.count(), Building.objects.count()) == before  # nothing
    page, _html, key = _console(uma, running_campaign)
    page.post(url, {"request_id": key, "player": seat.pk, "pilot_take": pilot.pk,
                    "building_take": built.pk, "reason": "undo"})
    pilot.refresh_from_db()
    assert not pilot.alive and not Building.objects.filter(pk=built.pk).exists()


def _verified(*users):
    from campaign.models import Profile

    for user in users:
        user.email = f"{user.username}@example.org"
        user.save()
        Profile.objects.update_or_create(user=user, defaults={"email_verified": user.email})


def test_a_correction_notifies_the_seats_it_concerns_and_no_one_else(
        running_campaign, uma, alice, bob, mailoutbox, django_capture_on_commit_callbacks):
    """Issue 17: corrections are "journaled, notified": the player whose holdings the
    umpire corrected hears of it (never the others, never the public webhook); a change
    of owner tells the one who lost and the one who gained; a refused correction tells
    nobody."""
    from campaign.models import OutboxMessage

    _verified(alice, bob)
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    theirs = Territory.objects.get(campaign=running_campaign, owner__user=bob)
    page, _html, key = _console(uma, running_campaign)
    url = f"/campaigns/{running_campaign.pk}/umpire/corrections/"
    before = OutboxMessage.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        page.post(url, {"request_id": key, "player": seat.pk, "credits": "50",
                        "unit_model": "golem", "unit_territory": "999999", "reason": "oops"})
    assert mailoutbox == [] and OutboxMessage.objects.count() == before  # refused: no notice
    page, _html, key = _console(uma, running_campaign)
    with django_capture_on_commit_callbacks(execute=True):
        page.post(url, {"request_id": key, "player": seat.pk, "credits": "50",
                        "reason": "a lost refund"})
    assert [m.to for m in mailoutbox] == [["alice@example.org"]]
    assert "the umpire corrected your holdings" in mailoutbox[0].subject
    assert "a lost refund" not in mailoutbox[0].body  # the reason stays in her journal
    mailoutbox.clear()
    from territories.services.corrections import correct_owner

    with django_capture_on_commit_callbacks(execute=True):
        correct_owner(campaign=running_campaign, territory_id=theirs.pk, player_id=seat.pk,
                      reason="a mistaken battle", by="uma")
    # alice already heard of a correction this phase; bob, who lost a territory, hears now
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]


def test_a_correction_is_never_posted_to_the_campaign_webhook(running_campaign, alice):
    from campaign.services import notifications

    assert "corrected" in notifications.PRIVATE_KINDS and "reminder" in \
        notifications.PRIVATE_KINDS
    seat = Player.objects.get(campaign=running_campaign, user=alice)
    posted = []
    running_campaign.options = {**running_campaign.options,
                                "webhook_url": "https://chat.example.org/hook"}
    running_campaign.save(update_fields=["options"])
    original = notifications.post_webhook
    notifications.post_webhook = lambda url, payload: posted.append(payload) or True
    try:
        notifications.deliver(campaign_id=running_campaign.pk, kind="corrected",
                              turn=1, phase="commercial", player_ids=[seat.pk])
        notifications.deliver(campaign_id=running_campaign.pk, kind="results",
                              turn=1, phase="commercial")
    finally:
        notifications.post_webhook = original
    assert [p["kind"] for p in posted] == ["results"]
