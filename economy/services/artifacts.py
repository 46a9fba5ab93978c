"""Xenotechnologic artifacts: sold, or housed in a laboratory.

Seed, exploration table, 7: "Xenotechnologic artifact. You can either sell it for 200
credits or house it in a laboratory, allowing it to produce twice as many research
points / turn." 8: "Xeno craft : all your laboratories produce twice as many research
points." (the craft needs no choice: production doubles every laboratory of the owner of
the territory where it was found).

R-ECO-19: the artifact belongs to whoever owns the territory it lies on: the laboratory
that houses it, else the territory where it was found. Until its holder chooses, it rests
in the first active laboratory (lowest id) of the territory where it was found. It is
sold once, in the commercial phase, for 200 SC (ledger reason `artifact_sale`); a sold
artifact doubles nothing. It is housed (commercial or activity phase) in any laboratory
of its holder, one artifact per laboratory; it may be moved again later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from campaign.errors import Conflict, InvalidInput, NotFound
from campaign.models import Player
from campaign.rules.tables import DISCOVERIES_BY_KEY
from campaign.services.journal import record_private
from campaign.services.locking import retry_on_conflict
from economy.models import Artifact
from economy.services import ledger
from economy.services.buildings import own_building
from economy.services.common import as_id, require_phase
from economy.services.energy import PoweredBuilding
from territories.models import Exploration

SELL_VALUE: int = DISCOVERIES_BY_KEY["artifact"].sell_value or 200


def ensure_artifacts(campaign_id: int) -> None:
    """An `Artifact` row for every exploration that found one (explorations written
    directly, e.g. by fixtures or the casebook, get theirs here)."""
    missing = list(Exploration.objects.filter(campaign_id=campaign_id, discovery="artifact",
                                              artifact__isnull=True))
    for e in missing:
        Artifact.objects.get_or_create(exploration=e, defaults={
            "campaign_id": campaign_id, "territory_id": e.territory_id})


def holder_id(artifact: Artifact) -> int | None:
    """The player the artifact belongs to now (R-ECO-19)."""
    if artifact.laboratory_id is not None and artifact.laboratory is not None:
        return artifact.laboratory.territory.owner_id
    return artifact.territory.owner_id


def artifacts_of(player: Player) -> list[Artifact]:
    """The artifacts the player holds (sold ones included, for the record)."""
    ensure_artifacts(player.campaign_id)
    qs = Artifact.objects.filter(campaign_id=player.campaign_id).select_related(
        "territory", "laboratory__territory")
    return [a for a in qs if holder_id(a) == player.pk
            or (a.status == Artifact.Status.SOLD and a.sold_by_id == player.pk)]


def _held(player: Player, territory_id: object) -> Artifact:
    """The artifact found on `territory_id` that the player holds; 404 otherwise (another
    player's artifact is not visible)."""
    ensure_artifacts(player.campaign_id)
    # of=("self",): PostgreSQL refuses FOR UPDATE on the nullable side of the outer join
    # that select_related("laboratory__...") makes; only the artifact row needs the lock.
    artifact = (Artifact.objects.select_for_update(of=("self",))
                .select_related("territory", "laboratory__territory")
                .filter(campaign_id=player.campaign_id,
                        territory_id=as_id(territory_id, "territory")).first())
    if artifact is None or (holder_id(artifact) != player.pk
                            and artifact.sold_by_id != player.pk):
        raise NotFound("You hold no artifact found on this territory.")
    if artifact.status == Artifact.Status.SOLD:
        raise Conflict("This artifact has already been sold.", code="artifact_sold")
    return artifact


@retry_on_conflict
def artifact_sell(*, player: Player, territory_id: object) -> Artifact:
    """Sell the artifact found on `territory_id` for 200 SC (commercial phase), once."""
    require_phase(player.campaign, "commercial")
    with transaction.atomic():
        artifact = _held(player, territory_id)
        claimed = Artifact.objects.filter(pk=artifact.pk, status=Artifact.Status.KEPT).update(
            status=Artifact.Status.SOLD, laboratory=None, sold_turn=player.campaign.turn,
            sold_by=player)
        if not claimed:
            raise Conflict("This artifact has already been sold.", code="artifact_sold")
        ledger.post(player=player, amount=SELL_VALUE, reason="artifact_sale",
                    detail=f"artifact found on {artifact.territory.name}",
                    related_kind="artifact", related_id=artifact.pk)
        artifact.refresh_from_db()
        record_private(player=player, kind="artifact_sold",
                       data={"artifact": artifact.pk, "territory": artifact.territory_id,
                             "credits": SELL_VALUE})
    return artifact


@retry_on_conflict
def artifact_house(*, player: Player, territory_id: object, laboratory: object) -> Artifact:
    """House the artifact found on `territory_id` in one of the player's laboratories."""
    require_phase(player.campaign, "commercial", "activity")
    with transaction.atomic():
        artifact = _held(player, territory_id)
        lab = own_building(player=player, building_id=laboratory, for_update=True)
        if lab.kind != "laboratory":
            raise InvalidInput("An artifact is housed in a laboratory.",
                               code="not_a_laboratory",
                               fields={"laboratory": ["Not a laboratory."]})
        if lab.hit_points <= 0:
            raise Conflict("This laboratory is destroyed.", code="destroyed")
        if Artifact.objects.filter(laboratory=lab, status=Artifact.Status.KEPT).exclude(
                pk=artifact.pk).exists():
            raise Conflict("This laboratory already houses an artifact.",
                           code="laboratory_occupied")
        artifact.laboratory = lab
        artifact.save(update_fields=["laboratory"])
        record_private(player=player, kind="artifact_housed",
                       data={"artifact": artifact.pk, "territory": artifact.territory_id,
                             "laboratory": lab.pk})
    return artifact


def doubled_laboratories(*, labs_by_territory: Mapping[int, Sequence[PoweredBuilding]],
                         territories: set[int],
                         kept_in_campaign: list[Artifact] | None = None) -> dict[int, int]:
    """Laboratory id -> artifact id, for the active laboratories given (one player's):
    explicitly housed artifacts first, then kept artifacts without a choice in the first
    free active laboratory of the territory where they were found. `kept_in_campaign`:
    the campaign's kept artifacts, read once by a caller that asks for every player."""
    active = {b.pk for labs in labs_by_territory.values() for b in labs}
    result: dict[int, int] = {}
    if kept_in_campaign is not None:
        kept = [a for a in kept_in_campaign
                if a.territory_id in territories or a.laboratory_id in active]
    else:
        kept = list(Artifact.objects.filter(status=Artifact.Status.KEPT).filter(
            territory_id__in=territories) | Artifact.objects.filter(
            status=Artifact.Status.KEPT, laboratory_id__in=active))
    for a in sorted(set(kept), key=lambda a: a.pk):
        if a.laboratory_id is not None and a.laboratory_id in active \
                and a.laboratory_id not in result:
            result[a.laboratory_id] = a.pk
    for a in sorted(set(kept), key=lambda a: a.pk):
        if a.laboratory_id is None:
            for lab in labs_by_territory.get(a.territory_id, []):
                if lab.pk not in result:
                    result[lab.pk] = a.pk
                    break
    return result


def artifact_as_dict(artifact: Artifact) -> dict[str, Any]:
    return {"id": artifact.pk, "territory": artifact.territory_id,
            "status": artifact.status, "laboratory": artifact.laboratory_id,
            "sold_turn": artifact.sold_turn}
