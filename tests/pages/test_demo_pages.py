"""The demo league (`manage.py demo`, what `make run` shows) renders for each of its
users: every link the umpire and the four players can follow answers without a 4xx/5xx,
each page within a bounded number of SQL queries, and passes the accessibility checks.

`transaction=True`: the demo's battles are jobs enqueued on commit, as in production."""

from __future__ import annotations

import pytest
from django.http import HttpRequest
from django.test import Client

from tests.pages.a11y import page_problems
from tests.pages.test_crawl import crawl

MAX_QUERIES = 40


@pytest.mark.django_db(transaction=True)
def test_every_page_of_the_demo_league_renders_for_its_users() -> None:
    from battles.demo import DEMO_PASSWORD, PLAYERS, UMPIRE, play_demo_league
    from battles.models import Battle
    from campaign.models import TurnSnapshot

    report = play_demo_league(turns=2)
    campaign = report.campaign
    assert campaign.turn == 3 and campaign.phase == "commercial"
    assert TurnSnapshot.objects.filter(campaign=campaign).values("turn").distinct().count() \
        == 2
    battles = list(Battle.objects.filter(campaign=campaign))
    assert battles and all(b.status == "finished" for b in battles)
    base = f"/campaigns/{campaign.pk}/"
    for username in (UMPIRE, *PLAYERS):
        client = Client()
        # django-axes needs the request the credentials came with.
        assert client.login(request=HttpRequest(), username=username,
                            password=DEMO_PASSWORD), username
        problems: dict[str, list[str]] = {}

        def inspect(url: str, html: str, problems=problems) -> None:
            if found := page_problems(html):
                problems[url] = found

        seen = crawl(client, "/", inspect=inspect, max_queries=MAX_QUERIES, limit=600)
        mine = [u for u in seen if u.startswith(base)]
        assert len(mine) >= 10, (username, seen)
        assert f"{base}history/" in seen and any("/battles/" in u and "turn=" in u
                                                 for u in mine), username
        assert not {u: s for u, s in seen.items() if s >= 400}, username
        assert not problems, (username, problems)
