"""`GET /api/profile/` and `PATCH /api/profile/`: the signed-in user's preferences
(time zone for deadlines, e-mail notifications). Thin: validate, call the service."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.api.views import validated
from campaign.models import Profile
from campaign.services.profiles import known_time_zones, profile_of, profile_update


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    time_zone = serializers.CharField(max_length=64)
    email_notifications = serializers.BooleanField()


class ProfileUpdateSerializer(serializers.Serializer):
    time_zone = serializers.CharField(max_length=64, required=False,
                                      help_text="An IANA zone name, e.g. Europe/Paris.")
    email_notifications = serializers.BooleanField(required=False)

    def validate_time_zone(self, value: str) -> str:
        if value not in known_time_zones():
            raise serializers.ValidationError("Unknown time zone (use a name like "
                                              "Europe/Paris).")
        return value


def _out(profile: Profile) -> dict:
    return {"username": profile.user.get_username(), "time_zone": profile.time_zone,
            "email_notifications": profile.email_notifications}


class ProfileView(APIView):
    @extend_schema(operation_id="profile_retrieve", responses={200: ProfileSerializer})
    def get(self, request: Request) -> Response:
        return Response(_out(profile_of(user=request.user)))

    @extend_schema(operation_id="profile_update", request=ProfileUpdateSerializer,
                   responses={200: ProfileSerializer})
    def patch(self, request: Request) -> Response:
        data = validated(ProfileUpdateSerializer, request.data)
        return Response(_out(profile_update(user=request.user, **data)))
