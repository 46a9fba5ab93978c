"""Creating campaigns and admitting players. Starting them is in `campaign.services.setup`."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign import rulesets
from campaign.errors import Conflict, Forbidden, InvalidInput
from campaign.hooks import Hook
from campaign.models import Campaign, Player, new_invite_code
from campaign.options import clean_options
from campaign.services import absence
from campaign.services.journal import record_event

P = ParamSpec("P")
R = TypeVar("R")

PLAYER_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                 "#8c564b", "#e377c2", "#bcbd22", "#7f7f7f")


map_spec_cleaned: Hook[[Any], dict[str, Any]] = Hook("map_spec_cleaned", """Check a map spec.

The meta-map is the territories app's (the core imports no app above it). Called by
`campaign.services.campaigns.campaign_create` with the spec as given, before anything is
written; the one receiver returns the spec cleaned, or raises `InvalidInput`.""")

map_built: Hook[..., object] = Hook("map_built", """Build a new campaign's meta-map.

Called by `campaign.services.campaigns.campaign_create` as `receiver(campaign=, spec=)`
(the spec `map_spec_cleaned` returned) inside the creating transaction; the one receiver
writes the territories; the result is unused.""")


def _one(hook: Hook[P, R]) -> Callable[P, R]:
    receivers = hook.receivers()
    if len(receivers) != 1:
        raise RuntimeError(f"{hook.name} needs exactly one receiver; it has {len(receivers)}")
    return receivers[0]


def campaign_create(*, umpire: User, name: str, map_spec: dict[str, Any],
                    options: dict[str, Any] | None = None, seed: int | None = None) -> Campaign:
    """Create a campaign in set-up with its meta-map; the creator becomes its umpire."""
    clean_map_spec, build_map = _one(map_spec_cleaned), _one(map_built)
    name = (name or "").strip()
    if not name:
        raise InvalidInput("A campaign needs a name.", fields={"name": ["This field is required."]})
    if len(name) > 120:
        raise InvalidInput("A campaign name has at most 120 characters.")
    try:
        cleaned_options = clean_options(options or {})
    except ValueError as exc:
        raise InvalidInput(f"Invalid settings: {exc}", fields={"settings": [str(exc)]}) from exc
    spec = clean_map_spec(map_spec)
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name, umpire=umpire, options=cleaned_options,
            seed=seed if seed is not None else int(spec.get("seed", 0)),
            map_spec={k: v for k, v in spec.items() if k in ("generator", "territories", "seed")},
        )
        build_map(campaign=campaign, spec=spec)
        record_event(campaign=campaign, kind="campaign_created",
                     data={"name": name, "umpire": umpire.get_username()})
    return campaign


def clean_faction(campaign: Campaign, faction: str | None) -> str:
    """The faction a seat takes in `campaign` (API.md "Rulesets", ruling R-FAC-1): for a
    ruleset with factions one of its keys is required (400 `faction_required`, 400
    `unknown_faction`, each naming the choices); for a ruleset without factions a faction
    is refused (400 `no_factions`). An absent, null or empty faction is "not given"."""
    info = rulesets.get(campaign.settings.ruleset)
    title = info.title if info is not None else campaign.settings.ruleset
    choices = tuple(info.factions) if info is not None else ()
    given = faction not in (None, "")
    if not choices:
        if given:
            raise InvalidInput(f"{title} has no factions: join without 'faction'.",
                               code="no_factions",
                               fields={"faction": ["This ruleset has no factions."]})
        return ""
    listed = ", ".join(choices)
    if not given:
        raise InvalidInput(f"{title} is played by factions: join with "
                           f"{{\"faction\": KEY}}, one of: {listed}.",
                           code="faction_required",
                           fields={"faction": [f"Choose one of: {listed}."]})
    if faction not in choices:
        raise InvalidInput(f"{repr(faction)[:40]} is not a faction of {title}; choose one of: "
                           f"{listed}.", code="unknown_faction",
                           fields={"faction": [f"Choose one of: {listed}."]})
    return faction


def seats_misfit(players: Iterable[Player], ruleset_name: str) -> list[str]:
    """The seats whose faction does not fit the ruleset `ruleset_name` (a seat without a
    faction in a ruleset with factions, or with one the ruleset does not have), as
    "username (faction)" texts; empty when every seat fits (ruling R-FAC-2)."""
    info = rulesets.get(ruleset_name)
    choices = set(info.factions) if info is not None else set()
    return [f"{p.user.get_username()} ({p.faction or 'no faction'})" for p in players
            if (p.faction not in choices if choices else bool(p.faction))]


def campaign_join(*, campaign_id: int, user: User,
                  invite: str | None = None, faction: str | None = None) -> Player:
    """Take a seat while the campaign is in set-up; with the setting `invite_only` (the
    default) only with the campaign's invite code (403 `invite_required` otherwise); in a
    campaign whose ruleset has factions, as one of them (`clean_faction`)."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if campaign.is_sandbox:
            raise Conflict("A sandbox is private: its owner plays every seat.",
                           code="sandbox_private")
        if campaign.status != Campaign.Status.SETUP:
            raise Conflict("Players can only join while the campaign is in set-up.",
                           code="not_in_setup")
        if campaign.settings.invite_only and not (
                invite is not None
                and secrets.compare_digest(invite.encode(), campaign.invite_code.encode())):
            raise Forbidden("This campaign takes players by invitation: join with the "
                            "invitation link (or invite code) the umpire sent you.",
                            code="invite_required")
        if Player.objects.filter(campaign=campaign, user=user).exists():
            raise Conflict("You already play in this campaign.", code="already_joined")
        absence.require_record(campaign=campaign, user=user)
        chosen = clean_faction(campaign, faction)
        count = Player.objects.filter(campaign=campaign).count()
        if count >= campaign.territories.count():
            raise Conflict("This campaign's map has no room for another player.",
                           code="campaign_full")
        try:
            player = Player.objects.create(
                campaign=campaign, user=user, color=PLAYER_COLORS[count % len(PLAYER_COLORS)],
                approved=not campaign.settings.approve_joins, faction=chosen)
        except IntegrityError as exc:  # a parallel join of the same user
            raise Conflict("You already play in this campaign.", code="already_joined") from exc
        record_event(campaign=campaign, kind="player_joined",
                     data={"player": player.pk, "username": user.get_username(),
                           **({"faction": chosen} if chosen else {})})
    return player


def campaign_approve_player(*, campaign_id: int, player_id: Any, by: str) -> str:
    """The umpire approves a seat taken while `approve_joins` is on (issue 17)."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        player = Player.objects.filter(
            campaign=campaign, pk=player_id if str(player_id).isdigit() else -1
        ).select_related("user").first()
        if player is None:
            raise InvalidInput("Choose a player of this campaign.", code="invalid_player")
        if player.approved:
            raise Conflict(f"{player.user.get_username()}'s seat is already approved.",
                           code="already_approved")
        player.approved = True
        player.save(update_fields=["approved"])
        record_event(campaign=campaign, kind="player_approved",
                     data={"player": player.pk, "username": player.user.get_username(),
                           "by": by})
    return player.user.get_username()


def campaign_remove_player(*, campaign_id: int, player_id: Any, by: str) -> str:
    """The umpire removes a seat before the campaign starts (issue 17); the invite code
    changes, so the old invitation link no longer seats anyone. After the start a seat is
    handed over instead (`seat_handover`). Returns the removed player's username."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if campaign.status != Campaign.Status.SETUP:
            raise Conflict("Seats are removed only before the campaign starts; afterwards "
                           "hand the seat over to someone else.", code="not_in_setup")
        player = Player.objects.filter(
            campaign=campaign, pk=player_id if str(player_id).isdigit() else -1
        ).select_related("user").first()
        if player is None:
            raise InvalidInput("Choose a player of this campaign.", code="invalid_player")
        name = player.user.get_username()
        player.delete()
        campaign.invite_code = new_invite_code()
        campaign.save(update_fields=["invite_code"])
        record_event(campaign=campaign, kind="player_removed",
                     data={"username": name, "by": by})
    return name


def seat_remove(*, campaign_id: int, player_id: Any, by: str) -> Player:
    """The umpire removes a player while the campaign runs (R-ORD-11): the seat keeps
    everything it holds and nobody plays it (ready, no notifications) until it is handed
    over; the removed user loses the campaign. Before the start use
    `campaign_remove_player`."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
        if campaign.status == Campaign.Status.SETUP:
            raise Conflict("Before the start a seat is removed outright, from the "
                           "dashboard.", code="in_setup")
        if campaign.status != Campaign.Status.RUNNING:
            raise Conflict("The campaign is over: its seats stay as they ended.",
                           code="not_running")
        player = Player.objects.select_for_update().filter(
            campaign=campaign, pk=player_id if str(player_id).isdigit() else -1
        ).select_related("user").first()
        if player is None:
            raise InvalidInput("Choose a player of this campaign.", code="invalid_player")
        if player.removed_at is not None:
            raise Conflict(f"{player.user.get_username()} was already removed; hand the "
                           "seat to someone to have it played again.",
                           code="already_removed")
        if player.user_id == campaign.umpire_id:
            raise Conflict("The umpire keeps their own seat; hand it to another user "
                           "instead.", code="umpire_seat")
        player.removed_at = timezone.now()
        player.ready = True
        player.notifications = False
        player.save(update_fields=["removed_at", "ready", "notifications"])
        record_event(campaign=campaign, kind="seat_removed",
                     data={"player": player.pk, "username": player.user.get_username(),
                           "by": by})
    return player


def campaign_update_settings(*, campaign: Campaign, changes: dict[str, Any]) -> Campaign:
    """The umpire changes per-campaign options (validated; journaled)."""
    try:
        cleaned = clean_options(changes)
    except ValueError as exc:
        raise InvalidInput(f"Invalid settings: {exc}", fields={"settings": [str(exc)]}) from exc
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if "ruleset" in cleaned and cleaned["ruleset"] != locked.settings.ruleset \
                and locked.status != Campaign.Status.SETUP:
            raise Conflict("The ruleset is chosen before the campaign starts and cannot "
                           "change once it has started.", code="ruleset_fixed")
        if "ruleset" in cleaned and cleaned["ruleset"] != locked.settings.ruleset:
            misfit = seats_misfit(Player.objects.filter(campaign=locked)
                                  .select_related("user").order_by("pk"), cleaned["ruleset"])
            if misfit:  # R-FAC-2: a seat's faction is never changed behind its back
                raise Conflict(f"The seats already taken do not fit {cleaned['ruleset']}'s "
                               f"factions: {', '.join(misfit)}. Remove those seats first "
                               "(they join again and choose).", code="faction_mismatch")
        if locked.is_sandbox and (cleaned.get("public") or cleaned.get("webhook_url")):
            raise Conflict("A sandbox stays private: it is never public and posts to no "
                           "webhook.", code="sandbox_private")
        locked.options = {**locked.options, **cleaned}
        locked.save(update_fields=["options"])
        record_event(campaign=locked, kind="settings_changed", data={"changes": cleaned})
    return locked
