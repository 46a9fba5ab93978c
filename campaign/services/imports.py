"""Import a campaign export (campaign.services.export) under new ids (issue 18; API.md
"Trust": `POST /api/campaigns/import/`, `manage.py import_campaign`).

The importing user becomes the copy's umpire; each seat goes to the user with the
seat's username (a placeholder account that cannot sign in is made when there is none).
Rows are recreated table by table in dependency order, every foreign key pointed at the
new row, timestamps kept. The apps declare their tables (`register_table`), so the core
imports none of them. Ids written inside JSON documents (a battle's input, a journal
entry's data, a trade's goods) are kept as they were exported: they name the original
rows, as the journal did when it was written. A copy is a new campaign: it gets a new
invite code and, for a phase not over, a new secret dice seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models, transaction

from campaign import rulesets
from campaign.errors import InvalidInput
from campaign.models import Campaign, Event, Order, PhaseChange, PhaseSeed, Player
from campaign.services.commitments import commit, commitment_of
from campaign.services.export import FORMAT, VERSION


@dataclass(frozen=True)
class Table:
    order: int
    section: str
    model: type[models.Model]
    #: Foreign keys set in a second pass (a cycle: a turret's weapon).
    deferred: tuple[str, ...] = ()
    #: Rows to skip (an unrevealed seed, a sealed order never exported).
    keep: Callable[[dict[str, Any]], bool] | None = None


_tables: dict[str, Table] = {}


def register_table(table: Table) -> None:
    _tables[table.section] = table


# The core's own tables, after the map (10-19) and the holdings (20-39).
register_table(Table(5, "phases", PhaseChange))
register_table(Table(50, "journal", Event))
register_table(Table(51, "orders", Order))


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


class _Importer:
    def __init__(self, campaign: Campaign, players: dict[int, Player]) -> None:
        self.maps: dict[type[models.Model], dict[Any, Any]] = {
            Campaign: {}, Player: {old: p.pk for old, p in players.items()}}
        self.campaign = campaign

    def target(self, field: models.ForeignKey[Any, Any], value: Any, section: str) -> Any:
        if value is None:
            return None
        model = field.related_model
        if model is Campaign:
            return self.campaign.pk
        mapping = self.maps.get(model)  # type: ignore[arg-type]
        if mapping is None or value not in mapping:
            raise InvalidInput(f"{section}: {field.name} {value!r} names a row that is not "
                               "in the document.", code="invalid_import")
        return mapping[value]

    def load(self, table: Table, rows: list[dict[str, Any]]) -> None:
        model = table.model
        fks = {f.attname: f for f in _fk_fields(model)}
        fresh = _regenerated(model)
        stamps = _timestamps(model)
        known = {f.attname for f in model._meta.concrete_fields}
        created: list[tuple[Any, models.Model, dict[str, Any]]] = []
        for row in rows:
            if table.keep is not None and not table.keep(row):
                continue
            extra = {k: row[k] for k in ("viewers",) if k in row and model is Event}
            row = {k: v for k, v in row.items() if k not in extra}
            unknown = set(row) - known
            if unknown:
                raise InvalidInput(f"{table.section}: unknown field(s) "
                                   f"{', '.join(sorted(unknown))}.", code="invalid_import")
            data = {k: v for k, v in row.items() if k not in fresh}
            later = {}
            for name, field in fks.items():
                if name not in data:
                    continue
                if field.name in table.deferred:
                    later[name] = data.pop(name)
                else:
                    data[name] = self.target(field, data[name], table.section)
            obj = model(**data)
            obj.save(force_insert=True)
            if extra.get("viewers"):
                readers = extra["viewers"]
                if not isinstance(readers, list):
                    raise InvalidInput(f"{table.section}: viewers is a list of player ids.",
                                       code="invalid_import")
                obj.viewers.set([self.maps[Player][p] for p in readers  # type: ignore[attr-defined]
                                 if p in self.maps[Player]])
            created.append((row.get(model._meta.pk.attname), obj, later))
        self.maps.setdefault(model, {}).update({old: obj.pk for old, obj, _ in created})
        if stamps:  # keep the exported times (auto_now_add would say "now")
            by_old = {old: {k: v for k, v in row.items() if k != "viewers"} for row in rows
                      if (old := row.get(model._meta.pk.attname)) is not None}
            objs = []
            for old, obj, _later in created:
                for name in stamps:
                    if by_old.get(old, {}).get(name) is not None:
                        setattr(obj, name, by_old[old][name])
                objs.append(obj)
            model.objects.bulk_update(objs, stamps)
        self._deferred = getattr(self, "_deferred", [])
        self._deferred += [(table, obj, later) for _old, obj, later in created if later]

    def finish(self) -> None:
        for table, obj, later in getattr(self, "_deferred", []):
            fks = {f.attname: f for f in _fk_fields(table.model)}
            for name, value in later.items():
                setattr(obj, name, self.target(fks[name], value, table.section))
            obj.save(update_fields=list(later))


def _seat_user(username: str) -> Any:
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    if user is None:
        user = users(username=username)
        user.set_unusable_password()
        user.save()
    return user


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


def _faction(value: Any, factions: tuple[str, ...]) -> str:
    """A seat's faction from the document: none, or one of the ruleset's (R-FAC-3)."""
    if value in (None, ""):
        return ""
    if not isinstance(value, str) or value not in factions:
        listed = ", ".join(factions) or "none"
        raise InvalidInput(f"players: faction {repr(value)[:40]} is not a faction of the "
                           f"campaign's ruleset (its factions: {listed}).",
                           code="invalid_import")
    return value


def import_campaign(*, document: Any, umpire: Any) -> Campaign:
    """Recreate an exported campaign under new ids; `umpire` becomes its umpire."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InvalidInput(f"Send a campaign export (format {FORMAT!r}).",
                           code="invalid_import")
    document = upgrade(document)
    try:
        head = document["campaign"]
        players_in = list(document["players"])
        settings = dict(document.get("settings") or {})
    except (KeyError, TypeError) as exc:
        raise InvalidInput(f"The document misses {exc}.", code="invalid_import") from exc
    from campaign.options import clean_options

    try:
        options = clean_options({k: v for k, v in settings.items() if k != "webhook_url"})
    except ValueError as exc:
        raise InvalidInput(f"Invalid settings: {exc}", code="invalid_import") from exc
    info = rulesets.get(str(options.get("ruleset") or rulesets.DEFAULT))
    info_factions = tuple(info.factions) if info is not None else ()
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=str(head.get("name", "Imported campaign"))[:120], umpire=umpire,
            status=head.get("status", Campaign.Status.SETUP), turn=int(head.get("turn", 0)),
            phase=head.get("phase") or "", seed=int(head.get("seed", 1)), options=options)
        if head.get("created_at"):
            Campaign.objects.filter(pk=campaign.pk).update(created_at=head["created_at"])
            campaign.refresh_from_db()
        players: dict[int, Player] = {}
        for p in players_in:
            players[int(p["id"])] = Player.objects.create(
                campaign=campaign, user=_seat_user(str(p["username"])),
                color=p.get("color") or "#888", credits=int(p.get("credits", 0)),
                research_points=int(p.get("research_points", 0)),
                missed_turns=int(p.get("missed_turns", 0)),
                faction=_faction(p.get("faction"), info_factions))
        importer = _Importer(campaign, players)
        for table in sorted(_tables.values(), key=lambda t: t.order):
            importer.load(table, list(document.get(table.section) or []))
        importer.finish()
        for d in document.get("dice") or []:
            if d.get("seed") and commitment_of(str(d["seed"])) == d.get("commitment"):
                PhaseSeed.objects.create(campaign=campaign, turn=int(d["turn"]),
                                         phase=str(d["phase"]), secret=str(d["seed"]),
                                         commitment=d["commitment"],
                                         revealed_at=campaign.created_at)
        if campaign.status == Campaign.Status.RUNNING and campaign.phase:
            commit(campaign, campaign.turn, campaign.phase)  # a new secret: a new campaign
    return campaign
