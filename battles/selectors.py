"""Reads about battles other parts of the site need."""

from __future__ import annotations

from battles.models import Battle


def battle_names(campaign_id: int, ids: set[int]) -> dict[int, str]:
    """The journal's lookup: "the battle of Kepler" for each battle id (one query)."""
    return {pk: f"the battle of {name}" for pk, name in Battle.objects.filter(
        campaign_id=campaign_id, pk__in=ids).values_list("pk", "territory__name")}
