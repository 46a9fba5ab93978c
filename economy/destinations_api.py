"""Where one of the caller's units may end its move (seed, "Move Phase"): a unit is the
economy's row, the movement graph the territories app's, so the question is asked here,
above both (the layers contract in pyproject.toml)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import membership, require_player
from campaign.errors import InvalidInput, NotFound
from economy.models import Unit
from territories.models import Territory
from territories.services.movement import legal_destinations

ASK = "Give ?unit=<id> or ?from=<territory id>."


class DestinationsView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("from", int, description="origin territory id"),
                    OpenApiParameter("unit", int, description="or: one of your units")],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """Every territory a unit of yours may end its move on (seed, "Move Phase")."""
        member = membership(request.user, campaign_id)
        player = require_player(member)
        player.campaign = member.campaign
        origin: int | None = None
        try:
            if "unit" in request.query_params:
                found = (Unit.objects.filter(player=player,
                                             pk=int(request.query_params["unit"]))
                         .values_list("territory_id", flat=True))
                if not found:
                    raise NotFound("No such unit of yours.")
                origin = found[0]
                if origin is None:
                    raise InvalidInput("This unit is off the map.", code="off_map")
            elif "from" in request.query_params:
                origin = int(request.query_params["from"])
        except ValueError:
            raise InvalidInput(ASK) from None
        if origin is None:
            raise InvalidInput(ASK)
        if not Territory.objects.filter(campaign=member.campaign, pk=origin).exists():
            raise NotFound("No such territory in this campaign.")
        return Response({"origin": origin,
                         "destinations": sorted(legal_destinations(player, origin))})
