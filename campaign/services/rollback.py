"""Rolling a campaign back to the start of its current or previous phase (issue 18; API.md
"Trust": `POST /api/campaigns/{id}/rollback/`).

When a phase opens, the clock keeps the whole campaign as it stands (`PhaseStart`, a
complete export: sealed orders and secret seeds included, never shown). A rollback puts
every row of the campaign back as it was then, with the same ids: the rows made since
are deleted, the rows changed since restored (ledger, holdings, units, orders, battles,
the journal, the dice). The map's territories stay (their owners are restored); nothing
outside the campaign changes. A journal entry says who rolled back, to where and why.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import connection, models, transaction
from django.db.models import JSONField, TextField, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast
from django.utils import timezone

from campaign.errors import Conflict, InvalidInput
from campaign.models import (
    Campaign,
    Event,
    Order,
    PhaseChange,
    PhaseSeed,
    PhaseStart,
    Player,
)
from campaign.services.export import export_campaign_sql, export_campaign_text
from campaign.services.imports import _tables, _timestamps
from campaign.services.journal import record_event

#: Tables kept (their rows updated in place), not deleted and recreated.
KEPT_SECTIONS = ("territories", "adjacency")


#: Rollback reaches the current or the previous phase: older starts are dropped.
STARTS_KEPT = 2


def remember_start(campaign: Campaign) -> None:
    """Keep the campaign as it stands at the opening of its current phase (and only the
    starts a rollback can reach)."""
    # The document goes to the database as the JSON text it is made as (no decoding and
    # encoding again of a document of every row of the campaign).
    # On PostgreSQL the database builds it from its rows (they never travel).
    if connection.vendor == "postgresql":
        sql, params = export_campaign_sql(campaign, complete=True)
        document: Any = RawSQL(sql, params, output_field=JSONField())
    else:
        document = Cast(Value(export_campaign_text(campaign, complete=True),
                              output_field=TextField()), output_field=JSONField())
    kept_here = PhaseStart.objects.filter(campaign=campaign, turn=campaign.turn,
                                          phase=campaign.phase)
    if not kept_here.update(document=document):
        PhaseStart.objects.create(campaign=campaign, turn=campaign.turn,
                                  phase=campaign.phase, document=document)
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
    model.objects.bulk_create(objs)
    stamps = _timestamps(model)
    if stamps:
        pk = model._meta.pk.attname
        by_pk = {row[pk]: row for row in rows}
        for obj in objs:
            for name in stamps:
                value = by_pk[obj.pk][name]
                setattr(obj, name, fields[name].to_python(value) if value else value)
        model.objects.bulk_update(objs, stamps)
    for obj, held in later:
        for name, value in held.items():
            setattr(obj, name, value)
        obj.save(update_fields=list(held))
    return objs


def rollback(*, campaign_id: int, turn: Any, phase: Any, by: Any, reason: str = "") -> Campaign:
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
        doc = start.document
        tables = sorted((t for t in _tables.values() if t.section not in KEPT_SECTIONS),
                        key=lambda t: t.order)
        # Delete what exists now, last table first (a turret's weapon link first).
        for table in reversed(tables):
            qs = _campaign_rows(table.model, campaign)
            for name in table.deferred:
                qs.update(**{f"{name}_id": None})
        for table in reversed(tables):
            _campaign_rows(table.model, campaign).delete()
        PhaseSeed.objects.filter(campaign=campaign).delete()
        # Put back what was there at the start of the phase, with the same ids.
        for section in KEPT_SECTIONS[:1]:
            table = _tables[section]
            rows = {r["id"]: r for r in doc.get(section) or []}
            objs = list(table.model.objects.filter(pk__in=rows))
            fields = [f.attname for f in table.model._meta.concrete_fields
                      if not f.primary_key and f.attname in next(iter(rows.values()), {})]
            for obj in objs:
                for name in fields:
                    setattr(obj, name, rows[obj.pk][name])
            table.model.objects.bulk_update(objs, fields)
        for table in tables:
            made = _restore(table.model, list(doc.get(table.section) or []), table.deferred)
            if table.model is Event:
                readers = {r["id"]: r.get("viewers") or [] for r in doc.get("journal") or []}
                through = Event.viewers.through
                through.objects.bulk_create([through(event_id=e.pk, player_id=p)
                                             for e in made for p in readers.get(e.pk, [])])
        _restore(PhaseSeed, list(doc.get("seeds") or []))
        seats = {r["id"]: r for r in doc.get("seats") or []}
        for player in Player.objects.filter(campaign=campaign):
            row = seats.get(player.pk)
            if row is None:
                continue
            # a removal since (R-ORD-11) is undone with the rest
            for name in ("credits", "research_points", "missed_turns", "ready", "user_id",
                         "color", "faction", "removed_at", "notifications"):
                if name in row:
                    setattr(player, name, row[name])
            player.save()
        head = doc["campaign_row"]
        for name in ("turn", "phase", "status", "paused", "paused_remaining"):
            if name in head:
                field = Campaign._meta.get_field(name)
                value = head[name]
                setattr(campaign, name, field.to_python(value) if value is not None else None)
        campaign.phase_started_at = timezone.now()
        campaign.phase_deadline = None
        duration = campaign.settings.as_dict().get(f"{campaign.phase}_seconds") or 0
        if duration and not campaign.paused:
            campaign.phase_deadline = campaign.phase_started_at + dt.timedelta(
                seconds=int(duration))
        campaign.save()
        record_event(campaign=campaign, kind="campaign_rolled_back",
                     data={"to_turn": turn, "to_phase": str(phase), "by": str(by),
                           "reason": str(reason)[:500]})
        from campaign.services import notifications

        notifications.rolled_back(campaign=campaign)
    return campaign


def _campaign_rows(model: type[models.Model], campaign: Campaign) -> Any:
    """The rows of one table that belong to the campaign."""
    names = {f.name for f in model._meta.concrete_fields}
    for path in ("campaign", "player__campaign", "territory__campaign", "battle__campaign"):
        if path.split("__")[0] in names:
            return model.objects.filter(**{path: campaign})
    raise RuntimeError(f"{model.__name__}: no way to the campaign")


__all__ = ["Order", "remember_start", "rollback", "rollback_points"]
