"""Sandboxes: a private "what if" copy of a campaign (issue 18; API.md "Trust":
`POST /api/campaigns/{id}/sandbox/`).

A member clones the campaign as it stood at a kept phase start (the current or the
previous phase: the same points a rollback reaches, R-DICE-2) and plays on alone, as
every player in turn, with new dice. Only what the member could see is copied: each app
says, per section of the export, which rows a seat may see (`sandbox_rows`);
a section nobody registered is not copied at all. What another player kept secret gets a
neutral placeholder: their credits are what every player started with, their research
0, their units, weapons, pilots, goods and buildings unknown (absent). A sandbox never
notifies, cannot be joined, is never public, and is marked on every page and in the API.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from campaign.access import Membership
from campaign.errors import Conflict, Forbidden, InvalidInput, NotFound
from campaign.hooks import Hook
from campaign.models import Campaign, Event, PhaseStart, Player
from campaign.services.imports import import_campaign, registered_tables
from campaign.services.journal import record_event
from campaign.services.rollback import rollback_points


@dataclass
class Viewer:
    """Whose eyes the copy is made with: a seat (`player`), or the umpire who does not
    play (`player` None: everything but sealed orders, unless the campaign lets the
    umpire read them)."""

    player: int | None
    owned: set[int]
    deposits_public: bool
    may_read_sealed: bool = False
    kept: dict[str, set[Any]] = field(default_factory=dict)

    @property
    def sees_all(self) -> bool:
        return self.player is None


RowFilter = Callable[[dict[str, Any], Viewer], bool]
sandbox_rows: Hook[[dict[str, Any], Viewer], bool] = Hook("sandbox_rows", """Which rows of
one section of the export a viewer may take into a sandbox.

Called by `campaign.services.sandbox.visible_copy` as `receiver(row, viewer)` for each
row of the section the receiver is connected under (`key="units"`), one receiver per
section; it returns True to keep the row. A section no receiver is connected to is left
out of the copy.""")


def public(row: dict[str, Any], viewer: Viewer) -> bool:
    return True


def nothing(row: dict[str, Any], viewer: Viewer) -> bool:
    return False


def own(*fields: str) -> RowFilter:
    """Rows that name the viewer in one of `fields` (a player's own business)."""
    def keep(row: dict[str, Any], viewer: Viewer) -> bool:
        return viewer.sees_all or any(row.get(f) == viewer.player for f in fields)
    return keep


def on_own_territory(row: dict[str, Any], viewer: Viewer) -> bool:
    """Rows on a territory the viewer held (buildings, goods, artifacts)."""
    return viewer.sees_all or row.get("territory_id") in viewer.owned


def journal_visible(row: dict[str, Any], viewer: Viewer) -> bool:
    if row.get("sealed") and not (viewer.player in (row.get("viewers") or [])
                                  or (viewer.sees_all and viewer.may_read_sealed)):
        return False
    if viewer.sees_all:
        return True
    if row.get("visibility") == Event.Visibility.PUBLIC:
        return True
    return (row.get("visibility") == Event.Visibility.PRIVATE
            and viewer.player in (row.get("viewers") or []))



#: The core's sections of the complete document that never go into a copy.
_NEVER = ("dice", "seeds", "seats", "campaign_row")


def _placeholder_ledger(rows: list[dict[str, Any]], player: int) -> list[dict[str, Any]]:
    """What every player is known to have: the starting credits (R-DICE-3)."""
    return [dict(r) for r in rows if r.get("player_id") == player
            and r.get("reason") == "starting_credits"]


def visible_copy(document: dict[str, Any], viewer: Viewer,
                 sections: list[str]) -> dict[str, Any]:
    """The export document as `viewer` could see it, sections in import order."""
    doc = copy.deepcopy(document)
    for key in _NEVER:
        doc.pop(key, None)
    for section in sections:
        rows = list(doc.get(section) or [])
        keep = sandbox_rows.one(section) or nothing
        if section == "ledger" and not viewer.sees_all:
            mine = [r for r in rows if r.get("player_id") == viewer.player]
            others = [r for p in doc["players"] if p["id"] != viewer.player
                      for r in _placeholder_ledger(rows, p["id"])]
            kept = mine + others
        else:
            kept = [r for r in rows if keep(r, viewer)]
        doc[section] = kept
        viewer.kept[section] = {r.get("id") for r in kept}
    if not viewer.sees_all:
        balance = {p["id"]: 0 for p in doc["players"]}
        for r in doc.get("ledger") or []:
            balance[r["player_id"]] = balance.get(r["player_id"], 0) + int(r["amount"])
        for p in doc["players"]:
            if p["id"] != viewer.player:
                p["credits"] = balance.get(p["id"], 0)
                p["research_points"] = 0
    return doc


def _sections(document: dict[str, Any]) -> list[str]:
    return list(registered_tables())


def create_sandbox(*, member: Membership, turn: Any, phase: Any) -> Campaign:
    """Clone the campaign as it stood at the start of (turn, phase), as the member saw
    it, into a private campaign the member runs."""
    if member.spectator:
        raise NotFound("No such campaign.")
    try:
        turn = int(turn)
    except (TypeError, ValueError):
        raise InvalidInput("turn must be a whole number.", code="invalid_turn") from None
    campaign = member.campaign
    if campaign.is_sandbox:
        raise Conflict("A sandbox is cloned from a campaign, not from another sandbox.",
                       code="invalid_sandbox")
    points = rollback_points(campaign)
    if (turn, str(phase)) not in points:
        listed = ", ".join(f"turn {t} {p}" for t, p in points) or "none kept yet"
        raise Conflict("A sandbox starts where a phase of this campaign started: the "
                       f"current or the previous phase ({listed}).", code="invalid_sandbox")
    start = PhaseStart.objects.get(campaign=campaign, turn=turn, phase=str(phase))
    document = start.document
    seat = member.player.pk if member.player is not None else None
    if seat is not None and seat not in {p["id"] for p in document["players"]}:
        raise Forbidden("You had no seat in the campaign then.", code="no_seat_then")
    owned = {r["id"] for r in document.get("territories") or []
             if seat is not None and r.get("owner_id") == seat}
    viewer = Viewer(player=None if member.is_umpire and not member.umpire_plays else seat,
                    owned=owned, deposits_public=bool(campaign.settings.deposits_public),
                    may_read_sealed=member.may_read_sealed)
    doc = visible_copy(document, viewer, _sections(document))
    tag = secrets.token_hex(4)
    stand_ins = {}
    for p in doc["players"]:
        stand_ins[p["id"]] = f"{p['username']}"[:120] + f" (sandbox {tag})"
        p["username"] = stand_ins[p["id"]]
    doc["campaign"] = {**doc["campaign"], "seed": secrets.randbelow(2**31 - 1) + 1,
                       "name": f"Sandbox: {campaign.name} (turn {turn} {phase})"[:120]}
    settings = dict(doc.get("settings") or {})
    for key in list(settings):
        if key.endswith("_seconds") and key != "reminder_seconds":
            settings[key] = 0  # no deadlines: the sandbox waits for its owner
    settings.update(webhook_url="", public=False, invite_only=True,
                    advance_when_all_ready=False)
    doc["settings"] = settings
    with transaction.atomic():
        copy_ = import_campaign(document=doc, umpire=_user(member), stand_ins=True)
        seats = {pl.user.get_username(): pl for pl in
                 Player.objects.filter(campaign=copy_).select_related("user")}
        first = seats.get(stand_ins.get(seat, "")) if seat is not None else None
        copy_.is_sandbox = True
        copy_.sandbox_of = campaign
        copy_.sandbox_seat = first or next(iter(seats.values()), None)
        copy_.save(update_fields=["is_sandbox", "sandbox_of", "sandbox_seat"])
        record_event(campaign=copy_, kind="sandbox_created",
                     data={"of": campaign.pk, "turn": turn, "phase": str(phase)})
    return copy_


def _user(member: Membership) -> Any:
    if member.player is not None:
        return member.player.user
    return member.campaign.umpire


def play_as(*, member: Membership, player_id: Any) -> Campaign:
    """The sandbox's owner takes another seat (every seat is theirs to play)."""
    campaign = member.campaign
    if not campaign.is_sandbox:
        raise Conflict("Only in a sandbox does one person play every seat.",
                       code="not_sandbox")
    if not member.is_umpire:
        raise Forbidden("Only the sandbox's owner plays its seats.")
    seat = Player.objects.filter(campaign=campaign,
                                 pk=player_id if str(player_id).isdigit() else -1).first()
    if seat is None:
        raise InvalidInput("Choose a seat of this sandbox.", code="invalid_player")
    Campaign.objects.filter(pk=campaign.pk).update(sandbox_seat=seat)
    campaign.sandbox_seat = seat
    return campaign
