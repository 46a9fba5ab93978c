"""Rolling a campaign back to the start of its current or previous phase (issue 18; API.md
"Trust": `POST /api/campaigns/{id}/rollback/`).

When a phase opens, the clock keeps the whole campaign as it stands (`PhaseStart`, a
complete export: sealed orders and secret seeds included, never shown; the journal, which
is append-only, named by its last entry rather than copied, so keeping a start does not
grow with the league's age: issue 32). A rollback puts
every row of the campaign back as it was then, with the same ids: the rows made since
are deleted, the rows changed since restored (ledger, holdings, units, orders, battles,
the journal). The map's territories stay (their owners are restored); nothing outside the
campaign changes. A journal entry says who rolled back, to where and why.

What a rollback does not undo (issue 26, R-DICE-4): administration — who plays which seat
(a hand-over stays), the settings, whether the clock is paused, and their journal entries
— and the dice: every seed committed since stays, revealed or not, so a phase entered
again rolls with the seed it committed the first time (`commitments.commit`).
`rollback_preview` lists, in sentences, what a rollback would undo.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import JSONField, Q
from django.db.models.expressions import RawSQL
from django.utils import timezone

from campaign.errors import Conflict, InvalidInput
from campaign.hooks import Hook
from campaign.models import (
    Campaign,
    Event,
    PhaseChange,
    PhaseSeed,
    PhaseStart,
    Player,
)
from campaign.services import notifications
from campaign.services.export import export_campaign_sql
from campaign.services.imports import _timestamps, registered_tables
from campaign.services.journal import record_event
from campaign.sql import model_field

if TYPE_CHECKING:
    from campaign.access import Membership

#: Tables kept (their rows updated in place), not deleted and recreated.
KEPT_SECTIONS = ("territories", "adjacency")

#: Journal entries a rollback keeps (those made since its point stay): administration
#: (issue 26) and the dice's commitments and reveals (issue 30, R-DICE-4).
KEPT_EVENTS = ("seat_handed_over", "settings_changed", "deadline_set", "clock_paused",
               "clock_resumed", "campaign_rolled_back", "dice_committed", "dice_revealed")

#: A seat's game state, put back; who plays it and its colour are administration.
SEAT_STATE = ("credits", "research_points", "missed_turns", "ready", "faction")


#: Rollback reaches the current or the previous phase: older starts are dropped.
STARTS_KEPT = 2


rollback_restored: Hook[[Campaign], object] = Hook("rollback_restored", """A rollback put
the campaign's rows back.

Called by `campaign.services.rollback.rollback` with the campaign, once every row is back
and the clock reset, inside the rollback's transaction; the result is unused (battles:
send again the job of every unfinished battle restored, so none waits out its lease;
orders: forget the receipts of the orders undone).""")


def remember_start(campaign: Campaign) -> None:
    """Keep the campaign as it stands at the opening of its current phase (and only the
    starts a rollback can reach)."""
    # The database builds the document from its rows (they never travel: issue 32), on
    # PostgreSQL and SQLite alike.
    # The journal is named by its last entry, not copied (issue 32: the cost of keeping a
    # start must not grow with the campaign's age; `PhaseStart.stored`).
    sql, params = export_campaign_sql(campaign, complete=True, journal=False)
    document: Any = RawSQL(sql, params, output_field=JSONField())
    kept_here = PhaseStart.objects.filter(campaign=campaign, turn=campaign.turn,
                                          phase=campaign.phase)
    if not kept_here.update(stored=document):
        PhaseStart.objects.create(campaign=campaign, turn=campaign.turn,
                                  phase=campaign.phase, stored=document)
    kept = list(PhaseStart.objects.filter(campaign=campaign).order_by("-id")
                .values_list("pk", flat=True)[:STARTS_KEPT])
    PhaseStart.objects.filter(campaign=campaign).exclude(pk__in=kept).delete()


def rollback_points(campaign: Campaign) -> list[tuple[int, str]]:
    """The current phase's start and the previous one's, newest first."""
    opened = list(PhaseChange.objects.filter(campaign=campaign).order_by("-id")
                  .values_list("turn", "phase")[:2])
    kept = set(PhaseStart.objects.filter(campaign=campaign).values_list("turn", "phase"))
    return [(t, p) for t, p in opened if (t, p) in kept]


def _restore(model: type[models.Model], rows: list[dict[str, Any]],
             deferred: tuple[str, ...] = ()) -> list[models.Model]:
    objs = []
    later: list[tuple[models.Model, dict[str, Any]]] = []
    fields = {f.attname: f for f in model._meta.concrete_fields}
    for raw in rows:
        row = {k: (fields[k].to_python(v) if k in fields and v is not None else v)
               for k, v in raw.items() if k != "viewers"}
        data = dict(row)
        held = {f"{name}_id": data.pop(f"{name}_id", None) for name in deferred}
        obj = model(**data)
        objs.append(obj)
        if any(v is not None for v in held.values()):
            later.append((obj, held))
    model._default_manager.bulk_create(objs)
    stamps = _timestamps(model)
    if stamps:
        pk = model._meta.pk.attname
        by_pk = {row[pk]: row for row in rows}
        for obj in objs:
            for name in stamps:
                value = by_pk[obj.pk][name]
                setattr(obj, name, fields[name].to_python(value) if value else value)
        model._default_manager.bulk_update(objs, stamps)
    for obj, held in later:
        for name, value in held.items():
            setattr(obj, name, value)
        obj.save(update_fields=list(held))
    return objs


def rollback(*, campaign_id: int, turn: Any, phase: Any, by: str, reason: str = "") -> Campaign:
    try:
        turn = int(turn)
    except (TypeError, ValueError):
        raise InvalidInput("turn must be a whole number.", code="invalid_turn") from None
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if campaign.status != Campaign.Status.RUNNING:
            raise Conflict("Only a running campaign can be rolled back.", code="not_running")
        if (turn, str(phase)) not in rollback_points(campaign):
            points = ", ".join(f"turn {t} {p}" for t, p in rollback_points(campaign))
            raise Conflict("A campaign rolls back to the start of its current or previous "
                           f"phase ({points or 'none kept'}).", code="invalid_rollback")
        start = PhaseStart.objects.get(campaign=campaign, turn=turn, phase=str(phase))
        # A start that names its journal by its last entry: the entries up to it stay
        # where they are (the journal is append-only), those made since go.
        journal_end = start.journal_through
        doc = start.stored if journal_end is not None else start.document
        by_section = registered_tables()
        tables = [t for t in by_section.values() if t.section not in KEPT_SECTIONS]
        journal_then = {r["id"] for r in doc.get("journal") or []}
        # Delete what exists now, last table first (a turret's weapon link first).
        for table in reversed(tables):
            qs = _campaign_rows(table.model, campaign)
            for name in table.deferred:
                qs.update(**{f"{name}_id": None})
        for table in reversed(tables):
            rows = _campaign_rows(table.model, campaign)
            if table.model is Event and journal_end is not None:
                rows = _journal_since(rows, journal_end)
            elif table.model is Event:  # administration and dice entries made since stay
                rows = rows.exclude(Q(kind__in=KEPT_EVENTS) & ~Q(pk__in=journal_then))
            rows.delete()
        # Put back what was there at the start of the phase, with the same ids.
        for section in KEPT_SECTIONS[:1]:
            table = by_section[section]
            rows = {r["id"]: r for r in doc.get(section) or []}
            objs = list(table.model._default_manager.filter(pk__in=rows))
            fields = [f.attname for f in table.model._meta.concrete_fields
                      if not f.primary_key and f.attname in next(iter(rows.values()), {})]
            for obj in objs:
                for name in fields:
                    setattr(obj, name, rows[obj.pk][name])
            table.model._default_manager.bulk_update(objs, fields)
        for table in tables:
            made = _restore(table.model, list(doc.get(table.section) or []), table.deferred)
            if table.model is Event:
                readers = {r["id"]: r.get("viewers") or [] for r in doc.get("journal") or []}
                through = Event.viewers.through
                through.objects.bulk_create([through(event_id=e.pk, player_id=p)
                                             for e in made for p in readers.get(e.pk, [])])
        # R-DICE-4: every seed stays as it is now (committed since, or revealed since);
        # only a seed missing now comes back from the document.
        seeds_now = set(PhaseSeed.objects.filter(campaign=campaign)
                        .values_list("turn", "phase"))
        seeds_then = {(r["turn"], r["phase"]) for r in doc.get("seeds") or []}
        _restore(PhaseSeed, [r for r in doc.get("seeds") or []
                             if (r["turn"], r["phase"]) not in seeds_now])
        kept_seeds = [{"turn": t, "phase": p, "commitment": c} for t, p, c in
                      PhaseSeed.objects.filter(campaign=campaign)
                      .values_list("turn", "phase", "commitment")
                      if (t, p) not in seeds_then]
        seats = {r["id"]: r for r in doc.get("seats") or []}
        for player in Player.objects.filter(campaign=campaign):
            row = seats.get(player.pk)
            if row is None:
                continue
            handed_over = row.get("user_id") not in (None, player.user_id)
            for name in SEAT_STATE:
                if name in row and not (handed_over and name == "missed_turns"):
                    setattr(player, name, row[name])
            if player.removed_at is not None:
                # A removal (R-ORD-11) is administration and stays; nobody plays the seat,
                # so it stays ready as the clock keeps it.
                player.ready = True
            player.save()
        head = doc["campaign_row"]
        same_phase = (campaign.turn, campaign.phase) == (turn, str(phase))
        for name in ("turn", "phase", "status"):
            if name in head:
                field = model_field(Campaign, name)
                value = head[name]
                setattr(campaign, name, field.to_python(value) if value is not None else None)
        _reset_clock(campaign, same_phase=same_phase)
        campaign.save()
        rollback_restored.call(campaign)
        record_event(campaign=campaign, kind="campaign_rolled_back",
                     data={"to_turn": turn, "to_phase": str(phase), "by": str(by),
                           "reason": str(reason)[:500], "seeds_kept": kept_seeds})

        notifications.rolled_back(campaign=campaign)
    return campaign


def _reset_clock(campaign: Campaign, *, same_phase: bool) -> None:
    """The clock after a rollback (issue 26: deadlines are administration). Back to the
    start of the phase it is in, the deadline the umpire left stands (a future one; the
    time kept while paused); back to the previous phase, that phase gets its full time
    again. Paused or running, the clock stays as the umpire left it."""
    now = timezone.now()
    campaign.phase_started_at = now
    if same_phase and (campaign.paused or (campaign.phase_deadline is not None
                                           and campaign.phase_deadline > now)):
        return
    campaign.phase_deadline = None
    campaign.paused_remaining = None
    duration = campaign.settings.as_dict().get(f"{campaign.phase}_seconds") or 0
    if duration and campaign.paused:
        campaign.paused_remaining = dt.timedelta(seconds=int(duration))
    elif duration:
        from campaign.services.clock import deadline_after  # noqa: PLC0415 (cycle: campaign.services.rollback -> campaign.services.clock -> campaign.services.rollback)

        campaign.phase_deadline = deadline_after(campaign, now,
                                                 dt.timedelta(seconds=int(duration)))


def _journal_since(entries: Any, through: int) -> Any:
    """The entries a rollback to a start whose journal ends at `through` deletes: those
    made since, except administration and the dice's (`KEPT_EVENTS`)."""
    return entries.filter(pk__gt=through).exclude(kind__in=KEPT_EVENTS)


def _campaign_rows(model: type[models.Model], campaign: Campaign) -> Any:
    """The rows of one table that belong to the campaign."""
    names = {f.name for f in model._meta.concrete_fields}
    for path in ("campaign", "player__campaign", "territory__campaign", "battle__campaign"):
        if path.split("__")[0] in names:
            return model._default_manager.filter(**{path: campaign})
    raise RuntimeError(f"{model.__name__}: no way to the campaign")


@dataclass(frozen=True)
class Preview:
    """What a rollback to one point would undo and what it keeps, in sentences."""

    turn: int
    phase: str
    undone: list[str]
    kept: list[str]


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _names(names: list[str]) -> str:
    names = sorted(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def rollback_preview(*, member: Membership, turn: Any, phase: Any) -> Preview:
    """A read (no write): what rolling back to (turn, phase) would undo, for the
    confirmation page (issue 26): people, units and places by name, never an id. Sealed
    orders are counted only for an umpire who may read them. Raises like `rollback` for a
    point it would refuse."""
    campaign = member.campaign
    try:
        turn = int(turn)
    except (TypeError, ValueError):
        raise InvalidInput("Choose the phase start to roll back to.",
                           code="invalid_turn") from None
    if (turn, str(phase)) not in rollback_points(campaign):
        points = ", ".join(f"turn {t} {p}" for t, p in rollback_points(campaign))
        raise Conflict("A campaign rolls back to the start of its current or previous "
                       f"phase ({points or 'none kept'}).", code="invalid_rollback")
    start = PhaseStart.objects.get(campaign=campaign, turn=turn, phase=str(phase))
    through = start.journal_through
    doc = start.stored if through is not None else start.document
    seats_then = {r["id"]: r for r in doc.get("seats") or []}
    users = dict(Player.objects.filter(campaign=campaign)
                 .values_list("pk", "user__username"))
    users_then = dict(get_user_model().objects.filter(
        pk__in=[r.get("user_id") for r in seats_then.values()])
        .values_list("pk", "username"))
    undone: list[str] = []
    kept: list[str] = []

    # Orders given since (sealed ones counted only for an umpire who may read them).
    then = {r["id"] for r in doc.get("orders") or []}
    by_section = registered_tables()  # the apps' tables, by section
    if member.may_read_sealed and "orders" in by_section:  # the orders app's table
        given: dict[tuple[str, int], int] = {}
        for pk, player_id, order_turn in (_campaign_rows(by_section["orders"].model,
                                                         campaign)
                                          .values_list("pk", "player_id", "turn")):
            if pk not in then:
                key = (users[player_id], order_turn)
                given[key] = given.get(key, 0) + 1
        for (who, order_turn), count in sorted(given.items()):
            when = "this turn" if order_turn == campaign.turn else f"turn {order_turn}"
            undone.append(f"{who}'s {_n(count, 'order')} for {when}")
    elif "move" in (str(phase), campaign.phase):  # orders are given in the move phase only
        undone.append("every order given in the move phase (sealed: not counted here)")

    # Credits and research of the seats.
    seats_now = list(Player.objects.filter(campaign=campaign)
                     .values_list("pk", "credits", "research_points"))
    credits = [users[pk] for pk, c, _r in seats_now
               if pk in seats_then and seats_then[pk].get("credits") != c]
    research = [users[pk] for pk, _c, r in seats_now
                if pk in seats_then and seats_then[pk].get("research_points") != r]
    if credits:
        undone.append(f"the credits of {_n(len(credits), 'player')} ({_names(credits)}): "
                      "back to what they held then")
    if research:
        undone.append(f"the research points of {_names(research)}")

    # Holdings: territories, units, battles (the apps' tables, through the registry).
    territory_model = by_section["territories"].model
    names = dict(_campaign_rows(territory_model, campaign).values_list("pk", "name"))
    owners_then = {r["id"]: r.get("owner_id") for r in doc.get("territories") or []}
    for pk, name, owner in (_campaign_rows(territory_model, campaign)
                            .order_by("name").values_list("pk", "name", "owner_id")):
        before = owners_then.get(pk, owner)
        if before != owner:
            who = users.get(before, "nobody") if before else "nobody"
            undone.append(f"{name} changed hands: it goes back to {who}")
    if "units" in by_section:
        units_then = {r["id"] for r in doc.get("units") or []}
        units_now = list(_campaign_rows(by_section["units"].model, campaign)
                         .values_list("pk", "player_id"))
        new: dict[int, int] = {}
        for pk, player_id in units_now:
            if pk not in units_then:
                new[player_id] = new.get(player_id, 0) + 1
        for player_id, count in sorted(new.items(), key=lambda kv: users[kv[0]]):
            undone.append(f"{users[player_id]}'s {_n(count, 'new unit')}")
        gone = units_then - {pk for pk, _p in units_now}
        lost: dict[int, int] = {}
        for row in doc.get("units") or []:
            if row["id"] in gone:
                lost[row["player_id"]] = lost.get(row["player_id"], 0) + 1
        for player_id, count in sorted(lost.items(), key=lambda kv: users.get(kv[0], "")):
            undone.append(f"{users.get(player_id, 'a former player')}'s "
                          f"{_n(count, 'unit')} lost since, which come back")
    if "battles" in by_section:
        battles_then = {r["id"]: r.get("status") for r in doc.get("battles") or []}
        for pk, territory_id, status, battle_turn in (
                _campaign_rows(by_section["battles"].model, campaign).order_by("order", "pk")
                .values_list("pk", "territory_id", "status", "turn")):
            where = names.get(territory_id, "a territory")
            if pk not in battles_then:
                undone.append(f"the battle at {where} (turn {battle_turn}), opened since")
            elif battles_then[pk] != status:
                undone.append(f"what happened in the battle at {where} since (it is "
                              "fought again)")
    if through is not None:
        entries = _journal_since(Event.objects.filter(campaign=campaign), through).count()
    else:
        journal_then = {r["id"] for r in doc.get("journal") or []}
        entries = (Event.objects.filter(campaign=campaign).exclude(pk__in=journal_then)
                   .exclude(kind__in=KEPT_EVENTS).count())
    if entries:
        undone.append(f"{_n(entries, 'journal entry', 'journal entries')} written since "
                      "then")

    # What stays: administration and the dice.
    for pk, row in sorted(seats_then.items()):
        user_then = users_then.get(row.get("user_id"))
        if pk in users and user_then and user_then != users[pk]:
            kept.append(f"{users[pk]} keeps the seat {user_then} held then")
    if (turn, str(phase)) == (campaign.turn, campaign.phase):
        kept.append("the settings, the clock as it is (paused or running) and this "
                    "phase's deadline")
    else:
        kept.append("the settings, and the clock as it is (paused or running); the "
                    f"{phase} phase gets its full time again")
    seeds_then = {(r["turn"], r["phase"]) for r in doc.get("seeds") or []}
    since = [(t, p) for t, p in PhaseSeed.objects.filter(campaign=campaign)
             .values_list("turn", "phase") if (t, p) not in seeds_then]
    if since:
        kept.append("the dice committed since (" + _names(
            [f"turn {t} {p}" for t, p in since]) + "): a phase opened again rolls with "
            "the seed it committed the first time")
    return Preview(turn=turn, phase=str(phase), undone=undone, kept=kept)


__all__ = ["Preview", "remember_start", "rollback", "rollback_points",
           "rollback_preview"]
