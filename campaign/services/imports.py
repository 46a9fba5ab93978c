"""Import a campaign export (campaign.services.export) under new ids (issue 18; API.md
"Trust" and "Trust (wave 3)": `POST /api/campaigns/import/`, `manage.py import_campaign`).

The whole document is checked before anything is written (`campaign.services.
import_checks`: the published JSON Schema, then every row against its column and every
reference against the document); a fault is a 400 naming its path and writes nothing.

The importing user becomes the copy's umpire and the only member: every seat arrives
unclaimed, held by a placeholder account that cannot sign in (so no existing account is
ever seated, mailed or shown the campaign without consent, and no name is taken from
anyone who might sign up), with a claim code the umpire hands out
(`campaign.services.claims`). A sandbox (`stand_ins=True`) seats fresh stand-in accounts
under the document's names instead, played by its owner.

Rows are recreated table by table in dependency order with set-based writes (one
`bulk_create` per table, timestamps and deferred keys in one `bulk_update` each), every
foreign key pointed at the new row. The apps declare their tables (`import_tables`),
so the core imports none of them. Ids written inside JSON documents (a journal entry's
data, a trade's goods) are kept as they were exported: they name the original rows, as
the journal did when it was written; a table may rewrite its own documents (`rewrite`:
a battle's stored input and log name the new seats, or replaying its dice would crown
another winner). A copy is a new campaign: it gets a new invite code and, for a phase
not over, a new secret dice seed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction

from campaign import rulesets
from campaign.errors import InvalidInput
from campaign.hooks import Hook
from campaign.models import Campaign, Event, PhaseSeed, Player
from campaign.options import clean_options
from campaign.services.commitments import commit, commitment_of
from campaign.services.export import FORMAT, VERSION
from campaign.services.import_checks import _value, check_head, check_schema, refuse
from campaign.sql import model_field

#: (a row's values with its keys already pointed at the new rows, the seats' new ids by
#: their old ones) -> the row to write.
Rewrite = Callable[[dict[str, Any], Mapping[int, int]], dict[str, Any]]


@dataclass(frozen=True)
class Table:
    order: int
    section: str
    model: type[models.Model]
    #: Foreign keys set in a second pass (a cycle: a turret's weapon).
    deferred: tuple[str, ...] = ()
    #: Rows to skip (an unrevealed seed, a sealed order never exported).
    keep: Callable[[dict[str, Any]], bool] | None = None
    #: The table's own documents rewritten for the copy (see the module's docstring).
    rewrite: Rewrite | None = None


import_tables: Hook[[], list[Table]] = Hook("import_tables", """An app's tables of the export.

Called by `campaign.services.imports` (an import, a sandbox) and `campaign.services.
rollback` with nothing; a receiver returns the `Table`s of its app's sections (the
model, its load `order`: the map 10-19, holdings 20-39, the core's journal 50, orders
51, battles 60-69; deferred keys, rows kept, a rewrite for the copy). A section may be
declared once.""")


def registered_tables() -> dict[str, Table]:
    """Every app's tables by section, in load order."""
    found: dict[str, Table] = {}
    for tables in import_tables.call():
        for table in tables:
            if table.section in found:
                raise RuntimeError(f"two tables for the section {table.section!r}")
            found[table.section] = table
    return dict(sorted(found.items(), key=lambda item: item[1].order))


#: Rows written per statement.
BATCH = 1000


def _fk_fields(model: type[models.Model]) -> list[models.ForeignKey[Any, Any]]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)]


def _timestamps(model: type[models.Model]) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields
            if isinstance(f, models.DateTimeField) and (f.auto_now or f.auto_now_add)]


def _regenerated(model: type[models.Model]) -> set[str]:
    """The primary key and unique values made afresh (random public ids)."""
    names = {model._meta.pk.attname} if model._meta.pk is not None else set()
    for f in model._meta.concrete_fields:
        if f.unique and f.has_default() and not isinstance(f, models.ForeignKey):
            names.add(f.attname)
    return names


def _unique_sets(model: type[models.Model], fresh: set[str]) -> list[tuple[str, ...]]:
    """The column sets whose values may appear once (those made afresh excepted)."""
    sets: list[tuple[str, ...]] = []
    for f in model._meta.concrete_fields:
        if f.unique and f.attname not in fresh:
            sets.append((f.attname,))
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and constraint.fields \
                and constraint.condition is None and not constraint.expressions:
            sets.append(tuple(model_field(model, n).attname for n in constraint.fields))
    for together in model._meta.unique_together:
        sets.append(tuple(model_field(model, n).attname for n in together))
    return sets


@dataclass
class _Plan:
    """One table's rows, checked, waiting to be written."""

    table: Table
    olds: list[Any] = field(default_factory=list)
    data: list[dict[str, Any]] = field(default_factory=list)
    later: list[dict[str, Any]] = field(default_factory=list)
    stamps: list[dict[str, Any]] = field(default_factory=list)
    viewers: list[list[int]] = field(default_factory=list)


def _plan(document: dict[str, Any], seats: set[int]) -> list[_Plan]:
    """Every registered table's rows checked against its columns and the document's
    other rows, in load order; the first fault is refused with its path."""
    tables = list(registered_tables().values())
    # The ids each model's rows carry in the document, to check references by.
    ids: dict[type[models.Model], set[Any]] = {Player: seats}
    for table in tables:
        pk = table.model._meta.pk.attname
        found = ids.setdefault(table.model, set())
        for i, row in enumerate(document.get(table.section) or []):
            if not isinstance(row, dict):
                raise refuse((table.section, i), "must be an object (a row).")
            if pk not in row or isinstance(row[pk], (dict, list, bool)) or row[pk] is None:
                raise refuse((table.section, i, pk), "is missing or is not an id.")
            if row[pk] in found:
                raise refuse((table.section, i, pk), "repeats another row's id.")
            found.add(row[pk])
    loaded: set[type[models.Model]] = {Campaign, Player}
    plans = []
    for table in tables:
        plans.append(_plan_table(table, document.get(table.section) or [], ids, loaded, seats))
        loaded.add(table.model)
    return plans


def _plan_table(table: Table, rows: list[Any], ids: dict[type[models.Model], set[Any]],
                loaded: set[type[models.Model]], seats: set[int]) -> _Plan:
    model = table.model
    section = table.section
    if not isinstance(rows, list):
        raise refuse((section,), "must be a list of rows.")
    fks = {f.attname: f for f in _fk_fields(model)}
    fresh = _regenerated(model)
    stamps = set(_timestamps(model))
    columns = {f.attname: f for f in model._meta.concrete_fields}
    needed = [f.attname for f in model._meta.concrete_fields
              if f.attname not in fresh and not f.null and not f.has_default()
              and f.attname not in stamps and f.attname not in fks]
    unique = _unique_sets(model, fresh)
    seen: list[dict[tuple[Any, ...], int]] = [{} for _ in unique]
    plan = _Plan(table)
    pk = model._meta.pk.attname
    for i, row in enumerate(rows):
        try:
            kept = table.keep is None or table.keep(row)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise refuse((section, i), "is not a row this site can read.") from None
        if not kept:
            continue
        viewers: list[int] = []
        if model is Event:
            readers = row.get("viewers", [])
            if not isinstance(readers, list) or not all(
                    type(p) is int for p in readers):
                raise refuse((section, i, "viewers"), "must be a list of seat ids.")
            viewers = sorted({p for p in readers if p in seats})
        unknown = sorted(set(row) - set(columns) - ({"viewers"} if model is Event else set()))
        if unknown:
            raise refuse((section, i, unknown[0]), "is not a column of this table.")
        for name in needed:
            if name not in row:
                raise refuse((section, i, name), "is missing.")
        data: dict[str, Any] = {}
        later: dict[str, Any] = {}
        times: dict[str, Any] = {}
        for name, value in row.items():
            if name in fresh or name == "viewers":
                continue
            if name in fks:
                fk = fks[name]
                target = fk.related_model
                if value is None:
                    if not fk.null:
                        raise refuse((section, i, name), "may not be null.")
                elif target is not Campaign and (
                        isinstance(value, (dict, list, bool))
                        or value not in ids.get(target, ())):
                    raise refuse((section, i, name), f"names {str(value)[:40]}, which is "
                                 "not a row of the document.")
                elif target not in loaded and fk.name not in table.deferred \
                        and target is not model:
                    raise refuse((section, i, name), "names a row loaded after this one.")
                elif target is model and fk.name not in table.deferred:
                    raise refuse((section, i, name), "names a row of its own table.")
                (later if fk.name in table.deferred else data)[name] = value
                continue
            checked = _value(columns[name], value, (section, i, name))
            if name in stamps:
                if checked is not None:
                    times[name] = checked
                continue
            data[name] = checked
        for n, names in enumerate(unique):
            if not all(name in data or name == "campaign_id" for name in names):
                continue
            key = tuple(None if name == "campaign_id" else data[name] for name in names)
            if None in key and any(name != "campaign_id" and data[name] is None
                                   for name in names):
                continue  # NULLs are never equal
            if key in seen[n]:
                shown = ", ".join(n_ for n_ in names if n_ != "campaign_id")
                raise refuse((section, i, names[-1] if names[-1] != "campaign_id"
                              else names[0]),
                             f"repeats row {seen[n][key]}'s {shown}.")
            seen[n][key] = i
        plan.olds.append(row[pk])
        plan.data.append(data)
        plan.later.append(later)
        plan.stamps.append(times)
        plan.viewers.append(viewers)
    return plan


class _Writer:
    """Writes checked plans with set-based statements, keeping the id maps."""

    def __init__(self, campaign: Campaign, players: dict[int, int]) -> None:
        self.campaign = campaign
        self.players = players
        self.maps: dict[type[models.Model], dict[Any, Any]] = {Player: dict(players)}

    def _point(self, fk: models.ForeignKey[Any, Any], value: Any) -> Any:
        if value is None:
            return None
        if fk.related_model is Campaign:
            return self.campaign.pk
        return self.maps[fk.related_model][value]

    def write(self, plan: _Plan) -> None:
        model = plan.table.model
        fks = {f.attname: f for f in _fk_fields(model)}
        objs = []
        for data in plan.data:
            values = {k: (self._point(fks[k], v) if k in fks else v) for k, v in data.items()}
            if plan.table.rewrite is not None:
                values = plan.table.rewrite(values, self.players)
            objs.append(model(**values))
        model._default_manager.bulk_create(objs, batch_size=BATCH)
        self.maps[model] = {old: obj.pk for old, obj in zip(plan.olds, objs, strict=True)}
        stamps = _timestamps(model)
        dated = []
        for obj, times in zip(objs, plan.stamps, strict=True):
            if times:  # keep the exported times (auto_now_add would say "now")
                for name, value in times.items():
                    setattr(obj, name, value)
                dated.append(obj)
        if dated:
            model._default_manager.bulk_update(dated, stamps, batch_size=BATCH)
        if model is Event:
            through = Event.viewers.through
            through.objects.bulk_create(
                [through(event_id=obj.pk, player_id=self.players[p])
                 for obj, readers in zip(objs, plan.viewers, strict=True) for p in readers],
                batch_size=BATCH)
        plan.data = [{"pk": obj.pk} for obj in objs]  # the written rows, for `finish`

    def finish(self, plans: list[_Plan]) -> None:
        for plan in plans:
            model = plan.table.model
            fks = {f.attname: f for f in _fk_fields(model)}
            objs = []
            names: set[str] = set()
            for written, later in zip(plan.data, plan.later, strict=True):
                if later:
                    obj = model(pk=written["pk"])
                    for name, value in later.items():
                        setattr(obj, name, self._point(fks[name], value))
                    names |= set(later)
                    objs.append(obj)
            if objs:
                model._default_manager.bulk_update(objs, sorted(names), batch_size=BATCH)


def _placeholders(names: list[str], *, stand_ins: bool) -> list[Any]:
    """One account per seat that nobody signs in as. Stand-ins (a sandbox) carry the
    document's names, which must be free; an unclaimed seat's placeholder carries the
    name with a random tail and keeps it as its first name, to show until claimed."""
    users = get_user_model()
    if stand_ins:
        taken = set(users.objects.filter(username__in=names)
                    .values_list("username", flat=True))
        if taken:
            raise InvalidInput(f"An account named {sorted(taken)[0]!r} exists already: a "
                               "stand-in takes no one's name.", code="invalid_import")
    made = []
    for name in names:
        user = users(username=name if stand_ins else f"{name[:120]}~{secrets.token_hex(6)}",
                     first_name=name[:150], is_active=stand_ins)
        user.set_unusable_password()
        made.append(user)
    return list(users.objects.bulk_create(made, batch_size=BATCH))


def _v1_to_v2(document: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no factions: every seat (and kept seat row) gets none."""
    players = document.get("players")
    if isinstance(players, list):
        document["players"] = [{**p, "faction": p.get("faction", "")}
                               if isinstance(p, dict) else p for p in players]
    seats = document.get("seats")
    if isinstance(seats, list):
        document["seats"] = [{**r, "faction": r.get("faction", "")}
                             if isinstance(r, dict) else r for r in seats]
    return {**document, "version": 2}


#: Each older version's step to the next; a document is upgraded step by step to VERSION.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


def upgrade(document: dict[str, Any]) -> dict[str, Any]:
    """The document in the current export version (a copy; 400 `unsupported_version`
    for a version this site does not read)."""
    version = document.get("version")
    readable = sorted([*UPGRADES, VERSION])
    if type(version) is not int or version not in readable:
        raise InvalidInput(f"This site reads export versions "
                           f"{', '.join(map(str, readable))}, not {repr(version)[:40]}.",
                           code="unsupported_version")
    while version != VERSION:
        document = UPGRADES[version](dict(document))
        version = document["version"]
    return document


def _faction(value: Any, factions: tuple[str, ...], i: int) -> str:
    """A seat's faction from the document: none, or one of the ruleset's (R-FAC-3)."""
    if value in (None, ""):
        return ""
    if not isinstance(value, str) or value not in factions:
        listed = ", ".join(factions) or "none"
        raise refuse(("players", i, "faction"), f"{repr(value)[:40]} is not a faction of "
                     f"the campaign's ruleset (its factions: {listed}).")
    return value


def _check_dice(document: dict[str, Any]) -> None:
    seen: set[tuple[int, str]] = set()
    for i, d in enumerate(document["dice"]):
        if type(d["turn"]) is not int or not 0 <= d["turn"] <= 2**31 - 1:
            raise refuse(("dice", i, "turn"), "must be a whole number from 0.")
        if not isinstance(d["phase"], str) or len(d["phase"]) > 10:
            raise refuse(("dice", i, "phase"), "must be a phase's name.")
        if d["seed"] is not None and len(d["seed"]) > 64:
            raise refuse(("dice", i, "seed"), "is too long for a seed.")
        if (d["turn"], d["phase"]) in seen:
            raise refuse(("dice", i), "repeats another entry's turn and phase.")
        seen.add((d["turn"], d["phase"]))


def import_campaign(*, document: object, umpire: User, stand_ins: bool = False) -> Campaign:
    """Recreate an exported campaign under new ids; `umpire` becomes its umpire and every
    seat waits for its claim (`stand_ins`: a sandbox's accounts, see the docstring)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f"Send a campaign export (format {FORMAT!r}).",
                           code="invalid_import", fields={"format": f"must be {FORMAT!r}."})
    document = upgrade(document)
    if stand_ins:  # a sandbox leaves out the dice: it plays on with new ones
        document = {"dice": [], **document}
    check_schema(document)
    check_head(document)

    settings = document["settings"]
    try:
        options = clean_options({k: v for k, v in settings.items() if k != "webhook_url"})
    except ValueError as exc:
        raise refuse(("settings",), f"is not valid: {exc}") from exc
    info = rulesets.get(str(options.get("ruleset") or rulesets.DEFAULT))
    info_factions = tuple(info.factions) if info is not None else ()
    head = document["campaign"]
    players_in = document["players"]
    factions = [_faction(p.get("faction"), info_factions, i) for i, p in enumerate(players_in)]
    _check_dice(document)
    plans = _plan(document, {p["id"] for p in players_in})
    try:
        with transaction.atomic():
            return _write(document, head, options, players_in, factions, plans, umpire,
                          stand_ins)
    except (DatabaseError, ValidationError, ValueError, TypeError, OverflowError) as exc:
        # What the checks above could not foresee (a check constraint of the database):
        # refused as a whole, nothing written.
        reason = (str(exc).splitlines() or [type(exc).__name__])[0][:200]
        raise InvalidInput(f"The document cannot be imported: the database refused it "
                           f"({reason}).", code="invalid_import") from exc


def _write(document: dict[str, Any], head: dict[str, Any], options: dict[str, Any],
           players_in: list[dict[str, Any]], factions: list[str], plans: list[_Plan],
           umpire: Any, stand_ins: bool) -> Campaign:
    campaign = Campaign.objects.create(
        name=head["name"], umpire=umpire, status=head["status"], turn=head["turn"],
        phase=head["phase"], seed=head["seed"], options=options)
    if head.get("created_at"):
        Campaign.objects.filter(pk=campaign.pk).update(created_at=head["created_at"])
        campaign.refresh_from_db()
    users = _placeholders([str(p["username"]) for p in players_in], stand_ins=stand_ins)
    seats = Player.objects.bulk_create([
        Player(campaign=campaign, user=user, color=p.get("color") or "#888",
               credits=p["credits"], research_points=p.get("research_points", 0),
               missed_turns=p.get("missed_turns", 0), faction=faction,
               claim_code="" if stand_ins else secrets.token_urlsafe(9))
        for p, user, faction in zip(players_in, users, factions, strict=True)],
        batch_size=BATCH)
    writer = _Writer(campaign, {p["id"]: seat.pk
                                for p, seat in zip(players_in, seats, strict=True)})
    for plan in plans:
        writer.write(plan)
    writer.finish(plans)
    PhaseSeed.objects.bulk_create([
        PhaseSeed(campaign=campaign, turn=d["turn"], phase=d["phase"], secret=d["seed"],
                  commitment=d["commitment"], revealed_at=campaign.created_at)
        for d in document["dice"]
        if d["seed"] and commitment_of(d["seed"]) == d["commitment"]])
    if campaign.status == Campaign.Status.RUNNING and campaign.phase:
        commit(campaign, campaign.turn, campaign.phase)  # a new secret: a new campaign
    return campaign
