"""Pages over a campaign that has played a turn with a battle: orders, battles,
history, umpire console."""

from __future__ import annotations

import re

import pytest

from battles.models import Battle
from campaign.models import Campaign
from orders.models import Order
from tests.pages.forms import settings_form

pytestmark = pytest.mark.django_db


def test_fixture_played_a_battle(played_campaign) -> None:
    assert played_campaign.phase == "tactical"
    assert Battle.objects.filter(campaign=played_campaign).exists()


def test_battle_list_and_report(web_client, played_campaign, bob) -> None:
    battle = Battle.objects.get(campaign=played_campaign)
    client = web_client(bob)
    listing = client.get(f"/campaigns/{played_campaign.pk}/battles/")
    assert listing.status_code == 200
    assert f"/battles/{battle.pk}/".encode() in listing.content
    report = client.get(f"/campaigns/{played_campaign.pk}/battles/{battle.pk}/")
    assert report.status_code == 200
    if battle.status == "finished":
        assert b"Replay, turn by turn" in report.content
        assert b"dice and action log" in report.content
        step = client.get(f"/campaigns/{played_campaign.pk}/battles/{battle.pk}/?turn=1",
                          HTTP_HX_REQUEST="true")
        assert step.status_code == 200 and b"<html" not in step.content


def test_history_shows_only_what_the_viewer_may_read(web_client, played_campaign, alice,
                                                     bob) -> None:
    alice_page = web_client(alice).get(f"/campaigns/{played_campaign.pk}/history/")
    bob_page = web_client(bob).get(f"/campaigns/{played_campaign.pk}/history/")
    assert alice_page.status_code == bob_page.status_code == 200
    # alice's purchases are private events: bob never sees them (only his own).
    from campaign.models import Event

    hers = Event.objects.filter(campaign=played_campaign, kind="purchase",
                                viewers__user=alice).first()
    url = f"/campaigns/{played_campaign.pk}/history/?kind=purchase"
    from territories.models import Territory

    where = Territory.objects.get(pk=hers.data["territory"]).name
    # the Golem arrives with its name (issue 26: "Golem 'Iron Wolf'")
    mark = re.compile(rf"alice buys a Golem (&#x27;|')[^&']+(&#x27;|') at {where} for "
                      rf"150 SC\.".encode())
    assert mark.search(web_client(alice).get(url).content)
    assert not mark.search(web_client(bob).get(url).content)
    filtered = web_client(alice).get(f"/campaigns/{played_campaign.pk}/history/?kind="
                                     "phase_opened")
    assert b'<span class="kind">Purchase</span>' not in filtered.content
    assert b'<span class="kind">Phase opens</span>' in filtered.content
    # Human words (issue 16): labels in the filter, sentences with names, counts that read.
    assert b'<option value="phase_opened" selected>Phase opens</option>' in filtered.content
    assert b"the commercial phase opens." in filtered.content
    assert re.search(rb"\((\d+ entries|1 entry)\)", filtered.content)


def test_orders_page_in_the_move_phase_lists_legal_destinations(
        web_client, running_campaign, alice) -> None:
    from economy.models import Unit
    from territories.models import Territory

    home = Territory.objects.get(campaign=running_campaign, owner__user=alice)
    unit = Unit.objects.create(player=home.owner, territory=home, model="golem")
    Campaign.objects.filter(pk=running_campaign.pk).update(phase="move")
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}/orders/"
    page = client.get(base + f"?unit={unit.pk}")
    assert b"Legal destinations" in page.content
    partial = client.get(base + f"?unit={unit.pk}", HTTP_HX_REQUEST="true")
    assert b"<html" not in partial.content and b"<svg" in partial.content
    dest = Territory.objects.get(campaign=running_campaign, name="Beta") \
        if home.name == "Alpha" else None
    if dest is not None:
        client.post(base + "submit/", {"unit": unit.pk, "destination": dest.pk})
        order = Order.objects.get(unit=unit)
        assert b"sealed" in client.get(base).content
        client.post(base + f"{order.public_id}/withdraw/")
        assert not Order.objects.filter(unit=unit).exists()


def test_other_players_do_not_see_a_sealed_order(web_client, running_campaign, alice,
                                                 bob) -> None:
    from economy.models import Unit
    from orders.services.sealing import order_submit
    from territories.models import Territory
    from territories.services.movement import legal_destinations

    home = Territory.objects.get(campaign=running_campaign, owner__user=alice)
    unit = Unit.objects.create(player=home.owner, territory=home, model="golem")
    Campaign.objects.filter(pk=running_campaign.pk).update(phase="move")
    seat = home.owner
    seat.campaign = Campaign.objects.get(pk=running_campaign.pk)
    dest = sorted(legal_destinations(seat, home.pk) - {home.pk})[0]
    order_submit(player=seat, unit_id=unit.pk, destination_id=dest)
    dest_name = Territory.objects.get(pk=dest).name
    for path in ("orders/", "history/", "", "map/", "battles/"):
        page = web_client(bob).get(f"/campaigns/{running_campaign.pk}/{path}")
        assert b"sealed" not in page.content or path == "orders/"
        assert f"to {dest_name}".encode() not in page.content


def test_the_umpire_sees_who_sealed_orders_never_where(web_client, running_campaign, alice,
                                                       uma) -> None:
    """Issue 17: the console counts each seat's sealed orders (the umpire who does not
    play); the content stays sealed."""
    from economy.models import Unit
    from orders.services.sealing import order_submit
    from territories.models import Territory
    from territories.services.movement import legal_destinations

    home = Territory.objects.get(campaign=running_campaign, owner__user=alice)
    unit = Unit.objects.create(player=home.owner, territory=home, model="golem")
    Campaign.objects.filter(pk=running_campaign.pk).update(phase="move")
    seat = home.owner
    seat.campaign = Campaign.objects.get(pk=running_campaign.pk)
    dest = sorted(legal_destinations(seat, home.pk) - {home.pk})[0]
    order_submit(player=seat, unit_id=unit.pk, destination_id=dest)
    page = web_client(uma).get(f"/campaigns/{running_campaign.pk}/umpire/seats/").content.decode()
    row = page[page.index("alice", page.index('id="seats-h"')):]
    assert '<td class="num">1</td>' in row[:600]
    assert Territory.objects.get(pk=dest).name not in row[:600]


def test_umpire_console_advances_and_sets_settings(web_client, running_campaign, uma,
                                                   alice) -> None:
    client = web_client(uma)
    base = f"/campaigns/{running_campaign.pk}/umpire/"
    assert client.get(base).status_code == 200
    assert web_client(alice).get(base).status_code == 403
    client.post(base + "advance/", {"turn": 1, "phase": "commercial"})
    running_campaign.refresh_from_db()
    assert running_campaign.phase == "activity"
    # a stale form (already advanced) changes nothing
    client.post(base + "advance/", {"turn": 1, "phase": "commercial"})
    running_campaign.refresh_from_db()
    assert running_campaign.phase == "activity"
    # the form as the page shows it (durations in hours or days), one value changed
    form = settings_form(client, base + "settings/")
    client.post(base + "settings/", {**form, "missed_turns_alert": 5,
                                     "commercial_seconds": 1,
                                     "commercial_seconds__unit": "hours"})
    running_campaign.refresh_from_db()
    assert running_campaign.settings.missed_turns_alert == 5
    assert running_campaign.settings.commercial_seconds == 3600
    client.post(base + "pause/", {"action": "pause"})
    running_campaign.refresh_from_db()
    assert running_campaign.paused


def test_umpire_correction_and_handover(web_client, running_campaign, uma, alice, charlie
                                        ) -> None:
    seat = running_campaign.players.get(user=alice)
    client = web_client(uma)
    base = f"/campaigns/{running_campaign.pk}/umpire/"
    form = {"player": seat.pk, "credits": 25, "reason": "lost receipt",
            "request_id": "page-load-0001"}
    client.post(base + "corrections/", form)
    client.post(base + "corrections/", form)  # a double click applies once
    seat.refresh_from_db()
    assert seat.credits == 1025
    client.post(base + "handover/", {"player": seat.pk, "username": "charlie"})
    seat.refresh_from_db()
    assert seat.user == charlie


def test_an_empty_deadline_form_changes_nothing_and_says_so(web_client, running_campaign,
                                                            uma) -> None:
    """Issue 17: "Set deadline" with no date said "Deadline cleared"."""
    before = Campaign.objects.get(pk=running_campaign.pk).phase_deadline
    page = web_client(uma).post(f"/campaigns/{running_campaign.pk}/umpire/deadline/",
                                {"deadline": ""}, follow=True)
    assert b"Deadline cleared" not in page.content and b"No deadline" in page.content
    assert Campaign.objects.get(pk=running_campaign.pk).phase_deadline == before


def test_the_map_as_it_stood_after_each_phase(web_client, played_campaign, alice) -> None:
    """Issue 16: the meta-map at any phase of the campaign, rebuilt from the journal."""
    from campaign.models import PhaseChange
    from territories.models import Territory
    from territories.services.history import owners_at

    steps = list(PhaseChange.objects.filter(campaign=played_campaign).order_by("id")
                 .values_list("turn", "phase"))
    first = owners_at(played_campaign, *steps[0])
    now = dict(Territory.objects.filter(campaign=played_campaign)
               .values_list("pk", "owner_id"))
    assert {t: o for t, o in now.items() if o} == {t: o for t, o in
                                                   owners_at(played_campaign,
                                                             *steps[-1]).items() if o}
    assert len([o for o in first.values() if o]) == 2  # the two starting territories
    page = web_client(alice).get(f"/campaigns/{played_campaign.pk}/map/?at=0")
    assert page.status_code == 200
    assert b"Turn 1, commercial phase" in page.content and b"Next phase" in page.content
    assert web_client(alice).get(f"/campaigns/{played_campaign.pk}/map/?at=999"
                                 ).status_code == 200


def test_the_battle_page_names_units_and_players_never_ids(web_client, played_campaign,
                                                          bob) -> None:
    """Issue 16: the report, the replay and the log speak in names a player knows: each
    unit by the name it got when bought (issue 26, "Golem 'Stormcrow'"), sides are
    usernames; no database id shows."""
    from django.utils.html import escape

    from economy.models import Unit

    battle = Battle.objects.get(campaign=played_campaign)
    assert battle.status == "finished"
    units = list(Unit.objects.filter(player__campaign=played_campaign))
    assert units and all(u.name.startswith("Golem '") for u in units)
    page = web_client(bob).get(f"/campaigns/{played_campaign.pk}/battles/{battle.pk}/")
    import re

    html = re.sub(r'data-unit="[^"]*"', "", page.content.decode())  # for scripts, not shown
    for unit in units:
        assert escape(unit.name) in html, unit.name
    for unit in units:
        assert str(unit.pk) not in html, unit.pk
    for player in played_campaign.players.all():
        assert f"side: {player.pk};" not in html
    assert "1 entries" not in html


def test_the_report_shows_each_reader_their_own_pilots_xp(web_client, played_campaign,
                                                          alice, bob) -> None:
    """Issue 16: XP and level-ups in the report, for the pilots the reader may know of
    (their own: XP awards are private journal entries)."""
    battle = Battle.objects.get(campaign=played_campaign)
    url = f"/campaigns/{played_campaign.pk}/battles/{battle.pk}/"
    from campaign.models import Event

    awards = Event.objects.filter(campaign=played_campaign, kind="xp_awarded",
                                  data__battle=battle.pk)
    assert awards.exists()
    owners = {e.viewers.get().user.username for e in awards}
    for who in (alice, bob):
        html = web_client(who).get(url).content.decode()
        mine = who.username in owners
        assert ("XP</strong>" in html) == mine
        if mine:
            other = ({"alice", "bob"} - {who.username}).pop()
            # one XP line per own surviving pilot, none for the other side's
            assert html.count("XP</strong>") == sum(
                1 for e in awards if e.viewers.get().user.username == who.username), other


def test_several_units_are_ordered_at_once_all_or_none(web_client, running_campaign,
                                                       alice) -> None:
    """Issue 17: the units standing together go in one order form; a refusal for one of
    them seals none."""
    from economy.models import Unit
    from territories.models import Territory

    home = Territory.objects.get(campaign=running_campaign, owner__user=alice)
    first = Unit.objects.create(player=home.owner, territory=home, model="golem")
    second = Unit.objects.create(player=home.owner, territory=home, model="arakne")
    Campaign.objects.filter(pk=running_campaign.pk).update(phase="move")
    client = web_client(alice)
    base = f"/campaigns/{running_campaign.pk}/orders/"
    form = client.get(base + f"?unit={first.pk}").content.decode()
    assert "Send with it" in form and f'name="unit" value="{second.pk}"' in form
    assert "data-pick-destination" in form
    dest = next(int(v) for v in re.findall(r'name="destination" value="(\d+)"', form))
    r = client.post(base + "submit/", {"unit": [first.pk, 999999], "destination": dest},
                    follow=True)
    assert not Order.objects.filter(unit__in=[first, second]).exists()
    assert b"orders sealed" not in r.content
    r = client.post(base + "submit/", {"unit": [first.pk, second.pk], "destination": dest},
                    follow=True)
    assert "2 orders sealed" in r.content.decode()
    assert Order.objects.filter(unit__in=[first, second], destination_id=dest).count() == 2
