"""The order POST's and plan PUT's reads sent as text (`campaign.sql`, issue 15 target 4,
issue 32.4) answer exactly what their ORM formulations answer: the token with its user,
the seat with its campaign and umpire, the unit to order, the passable territories, the
stations among them, the campaign's phase under the shared lock, the battlefield of a
plan. On SQLite and on PostgreSQL (the suite runs on both)."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction

from campaign.access import seat
from campaign.errors import WrongPhase
from campaign.models import Campaign, Phase, Player
from orders.models import Order
from tests.orders.conftest import make_unit, set_phase


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_a_seat_is_read_as_select_related_reads_it(world):
    campaign = world.campaign
    campaign.phase_deadline = datetime.datetime(2026, 12, 1, 18, 30, tzinfo=datetime.UTC)
    campaign.save()
    user = world.users["alice"]
    expected = Player.objects.select_related("campaign__umpire").get(campaign=campaign,
                                                                    user=user)
    found = seat(user, campaign.pk)
    assert found is not None
    assert _fields(found) == _fields(expected)
    # the campaign with its settings (JSON) and deadline (a datetime, aware), the umpire
    assert _fields(found.campaign) == _fields(expected.campaign)
    assert found.campaign.phase_deadline == campaign.phase_deadline
    assert found.campaign.settings.station_needed_to_pass is True
    assert _fields(found.campaign.umpire) == _fields(expected.campaign.umpire)
    # the instances are the ORM's own: saved as such, not inserted again
    assert not found._state.adding and not found.campaign._state.adding
    found.campaign.name = "Renamed"
    found.campaign.save(update_fields=["name"])
    assert Campaign.objects.get(pk=campaign.pk).name == "Renamed"


def test_no_seat_for_the_umpire_who_does_not_play_nor_for_a_stranger(world):
    assert seat(world.users["uma"], world.campaign.pk) is None
    assert seat(world.users["charlie"], world.campaign.pk) is None
    assert seat(world.users["alice"], world.campaign.pk + 1000) is None


def test_the_unit_to_order_is_the_players_own_with_its_label(world):
    from economy.models import Unit
    from economy.services.moves import unit_to_order

    named = make_unit(world.alice, world.t["Alpha"])
    Unit.objects.filter(pk=named.pk).update(name="Red Baron")
    with transaction.atomic():
        for unit in (world.a1, Unit.objects.get(pk=named.pk)):
            ordered = unit_to_order(world.alice, unit.pk)
            assert ordered is not None
            assert (ordered.id, ordered.status, ordered.territory_id, ordered.label) == (
                unit.pk, unit.status, unit.territory_id, str(unit))
        assert unit_to_order(world.alice, named.pk).label == "Red Baron"
        # bob's unit is answered like a unit that does not exist (R-ORD-1)
        assert unit_to_order(world.alice, world.b1.pk) is None
        assert unit_to_order(world.alice, 987654321) is None


def test_passable_territories_are_the_own_and_the_granted_by_their_owner(world):
    """Seed: "A player can grant passage over his territories to another"; a grant
    lapses when the grantor loses the territory (R-MAP-5)."""
    from territories.models import Passage, Territory
    from territories.services.movement import passable_territories

    t = world.t
    Passage.objects.create(campaign=world.campaign, grantor=world.bob, grantee=world.alice,
                           territory=t["Delta"])
    Passage.objects.create(campaign=world.campaign, grantor=world.bob, grantee=world.alice,
                           territory=t["Epsilon"])
    Territory.objects.filter(pk=t["Epsilon"].pk).update(owner=None)  # bob lost it
    found = passable_territories(world.alice)
    assert found == {t["Alpha"].pk, t["Beta"].pk, t["Delta"].pk}
    own = set(Territory.objects.filter(owner=world.alice).values_list("pk", flat=True))
    assert own | {t["Delta"].pk} == found


def test_the_stations_among_the_passable_territories(world):
    """R-MAP-9: only territories with a standing station are travelled through."""
    from economy.models import Building
    from economy.selectors import territories_with_station
    from territories.services.movement import passable_sql, station_territories

    Building.objects.filter(territory=world.t["Beta"], kind="station").delete()
    among = passable_sql(world.alice)
    assert station_territories(world.campaign.pk, among=among) == {world.t["Alpha"].pk}
    assert territories_with_station(world.campaign.pk, among) == {world.t["Alpha"].pk}
    whole = territories_with_station(world.campaign.pk)
    assert whole == set(Building.objects.filter(kind="station").values_list(
        "territory_id", flat=True)) == {world.t[n].pk for n in ("Alpha", "Delta", "Epsilon")}


def test_an_order_is_refused_when_the_phase_moved_on_after_the_seat_was_read(world):
    """The share lock reads the phase again: a player read in the move phase whose order
    arrives after the advance is refused, and nothing is written."""
    from orders.services.sealing import order_submit

    stale = seat(world.users["alice"], world.campaign.pk)
    assert stale is not None and stale.campaign.phase == Phase.MOVE
    set_phase(world.campaign, Phase.TACTICAL)
    with pytest.raises(WrongPhase, match="only in the move phase; the campaign is in the "
                                         "tactical phase"):
        order_submit(player=stale, unit_id=world.a1.pk, destination_id=world.t["Gamma"].pk)
    assert not Order.objects.filter(campaign=world.campaign).exists()
    # ...and taken once the campaign is back in a move phase (its turn read afresh)
    set_phase(world.campaign, Phase.MOVE, turn=2)
    order = order_submit(player=stale, unit_id=world.a1.pk,
                         destination_id=world.t["Gamma"].pk)
    assert (order.turn, order.destination_id) == (2, world.t["Gamma"].pk)


def test_a_token_is_read_as_select_related_reads_it(world):
    from rest_framework.authtoken.models import Token

    from campaign.api.authentication import token_with_user

    key = Token.objects.create(user=world.users["alice"]).key
    expected = Token.objects.select_related("user").get(key=key)
    found = token_with_user(key)
    assert found is not None
    assert _fields(found) == _fields(expected)
    assert _fields(found.user) == _fields(expected.user)
    assert found.user.is_authenticated and not found.user._state.adding
    assert token_with_user(key[:-1] + ("0" if key[-1] != "0" else "1")) is None


def test_a_token_is_refused_as_drf_refuses_it(world, client):
    """Unknown: 401 "Invalid token."; its user deactivated: 401 "User inactive or
    deleted." (DRF's own answers, in the API's error body)."""
    from rest_framework.authtoken.models import Token

    key = Token.objects.create(user=world.users["alice"]).key
    me = "/api/users/me/"
    assert client.get(me, HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    unknown = client.get(me, HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert unknown.status_code == 401 and unknown.json()["detail"] == "Invalid token."
    world.users["alice"].is_active = False
    world.users["alice"].save()
    inactive = client.get(me, HTTP_AUTHORIZATION=f"Token {key}")
    assert inactive.status_code == 401
    assert inactive.json()["detail"] == "User inactive or deleted."


def _battlefield_by_the_orm(player, campaign, territory_id):
    """`orders.selectors.battlefield_for_plan` as the ORM would say it."""
    from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q

    from economy.models import Unit
    from territories.models import Territory

    units_there = Unit.objects.filter(player=player, territory=OuterRef("pk")).exclude(
        status=Unit.Status.DESTROYED)
    ordered_there = Order.objects.filter(player=player, turn=campaign.turn,
                                         destination=OuterRef("pk"),
                                         status=Order.Status.OPEN)
    row = (Territory.objects.filter(campaign=campaign, pk=territory_id)
           .annotate(may_fight=ExpressionWrapper(
               Q(owner_id=player.pk) | Q(Exists(units_there)) | Q(Exists(ordered_there)),
               output_field=BooleanField()))
           .values_list("name", "may_fight").first())
    return (row[0], bool(row[1])) if row else None


def test_the_battlefield_of_a_plan_is_what_the_orm_formulation_answers(world):
    """Held, units there (not destroyed), an open order to it this turn: may fight; an
    order of another turn or carried out, a destroyed unit, another player's: may not;
    another campaign's territory or none: None."""
    from economy.models import Unit
    from orders.selectors import battlefield_for_plan

    t, campaign = world.t, world.campaign
    make_unit(world.alice, t["Delta"])  # alice's unit on bob's Delta
    Unit.objects.filter(pk=make_unit(world.alice, t["Epsilon"]).pk).update(
        status=Unit.Status.DESTROYED)
    Order.objects.create(campaign=campaign, turn=campaign.turn, player=world.alice,
                         unit=world.a1, origin=t["Alpha"], destination=t["Gamma"])
    Order.objects.create(campaign=campaign, turn=campaign.turn + 1, player=world.bob,
                         unit=world.b1, origin=t["Epsilon"], destination=t["Beta"])
    answers = {}
    for player in (world.alice, world.bob):
        for territory_id in [x.pk for x in t.values()] + [max(x.pk for x in t.values()) + 99]:
            found = battlefield_for_plan(player=player, campaign=campaign,
                                         territory_id=territory_id)
            assert found == _battlefield_by_the_orm(player, campaign, territory_id)
            answers[(player.pk, territory_id)] = found
    alice, bob = world.alice.pk, world.bob.pk
    assert answers[(alice, t["Gamma"].pk)] == ("Gamma", True)  # her order
    assert answers[(alice, t["Delta"].pk)] == ("Delta", True)  # her unit
    assert answers[(alice, t["Epsilon"].pk)] == ("Epsilon", False)  # destroyed there
    assert answers[(bob, t["Beta"].pk)] == ("Beta", False)  # next turn's order
    assert answers[(bob, t["Gamma"].pk)] == ("Gamma", False)  # nothing of his
    assert answers[(bob, t["Epsilon"].pk)] == ("Epsilon", True)  # held
    assert answers[(alice, max(x.pk for x in t.values()) + 99)] is None


def test_the_text_statements_are_prepared_on_postgresql_and_the_orms_are_not(world):
    """`campaign.sql` binds on the server: PostgreSQL plans the seat's statement once per
    connection (`DATABASE_PREPARE_THRESHOLD`); the ORM's cursors bind on the client and
    are never prepared."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements exist on PostgreSQL only")
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    user = world.users["alice"]
    for _ in range(threshold + 1):
        assert seat(user, world.campaign.pk).pk == world.alice.pk
        assert Player.objects.filter(campaign=world.campaign, user=user).count() == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('FROM "campaign_player" p' in statement for statement in prepared)
    assert not any("COUNT(*)" in statement for statement in prepared)


def test_a_replaced_order_is_the_row_the_orm_reads_afterwards(world):
    from orders.services.sealing import _replace_order

    campaign, t = world.campaign, world.t
    given = Order.objects.create(campaign=campaign, turn=campaign.turn, player=world.alice,
                                 unit=world.a1, origin=t["Alpha"], destination=t["Beta"])
    with transaction.atomic():
        replaced = _replace_order(campaign, world.a1.pk, t["Alpha"].pk, t["Gamma"].pk)
        assert _replace_order(campaign, world.a2.pk, t["Beta"].pk, t["Gamma"].pk) is None
    assert replaced is not None and not replaced._state.adding
    stored = Order.objects.get(pk=given.pk)
    assert _fields(replaced) == _fields(stored)
    assert (stored.public_id, stored.destination_id) == (given.public_id, t["Gamma"].pk)
    assert stored.updated_at >= given.updated_at
