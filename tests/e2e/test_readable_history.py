"""Issue 26: history people read, in a browser. alice reads the demo league's journal and
a battle report on a laptop (1366x800) and a phone (390x844): sentences with the names
of players, places and units, the raw dice folded away until she opens them, and no id
or `word: number` pair anywhere she can see."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest

from tests.e2e.test_two_player_turn import _login
from tests.pages.test_readable_text import debug_text

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _demo() -> Any:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from campaign.models import Campaign
    from tests.conftest import PASSWORD

    call_command("demo", "--if-empty", stdout=StringIO())
    user = get_user_model().objects.get(username="alice")
    user.set_password(PASSWORD)
    user.save()
    return Campaign.objects.get(name="Demo league")


def _open_all_details(page: Any) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def _tap_size(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    return box["width"], box["height"]


@pytest.mark.parametrize("width,height", [(1366, 800), (390, 844)])
def test_alice_reads_the_journal_and_a_battle_report_in_sentences(
        browser, live_server, shoot, width, height) -> None:
    from battles.models import Battle

    demo = _demo()
    battle = Battle.objects.filter(campaign=demo, status="finished").order_by("turn").first()
    assert battle is not None
    page = _login(browser, live_server.url, "alice", width=width)
    page.set_viewport_size({"width": width, "height": height})
    base = f"{live_server.url}/campaigns/{demo.pk}/"

    page.goto(base + f"history/?turn={battle.turn}")
    text = page.inner_text("#history-list")
    assert f"Turn {battle.turn}: the commercial phase opens." in text
    assert f"Battle of {battle.territory.name}: " in text and "alice" in text
    assert not debug_text(text), debug_text(text)
    folded = page.locator("#history-list details.dice")
    if folded.count():
        assert not folded.first.evaluate("d => d.open")
        w, h = _tap_size(page, "#history-list details.dice > summary")
        assert w >= 24 and h >= 24, (w, h)
        folded.first.locator("summary").click()
        assert "active" in folded.first.inner_text()
    _open_all_details(page)
    assert not debug_text(page.inner_text("body")), debug_text(page.inner_text("body"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"readable-history-{width}")

    page.goto(base + f"battles/{battle.pk}/")
    log = page.locator("section[aria-labelledby=log-h]")
    turns = log.locator(":scope > details")
    assert turns.count() > 1 and turns.first.evaluate("d => d.open")
    turns.nth(1).locator("summary").click()  # the first engine turn: a unit acts
    said = turns.nth(1).locator("ol > li").first.inner_text()
    assert "'s " in said, said
    _open_all_details(page)
    body = page.inner_text("body")
    assert "'s " in body and "Dice" in body
    assert "die" in body  # the rolls, once unfolded
    assert not debug_text(body), debug_text(body)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"readable-battle-{width}")

    report = page.context.request.get(base + f"battles/{battle.pk}/report.md").text()
    assert report.startswith("## Battle of") and not debug_text(report)
