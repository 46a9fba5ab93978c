"""Right of passage (seed, "Move Phase"): "A player can grant passage over his
territories to another, in which case they must define which territories the opponent
may consider theirs for Movement purposes. Of course, betrayal is always an option."

A grant names territories the grantor owns; it may be revoked at any time. Grants are
visible to both parties and the umpire, and to nobody else.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q, QuerySet

from campaign.errors import Conflict, InvalidInput
from campaign.models import Campaign, Event, Player
from campaign.services.journal import record_event
from campaign.services.locking import retry_on_conflict
from territories.models import Passage, Territory


def _territory_ids(territories: Iterable[Territory | int]) -> list[int]:
    ids: list[int] = []
    for item in territories:
        pk = item.pk if isinstance(item, Territory) else item
        if not isinstance(pk, int) or isinstance(pk, bool):
            raise InvalidInput("Territories are given by their ids.", code="invalid")
        if pk not in ids:
            ids.append(pk)
    return ids


def _check_parties(grantor: Player, grantee: Player) -> None:
    if grantee.campaign_id != grantor.campaign_id:
        raise InvalidInput("That player does not play in this campaign.", code="unknown_player")
    if grantee.pk == grantor.pk:
        raise InvalidInput("You always may move through your own territories.",
                           code="passage_to_self")
    if grantor.campaign.status != Campaign.Status.RUNNING:
        raise Conflict("Passage is granted while the campaign is running.", code="not_running")


@retry_on_conflict
def grant_passage(*, grantor: Player, grantee: Player,
                  territories: Iterable[Territory | int]) -> list[Passage]:
    """Let `grantee` treat the named territories of `grantor` as its own for movement.
    Every territory must be the grantor's; granting twice changes nothing."""
    _check_parties(grantor, grantee)
    ids = _territory_ids(territories)
    if not ids:
        raise InvalidInput("Name at least one of your territories.", code="invalid")
    with transaction.atomic():
        owned = set(Territory.objects.filter(pk__in=ids, owner=grantor)
                    .values_list("pk", flat=True))
        missing = [pk for pk in ids if pk not in owned]
        if missing:
            raise InvalidInput(f"You can only grant passage over your own territories; "
                               f"territory {missing[0]} is not yours.", code="not_owner")
        passages = []
        for pk in ids:
            # A grant left by a former owner of the territory is replaced.
            passage, _ = Passage.objects.update_or_create(
                grantee=grantee, territory_id=pk,
                defaults={"grantor": grantor, "campaign_id": grantor.campaign_id},
            )
            passages.append(passage)
        record_event(campaign=grantor.campaign, kind="passage_granted",
                     data={"grantor": grantor.pk, "grantee": grantee.pk, "territories": ids},
                     visibility=Event.Visibility.PRIVATE, viewers=[grantor, grantee])
    return passages


@retry_on_conflict
def revoke_passage(*, grantor: Player, grantee: Player,
                   territories: Iterable[Territory | int] | None = None) -> int:
    """Withdraw the grantee's passage over the named territories (all of them when
    None). Returns how many grants were withdrawn."""
    _check_parties(grantor, grantee)
    with transaction.atomic():
        qs = Passage.objects.filter(grantor=grantor, grantee=grantee)
        ids = None
        if territories is not None:
            ids = _territory_ids(territories)
            qs = qs.filter(territory_id__in=ids)
        revoked = sorted(qs.values_list("territory_id", flat=True))
        count, _ = qs.delete()
        if count:
            record_event(campaign=grantor.campaign, kind="passage_revoked",
                         data={"grantor": grantor.pk, "grantee": grantee.pk,
                               "territories": revoked},
                         visibility=Event.Visibility.PRIVATE, viewers=[grantor, grantee])
    return count


def passages_visible_to(campaign: Campaign, player: Player | None, sees_all: bool
                        ) -> QuerySet[Passage]:
    """Grants the caller may see: all of them for an umpire who reads private business
    (`Membership.sees_private`), otherwise those the player gave or got."""
    qs = Passage.objects.filter(campaign=campaign).select_related("territory")
    if sees_all:
        return qs
    if player is None:
        return qs.none()
    return qs.filter(Q(grantor=player) | Q(grantee=player))
