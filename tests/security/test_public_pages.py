"""The page side of the spectator rule (API.md "History, spectators, people": a public
league's campaign, territories, battles and finished battles are read by anyone; never
orders, private journal entries, deposits or credits). Issue 26 item 11: a spectator
meets no login wall on the dashboard, the territory pages, the battles, the dice and
their verification.

Matrix: every campaign page x {signed out, signed-in outsider} x {public, private
league}. Public: the readable pages answer 200 and show nothing of the seats' business,
the seats' pages stay closed; private: a login redirect (signed out) or a 404 (outsider),
as before."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client
from django.utils import timezone

from battles.models import Battle
from campaign.models import Campaign, Event, PhaseChange, PhaseSeed, Player
from campaign.services.commitments import commitment_of
from economy.models import Operative, Unit
from territories.models import Adjacency, Exploration, Territory

pytestmark = pytest.mark.django_db

CREDITS = 98765
SECRET_ENTRY = "SECRET-PURCHASE-ENTRY"
NAMES = ("Alpha", "Beta", "Gamma")


@pytest.fixture
def league(uma, alice, bob):
    campaign = Campaign.objects.create(name="Spectated league", umpire=uma,
                                       status=Campaign.Status.RUNNING, turn=2, phase="move",
                                       seed=5, options={"webhook_url": ""})
    PhaseChange.objects.create(campaign=campaign, turn=2, phase="move", opened_by="start")
    players = {u.username: Player.objects.create(campaign=campaign, user=u, credits=CREDITS)
               for u in (alice, bob)}
    t = {n: Territory.objects.create(campaign=campaign, name=n) for n in NAMES}
    for a, b in itertools.pairwise(NAMES):
        Adjacency.objects.create(campaign=campaign, a=t[a], b=t[b])
    Territory.objects.filter(pk=t["Alpha"].pk).update(owner=players["alice"], ever_owned=True)
    Territory.objects.filter(pk=t["Gamma"].pk).update(owner=players["bob"], ever_owned=True)
    Exploration.objects.create(campaign=campaign, territory=t["Alpha"],
                               player=players["alice"], turn=1, active_die=3, passive_die=4,
                               nemesis_die=5, resource="iron", units_per_shaft=7)
    pilot = Operative.objects.create(player=players["alice"], territory=t["Alpha"],
                                     klass="soldier")
    unit = Unit.objects.create(player=players["alice"], territory=t["Alpha"], model="golem",
                               pilot=pilot)
    from orders.models import Order

    Order.objects.create(campaign=campaign, turn=2, player=players["alice"], unit=unit,
                         origin=t["Alpha"], destination=t["Beta"])
    secret = Event.objects.create(campaign=campaign, turn=1, phase="commercial",
                                  kind="purchase", data={"item": SECRET_ENTRY, "cost": 1},
                                  visibility=Event.Visibility.PRIVATE)
    secret.viewers.set([players["alice"]])
    seed = "a" * 64
    PhaseSeed.objects.create(campaign=campaign, turn=1, phase="commercial", secret=seed,
                             commitment=commitment_of(seed),
                             revealed_at=timezone.now())
    finished = Battle.objects.create(campaign=campaign, turn=1, territory=t["Gamma"], order=1,
                                     sides=[], input={}, seed=1, status="finished")
    return campaign, t, finished


def _readable(campaign, t, finished) -> dict[str, str]:
    c = f"/campaigns/{campaign.pk}/"
    pages = {"dashboard": c, "map": c + "map/", "map history": c + "map/?at=0",
             "battles": c + "battles/",
             "battle": c + f"battles/{finished.pk}/", "history": c + "history/",
             "dice": c + "dice/", "verification": c + "dice/?verify=all"}
    pages.update({f"territory {n}": c + f"territories/{t[n].pk}/" for n in NAMES})
    return pages


def _closed(campaign) -> dict[str, str]:
    c = f"/campaigns/{campaign.pk}/"
    return {"economy": c + "economy/", "forces": c + "forces/", "orders": c + "orders/",
            "umpire": c + "umpire/"}


def _make_public(campaign) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(options={**campaign.options,
                                                            "public": True})


def _outsider(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user(username="dora",
                                                             password="x" * 12))
    return client


def test_a_spectator_reads_every_public_page_without_a_login_wall(league, django_user_model):
    campaign, t, finished = league
    _make_public(campaign)
    for who, visitor in (("signed out", Client()), ("outsider", _outsider(django_user_model))):
        for name, path in _readable(campaign, t, finished).items():
            answer = visitor.get(path)
            assert answer.status_code == 200, (who, name, answer.status_code)
            html = answer.content.decode()
            assert "/accounts/login/?next" not in html, (who, name)
            assert "/accounts/signup/?next" not in html, (who, name)
            assert str(CREDITS) not in html, (who, name, "credits")
            assert SECRET_ENTRY not in html, (who, name, "private entry")
            assert "Deposit:" not in html and "units per mine shaft" not in html, (who, name)
            assert "Your credits" not in html and "I am ready" not in html, (who, name)


def test_the_verification_of_a_public_leagues_dice_is_shown_to_a_spectator(league):
    campaign, _t, _finished = league
    _make_public(campaign)
    html = Client().get(f"/campaigns/{campaign.pk}/dice/?verify=all").content.decode()
    assert '<span class="badge ok">verified</span>' in html
    assert "Clone a sandbox" not in html


def test_the_seats_pages_stay_closed_to_a_spectator(league, django_user_model):
    campaign, _t, _finished = league
    _make_public(campaign)
    outsider = _outsider(django_user_model)
    for name, path in _closed(campaign).items():
        signed_out = Client().get(path)
        assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"], \
            name
        assert outsider.get(path).status_code in (403, 404), name
    orders = outsider.get(f"/campaigns/{campaign.pk}/orders/")
    assert "Beta" not in orders.content.decode()


def test_a_private_leagues_pages_ask_to_log_in_or_do_not_exist(league, django_user_model):
    campaign, t, finished = league
    outsider = _outsider(django_user_model)
    pages = {**_readable(campaign, t, finished), **_closed(campaign)}
    for name, path in pages.items():
        signed_out = Client().get(path)
        assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"], \
            name
        assert outsider.get(path).status_code == 404, name


def test_what_the_spectator_does_not_see_is_there_for_its_owner(league, alice):
    """The secrets the spectator tests look for are really on the pages of their owner
    (so the checks above can fail)."""
    campaign, t, _finished = league
    _make_public(campaign)
    owner = Client()
    owner.force_login(alice)
    assert str(CREDITS) in owner.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Deposit:" in owner.get(
        f"/campaigns/{campaign.pk}/territories/{t['Alpha'].pk}/").content.decode()
    assert SECRET_ENTRY in owner.get(f"/campaigns/{campaign.pk}/history/").content.decode()


def test_a_sandbox_is_never_read_by_a_spectator_even_marked_public(league, django_user_model):
    campaign, t, finished = league
    Campaign.objects.filter(pk=campaign.pk).update(
        is_sandbox=True, options={**campaign.options, "public": True})
    outsider = _outsider(django_user_model)
    for name, path in _readable(campaign, t, finished).items():
        assert Client().get(path).status_code == 302, name
        assert outsider.get(path).status_code == 404, name
