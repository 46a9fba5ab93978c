"""A whole league turn on the pages alone (issue 26's "done when"), at a desk's width and
a phone's: the umpire makes the league public from the settings form; three players join
by the invitation; they buy and crew units, write to each other and to the table, and
alice seals an order (and reads its receipt); the umpire hands charlie's seat to dave and
then rolls back to the start of the move phase (the seat stays with dave); the tactical
phase resolves the battle; a signed-out spectator reads the league. On every page of the
run no visible text reads like debug output: no 10-digit number, no `word: number` pair.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_two_player_turn import _advance, _buy, _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG_NUMBER = re.compile(r"\b\d{10,}\b")
DEBUG_PAIR = re.compile(r"\b[a-z_]+: \d+\b")


class Reader:
    """Every page a test visits is read for debug-looking text before the test goes on."""

    def __init__(self) -> None:
        self.pages = 0

    def check(self, page: Any) -> None:
        text = page.locator("body").inner_text()
        assert not LONG_NUMBER.search(text), (page.url, LONG_NUMBER.findall(text)[:3])
        assert not DEBUG_PAIR.search(text), (page.url, DEBUG_PAIR.findall(text)[:3])
        self.pages += 1

    def visit(self, page: Any, url: str) -> None:
        page.goto(url)
        page.wait_for_load_state()
        self.check(page)


def _fits(page: Any, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width + 2, page.url


@pytest.mark.parametrize("width", [1366, 390])
def test_a_league_turn_on_the_pages_alone(browser, live_server, shoot, make_user, uma, alice,
                                          bob, charlie, width) -> None:
    from campaign.models import Campaign, Player
    from territories.models import Territory

    make_user("dave")
    base = live_server.url
    read = Reader()

    # --- the umpire creates the league and makes it public from the settings form
    u = _login(browser, base, "uma", width=width)
    u.get_by_role("link", name="Create a campaign").click()
    u.get_by_label("Campaign name").fill("Pages league")
    u.get_by_label("Meta-map").select_option("hex")
    u.get_by_label("Number of territories").fill("4")
    u.get_by_label("Seed").fill("1")
    u.get_by_role("button", name="Create campaign").click()
    u.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    cid = Campaign.objects.get(name="Pages league").pk
    invite = u.locator("code", has_text="/join/").first.inner_text()
    read.visit(u, f"{base}/campaigns/{cid}/umpire/settings/")
    u.get_by_label("Public league").check()
    u.get_by_role("button", name="Save settings").click()
    u.wait_for_load_state()
    assert Campaign.objects.get(pk=cid).settings.public is True

    # --- three players take a seat by the invitation link
    pages = {}
    for name in ("alice", "bob", "charlie"):
        page = _login(browser, base, name, width=width)
        page.goto(invite)
        page.get_by_role("button", name="Take a seat").click()
        page.wait_for_url(f"{base}/campaigns/{cid}/")
        pages[name] = page
    a, b, c = pages["alice"], pages["bob"], pages["charlie"]
    u.goto(f"{base}/campaigns/{cid}/")
    u.get_by_role("button", name="Start the campaign").click()
    u.wait_for_load_state()
    read.check(u)

    # --- commercial phase: alice and bob buy a Golem and hire a pilot
    for page in (a, b):
        read.visit(page, f"{base}/campaigns/{cid}/economy/")
        _buy(page, "Buy vehicle", "Model", "golem")
        _buy(page, "Hire", "Class", "soldier")
        read.check(page)
        _fits(page, width)

    # --- messages: alice writes to bob, bob reads (the badge) and answers; the table
    a.get_by_role("link", name=re.compile(r"^Messages")).first.click()
    a.wait_for_url(f"{base}/campaigns/{cid}/messages/")
    read.check(a)
    a.get_by_role("link", name=re.compile(r"\bbob\b")).first.click()
    a.get_by_label("Write to bob").fill("Shall we share the passes north?")
    a.get_by_role("button", name="Send").click()
    a.get_by_text("Shall we share the passes north?").wait_for()
    read.visit(b, f"{base}/campaigns/{cid}/")
    assert re.search(r"Messages\s*1", b.get_by_role("link", name=re.compile(r"^Messages"))
                     .first.inner_text())
    b.get_by_role("link", name=re.compile(r"^Messages")).first.click()
    b.get_by_role("link", name=re.compile(r"\balice\b")).first.click()
    b.get_by_text("Shall we share the passes north?").wait_for()
    b.get_by_label("Write to alice").fill("Agreed, for this turn.")
    b.get_by_role("button", name="Send").click()
    b.get_by_text("Agreed, for this turn.").wait_for()
    read.check(b)
    read.visit(c, f"{base}/campaigns/{cid}/messages/everyone/")
    c.get_by_label("Write to everyone").fill("Good luck, all.")
    c.get_by_role("button", name="Send").click()
    c.get_by_text("Good luck, all.").wait_for()
    read.visit(c, f"{base}/campaigns/{cid}/messages/")
    assert "passes north" not in c.locator("main").inner_text()
    _fits(c, width)

    # --- activity: crew the units
    _advance(u, base, cid, "Activity")
    for page in (a, b):
        read.visit(page, f"{base}/campaigns/{cid}/forces/")
        page.locator("select[name=pilot]").first.select_option(index=1)
        page.get_by_role("button", name="Crew").first.click()
        page.wait_for_load_state()
        assert "Unit updated" in page.locator(".messages").inner_text()

    # --- move: alice seals an order into bob's territory and keeps her receipt
    _advance(u, base, cid, "Move")
    target = Territory.objects.get(campaign_id=cid, owner__user=bob)
    read.visit(a, f"{base}/campaigns/{cid}/orders/")
    a.get_by_role("link", name="Choose destination").first.click()
    a.locator("#order-form").wait_for()
    a.get_by_label(target.name).check()
    a.get_by_role("button", name="Seal order").click()
    a.wait_for_load_state()
    assert "sealed" in a.locator("main").inner_text()
    receipt = a.locator("#order-receipt").inner_text()
    assert len(receipt) == 64
    read.check(a)

    # --- the umpire hands charlie's seat to dave, then rolls back to the move phase's
    # start: the game goes back, the seat stays with dave
    read.visit(u, f"{base}/campaigns/{cid}/umpire/seats/")
    seat = Player.objects.get(campaign_id=cid, user=charlie)
    u.get_by_label("Replace charlie with").fill("dave")
    u.locator(f"#h-{seat.pk}").locator("xpath=ancestor::form").get_by_role(
        "button", name="Hand the seat over").click()
    u.wait_for_load_state()
    assert Player.objects.get(pk=seat.pk).user.username == "dave"
    read.visit(u, f"{base}/campaigns/{cid}/umpire/correct/")
    u.get_by_role("button", name="Roll back…").click()
    u.wait_for_load_state()
    read.check(u)
    undone = u.locator("main").inner_text()
    assert "dave keeps the seat" in undone.lower()
    u.get_by_label("Why (the journal says it)").fill("Testing the rollback")
    u.get_by_label("I understand that everything listed above is undone").check()
    u.get_by_role("button", name="Roll back", exact=True).click()
    u.wait_for_load_state()
    assert Player.objects.get(pk=seat.pk).user.username == "dave"
    read.check(u)

    # --- alice seals her order again; the tactical phase fights the battle
    read.visit(a, f"{base}/campaigns/{cid}/orders/")
    a.get_by_role("link", name="Choose destination").first.click()
    a.locator("#order-form").wait_for()
    a.get_by_label(target.name).check()
    a.get_by_role("button", name="Seal order").click()
    a.wait_for_load_state()
    _advance(u, base, cid, "Tactical")
    read.visit(a, f"{base}/campaigns/{cid}/battles/")
    a.get_by_role("link", name="Battle report").first.click()
    a.get_by_role("heading", name=re.compile("Replay")).wait_for(timeout=30_000)
    read.check(a)
    _fits(a, width)
    read.visit(a, f"{base}/campaigns/{cid}/receipts/")
    assert "match the receipt" in a.locator("main").inner_text()
    read.visit(a, f"{base}/campaigns/{cid}/history/")
    shoot(a, f"league-history-{width}")

    # --- a signed-out spectator reads the public league, one click after another
    spectator = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    for path in ("", "map/", "battles/", "history/", "dice/", "stand-in/"):
        read.visit(spectator, f"{base}/campaigns/{cid}/{path}")
        assert "/accounts/login/" not in spectator.url, path
    spectator.get_by_role("link", name="Battles", exact=True).first.click()
    spectator.wait_for_load_state()
    spectator.get_by_role("link", name="Battle report").first.click()
    spectator.wait_for_load_state()
    assert "/accounts/login/" not in spectator.url
    read.check(spectator)
    assert "passes north" not in spectator.content()
    assert read.pages >= 25
    for page in (u, a, b, c, spectator):
        page.context.close()
