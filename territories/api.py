"""Thin API views of the meta-map: territories, pictures, map export, right of passage
(a unit's destinations: `economy.destinations_api`). Access is decided by
`campaign.access.membership` (404 for non-members); what a member sees of each territory
by `territories.selectors`."""

from __future__ import annotations

import hashlib
import json

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, OpenApiTypes, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import membership, reader, require_player
from campaign.api.views import validated
from campaign.errors import Forbidden, InvalidInput, NotFound
from campaign.models import Player
from territories.models import Passage
from territories.selectors import static_map, territories_for
from territories.services.maps import export_map
from territories.services.passages import grant_passage, passages_visible_to, revoke_passage
from territories.svg import meta_map_svg, territory_map_svg


def _validated(serializer_class: type, data: object) -> dict:
    return validated(serializer_class, data)


class TerritoryBuildingOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    x = serializers.IntegerField()
    y = serializers.IntegerField()
    active = serializers.BooleanField()
    hit_points = serializers.IntegerField()


class StaticTerritoryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    x = serializers.FloatField(help_text="stored layout position, 0..1")
    y = serializers.FloatField()
    neighbors = serializers.ListField(child=serializers.IntegerField())


class TerritoryStateOut(serializers.Serializer):
    id = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True, help_text="player id or null")
    explored = serializers.BooleanField()
    mine = serializers.BooleanField()
    units = serializers.IntegerField(help_text="the caller's units there (all, for the umpire)")
    deposit = serializers.DictField(allow_null=True,
                                    help_text="the exploration result, when the caller may "
                                    "see it")
    buildings = TerritoryBuildingOut(many=True, required=False,
                            help_text="present when the caller owns it (or is the umpire)")


class TerritoryOut(StaticTerritoryOut, TerritoryStateOut):
    """A territory in full: its static part (name, layout, neighbours) and its state."""


class TerritoryListView(APIView):
    permission_classes = [AllowAny]  # a public league's map is anyone's to read

    @extend_schema(responses={200: TerritoryOut(many=True)},
                   description="Every territory as the caller may see it, with its name, "
                   "neighbours and layout (the contract). A client that keeps the static "
                   "map (`map/static/`, cacheable) can read only what changes in play "
                   "from `map/state/`.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = reader(request.user, campaign_id)
        return Response(territories_for(member))


#: The static map changes only when an umpire renames a territory: clients revalidate
#: after this many seconds (a 304 costs one query and no body).
STATIC_MAP_MAX_AGE = 300


class MapStaticView(APIView):
    permission_classes = [AllowAny]  # as readable as the territories list

    @extend_schema(
        operation_id="map_static",
        parameters=[
            OpenApiParameter("If-None-Match", str, location=OpenApiParameter.HEADER,
                             required=False, description="The ETag of a copy you hold."),
            OpenApiParameter("ETag", str, location=OpenApiParameter.HEADER,
                             response=[200, 304]),
            OpenApiParameter("Cache-Control", str, location=OpenApiParameter.HEADER,
                             response=[200, 304]),
        ],
        responses={200: StaticTerritoryOut(many=True),
                   304: OpenApiResponse(description="Your copy (If-None-Match) is current.")},
        description="The part of the meta-map that does not change in play, the same for "
        "every reader: each territory's id, name, layout and neighbours. Served with an "
        "ETag and `Cache-Control`; `304` with no body when If-None-Match names the current "
        "ETag.")
    def get(self, request: Request, campaign_id: int) -> HttpResponse:
        member = reader(request.user, campaign_id)
        body = json.dumps(static_map(member.campaign), separators=(",", ":")).encode()
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        cache = f"private, max-age={STATIC_MAP_MAX_AGE}"
        wanted = request.headers.get("If-None-Match", "")
        if etag in [tag.strip().removeprefix("W/") for tag in wanted.split(",")]:
            response = HttpResponse(status=304)
        else:
            response = HttpResponse(body, content_type="application/json")
        response["ETag"] = etag
        response["Cache-Control"] = cache
        return response


class MapStateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="map_state", responses={200: TerritoryStateOut(many=True)},
                   description="The territories list without its static part (name, "
                   "neighbours, layout: `map/static/`): what changes in play, as the "
                   "caller may see it.")
    def get(self, request: Request, campaign_id: int) -> Response:
        member = reader(request.user, campaign_id)
        return Response(territories_for(member, static=False))


class TerritoryDetailView(APIView):
    @extend_schema(responses={200: TerritoryOut})
    def get(self, request: Request, campaign_id: int, territory_id: int) -> Response:
        member = membership(request.user, campaign_id)
        rows = territories_for(member, only=territory_id)
        if not rows:
            raise NotFound("No such territory in this campaign.")
        return Response(rows[0])


def _players(campaign_id: int) -> dict[int, dict[str, str]]:
    return {p.pk: {"color": p.color, "username": p.user.username}
            for p in Player.objects.filter(campaign_id=campaign_id).select_related("user")}


class MapSvgView(APIView):
    @extend_schema(responses={(200, "image/svg+xml"): OpenApiTypes.STR})
    def get(self, request: Request, campaign_id: int) -> HttpResponse:
        member = membership(request.user, campaign_id)
        svg = meta_map_svg(campaign_id=member.campaign.pk, campaign_name=member.campaign.name,
                           territories=territories_for(member),
                           players=_players(member.campaign.pk),
                           viewer=member.player.pk if member.player else None)
        return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


class TerritorySvgView(APIView):
    @extend_schema(responses={(200, "image/svg+xml"): OpenApiTypes.STR})
    def get(self, request: Request, campaign_id: int, territory_id: int) -> HttpResponse:
        member = membership(request.user, campaign_id)
        rows = territories_for(member, only=territory_id)
        if not rows:
            raise NotFound("No such territory in this campaign.")
        svg = territory_map_svg(name=rows[0]["name"], buildings=rows[0].get("buildings"))
        return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


class MapExportView(APIView):
    fmt = "node_link"

    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT,
                              (200, "application/graphml+xml"): OpenApiTypes.STR},
                   description="The map as a file: node-link JSON (`map.json`) or GraphML "
                   "(`map.graphml`).")
    def get(self, request: Request, campaign_id: int) -> HttpResponse:
        member = membership(request.user, campaign_id)
        text = export_map(member.campaign, self.fmt)
        content_type = "application/graphml+xml" if self.fmt == "graphml" else "application/json"
        response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
        ext = "graphml" if self.fmt == "graphml" else "json"
        response["Content-Disposition"] = f'attachment; filename="map-{campaign_id}.{ext}"'
        return response


class PassageIn(serializers.Serializer):
    grantee = serializers.IntegerField(help_text="player id")
    territories = serializers.ListField(child=serializers.IntegerField(), required=False,
                                        help_text="territory ids (DELETE: all when omitted)")


class PassageOut(serializers.Serializer):
    id = serializers.IntegerField()
    grantor = serializers.IntegerField(source="grantor_id")
    grantee = serializers.IntegerField(source="grantee_id")
    territory = serializers.IntegerField(source="territory_id")
    territory_name = serializers.CharField(source="territory.name")
    granted_at = serializers.DateTimeField()


def _grantee(member, player_id: int) -> Player:
    grantee = Player.objects.filter(campaign=member.campaign, pk=player_id).first()
    if grantee is None:
        raise InvalidInput("That player does not play in this campaign.", code="unknown_player",
                           fields={"grantee": ["unknown player"]})
    grantee.campaign = member.campaign
    return grantee


class PassageListView(APIView):
    @extend_schema(responses={200: PassageOut(many=True)})
    def get(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        qs = passages_visible_to(member.campaign, member.player, member.sees_private)
        return Response(PassageOut(qs, many=True).data)

    @extend_schema(request=PassageIn, responses={201: PassageOut(many=True)})
    def post(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        grantor = require_player(member)
        data = _validated(PassageIn, request.data)
        passages = grant_passage(grantor=grantor, grantee=_grantee(member, data["grantee"]),
                                 territories=data.get("territories") or [])
        qs = Passage.objects.filter(pk__in=[p.pk for p in passages]).select_related("territory")
        return Response(PassageOut(qs, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PassageIn, responses={200: OpenApiTypes.OBJECT},
                   operation_id="campaigns_passages_revoke")
    def delete(self, request: Request, campaign_id: int) -> Response:
        member = membership(request.user, campaign_id)
        grantor = require_player(member)
        data = _validated(PassageIn, request.data)
        count = revoke_passage(grantor=grantor, grantee=_grantee(member, data["grantee"]),
                               territories=data.get("territories"))
        return Response({"revoked": count})


class PassageDetailView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT},
                   operation_id="campaigns_passage_revoke_one")
    def delete(self, request: Request, campaign_id: int, passage_id: int) -> Response:
        member = membership(request.user, campaign_id)
        passage = passages_visible_to(member.campaign, member.player, member.sees_private) \
            .filter(pk=passage_id).select_related("grantor", "grantee").first()
        if passage is None:
            raise NotFound("No such grant of passage.")
        grantor = require_player(member)
        if passage.grantor_id != grantor.pk:
            raise Forbidden("Only the player who granted passage may revoke it.")
        grantee = passage.grantee
        grantee.campaign = member.campaign
        count = revoke_passage(grantor=grantor, grantee=grantee,
                               territories=[passage.territory_id])
        return Response({"revoked": count})
