"""Issue 26 item 3: history people read. Every page of a played campaign, its Markdown
exports and its mails show names in sentences: no database id (a 10-digit number) and
no `word: number` debug pair in any visible text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.pages.test_crawl import crawl

pytestmark = pytest.mark.django_db

LONG_NUMBER = re.compile(r"\b\d{10,}\b")
DEBUG_PAIR = re.compile(r"\b[a-z0-9_]+: \d+\b")


class VisibleText(HTMLParser):
    """The text a reader sees: not scripts, styles or templates; folded <details> count
    too (a reader opens them)."""

    HIDDEN = {"script", "style", "template", "svg", "title"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth and data.strip():
            self.parts.append(" ".join(data.split()))


def debug_text(text: str) -> list[str]:
    """The pieces of `text` that read as debug output."""
    return LONG_NUMBER.findall(text) + DEBUG_PAIR.findall(text)


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return "\n".join(parser.parts)


def test_the_debug_patterns_catch_what_the_issue_quotes() -> None:
    for text in ("player: 13", "first picker: 11", "Initiative: side 6 (10: 1, 6: 3)",
                 "arakne #4191604156651550"):
        assert debug_text(text), text
    assert not debug_text("alice bought a Golem at Kepler for 400 SC.")


@pytest.mark.parametrize("role", ["uma", "alice", "bob"])
def test_no_page_of_a_played_campaign_shows_ids_or_debug_pairs(
        role, request, web_client, played_campaign) -> None:
    found: dict[str, list[str]] = {}

    def inspect(url: str, html: str) -> None:
        bad = debug_text(visible(html))
        if bad:
            found[url] = bad

    seen = crawl(web_client(request.getfixturevalue(role)), "/", inspect=inspect)
    assert f"/campaigns/{played_campaign.pk}/history/" in seen
    assert not found, found


def test_markdown_exports_name_people_and_places_without_ids(web_client, played_campaign,
                                                              uma, alice) -> None:
    from battles.models import Battle

    base = f"/campaigns/{played_campaign.pk}/"
    exports = [f"{base}history/turn-{turn}.md" for turn in range(played_campaign.turn + 1)]
    exports += [f"{base}battles/{b.pk}/report.md"
                for b in Battle.objects.filter(campaign=played_campaign)]
    for user in (uma, alice):
        client = web_client(user)
        texts = {}
        for url in exports:
            response = client.get(url)
            assert response.status_code == 200, url
            texts[url] = response.content.decode()
        assert any("alice" in t and "bob" in t for t in texts.values())
        bad = {url: debug_text(text) for url, text in texts.items() if debug_text(text)}
        assert not bad, bad


def test_mails_read_as_sentences_with_a_link_and_no_id(played_campaign) -> None:
    from campaign.services.notifications import KINDS, message

    for kind in (*(k for k in KINDS if k != "message"), "nudge"):  # "message": message_mail
        subject, body = message(played_campaign, kind, played_campaign.turn,
                                played_campaign.phase)
        assert not debug_text(subject + "\n" + body), (kind, subject, body)
        assert f"/campaigns/{played_campaign.pk}/" in body, kind
    _subject, body = message(played_campaign, "results", played_campaign.turn,
                             played_campaign.phase)
    assert "Battle of Alpha: bob wins." in body


def test_the_dashboard_reads_out_the_latest_entries_each_reader_may_see(
        web_client, played_campaign, alice, bob) -> None:
    base = f"/campaigns/{played_campaign.pk}/"
    hers = visible(web_client(alice).get(base).content.decode())
    assert "Latest in the journal" in hers
    assert "Battle of Alpha: bob wins." in hers
    assert not debug_text(hers)
    # bob's pilot's experience is his to read (a private entry), not alice's
    his = visible(web_client(bob).get(base).content.decode())
    assert "Rook gains 2 XP in the battle of Alpha." in his
    assert "Rook gains" not in hers
