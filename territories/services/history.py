"""The meta-map as it stood after any phase of any turn (issue 16), rebuilt from the
journal, which holds every change of owner: the starting territories
(`campaign_started`) and every territory taken (`territory_taken`, unopposed or after a
battle), both public. It works for turns played before any snapshot existed."""

from __future__ import annotations

from campaign.models import PHASE_ORDER, Campaign, Event, PhaseChange


def moments(campaign: Campaign) -> list[tuple[int, str]]:
    """Every (turn, phase) the campaign has opened, in order."""
    return list(PhaseChange.objects.filter(campaign=campaign).order_by("id")
                .values_list("turn", "phase"))


def _rank(turn: int, phase: str) -> tuple[int, int]:
    return turn, PHASE_ORDER.index(phase) if phase in PHASE_ORDER else -1


def owners_at(campaign: Campaign, turn: int, phase: str) -> dict[int, int | None]:
    """{territory id: owner player id} as the map stood during (turn, phase): every change
    journaled up to the end of that phase."""
    owners: dict[int, int | None] = {}
    limit = _rank(turn, phase)
    for kind, data, e_turn, e_phase in (
            Event.objects.filter(campaign=campaign,
                                 kind__in=("campaign_started", "territory_taken",
                                           "ownership_corrected"))
            .order_by("id").values_list("kind", "data", "turn", "phase")):
        if _rank(e_turn, e_phase or "") > limit:
            break
        if kind == "campaign_started":
            for player, territory in (data.get("starts") or {}).items():
                owners[int(territory)] = int(player)
        elif data.get("territory") is not None:
            owners[int(data["territory"])] = data.get("player")
    return owners
