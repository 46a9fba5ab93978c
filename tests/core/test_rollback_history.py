"""Issue 32, target 3 ("history must not slow a turn"): a phase start names the journal by
its last entry instead of copying it, so keeping one costs the same statements and the
same bytes however long the journal is; the document it gives, and a rollback to it, are
the same as when it copied the journal (tests/core/test_rollback.py)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, Event, PhaseStart
from campaign.services import clock
from campaign.services.export import export_campaign
from campaign.services.journal import record_event
from campaign.services.rollback import remember_start, rollback

pytestmark = pytest.mark.django_db


def _keep(campaign: Campaign) -> tuple[int, int]:
    """(statements, bytes kept) of keeping the current phase's start."""
    with CaptureQueriesContext(connection) as queries:
        remember_start(Campaign.objects.get(pk=campaign.pk))
    start = PhaseStart.objects.get(campaign=campaign, turn=campaign.turn,
                                   phase=campaign.phase)
    return len(queries), len(json.dumps(start.stored))


def test_keeping_a_start_does_not_grow_with_the_journal(league):
    short = _keep(league)
    players = list(league.players.all())
    for i in range(300):  # a long history: entries public and private, with readers
        record_event(campaign=league, kind="production", data={"turn": 1, "i": i,
                                                               "lines": ["x" * 200]},
                     visibility=Event.Visibility.PRIVATE, viewers=players[i % 2:][:1])
    long = _keep(league)
    assert long[0] == short[0]  # the same statements
    assert abs(long[1] - short[1]) <= 10  # the same bytes, but for the last entry's id


def test_the_document_holds_the_journal_as_it_stood(league):
    players = list(league.players.all())
    record_event(campaign=league, kind="note", data={"a": 1},
                 visibility=Event.Visibility.PRIVATE, viewers=players)
    remember_start(Campaign.objects.get(pk=league.pk))
    expected = export_campaign(Campaign.objects.get(pk=league.pk), complete=True)
    record_event(campaign=league, kind="later", data={})  # after the start: not in it
    start = PhaseStart.objects.get(campaign=league, turn=1, phase="commercial")
    assert "journal" not in start.stored and start.journal_through is not None
    document = start.document
    document.pop("exported_at"), expected.pop("exported_at")
    assert document == expected
    assert [e["viewers"] for e in document["journal"] if e["kind"] == "note"] == [
        sorted(p.pk for p in players)]


def test_a_rollback_deletes_the_entries_made_since_and_keeps_the_older_ones(league):
    before = set(Event.objects.filter(campaign=league).values_list("pk", flat=True))
    clock.advance(campaign_id=league.pk, by="umpire")  # -> activity (entries made)
    record_event(campaign=league, kind="settings_changed", data={})  # administration
    made = set(Event.objects.filter(campaign=league).values_list("pk", flat=True)) - before
    assert made
    rollback(campaign_id=league.pk, turn=1, phase="commercial", by="umpire")
    after = dict(Event.objects.filter(campaign=league).values_list("pk", "kind"))
    assert before <= after.keys()  # every older entry stays, with its id
    assert {after[pk] for pk in after.keys() & made} <= {
        "settings_changed", "dice_committed", "dice_revealed"}
    assert "campaign_rolled_back" in after.values()


def test_a_start_kept_with_its_journal_copied_still_rolls_back(league):
    """A start kept by an older release holds its journal: it is read as it was."""
    start = PhaseStart.objects.get(campaign=league, turn=1, phase="commercial")
    start.stored = start.document  # the journal copied into the document
    start.save()
    assert start.journal_through is None and "journal" in start.stored
    before = set(Event.objects.filter(campaign=league).values_list("pk", flat=True))
    clock.advance(campaign_id=league.pk, by="umpire")
    rollback(campaign_id=league.pk, turn=1, phase="commercial", by="umpire")
    kinds = dict(Event.objects.filter(campaign=league).values_list("pk", "kind"))
    assert before <= kinds.keys()
    assert Campaign.objects.get(pk=league.pk).phase == "commercial"
