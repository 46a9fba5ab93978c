"""Absence (issue 27; API.md "Reach and absence (wave 3)"): a player declares until when
the stand-in plays their seat, or ends the absence at once."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import membership, require_player
from campaign.api.views import validated
from campaign.models import Player
from campaign.services import absence


class AwayInSerializer(serializers.Serializer):
    until = serializers.DateTimeField(help_text="Until when (ISO 8601 with an offset).")


class AwayOutSerializer(serializers.Serializer):
    away_until = serializers.DateTimeField(allow_null=True)
    stand_in = serializers.BooleanField()
    days_left = serializers.IntegerField(help_text="Days of absence the seat may still "
                                         "declare in this campaign.")


def away_json(player: Player) -> dict:
    return AwayOutSerializer({
        "away_until": player.away_until, "stand_in": player.stand_in,
        "days_left": absence.days_left(player, player.campaign)}).data


class AwayView(APIView):
    @extend_schema(request=AwayInSerializer, responses={200: AwayOutSerializer},
                   description="Player: the stand-in plays your seat until `until` (its "
                   "published rules: no orders, no purchases or trades, ready in every "
                   "phase). More days than the campaign's `away_days` allowance left is "
                   "`400 away_allowance`.")
    def post(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        data = validated(AwayInSerializer, request.data)
        seat = absence.declare_away(player=player, until=data["until"])
        seat.campaign = player.campaign
        return Response(away_json(seat))

    @extend_schema(request=None, responses={200: AwayOutSerializer},
                   description="Player: your absence ends now and the stand-in stops "
                   "playing your seat.")
    def delete(self, request: Request, campaign_id: int) -> Response:
        player = require_player(membership(request.user, campaign_id))
        seat = absence.end_away(player=player)
        seat.campaign = player.campaign
        return Response(away_json(seat))
