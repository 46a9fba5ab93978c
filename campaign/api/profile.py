"""`GET /api/profile/` and `PATCH /api/profile/`: the signed-in user's preferences
(time zone for deadlines, e-mail notifications). Thin: validate, call the service."""

from __future__ import annotations

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.access import signed_in
from campaign.api.views import validated
from campaign.models import Profile
from campaign.services.calendar import calendar_rotate, calendar_url, feed_for_token
from campaign.services.profiles import (
    email_update,
    known_time_zones,
    profile_of,
    profile_update,
    send_verification,
)


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
        return Response(_out(profile_of(user=signed_in(request.user))))

    @extend_schema(operation_id="profile_update", request=ProfileUpdateSerializer,
                   responses={200: ProfileSerializer})
    def patch(self, request: Request) -> Response:
        data = validated(ProfileUpdateSerializer, request.data)
        return Response(_out(profile_update(user=signed_in(request.user), **data)))


class MeSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    email = serializers.CharField(read_only=True)
    calendar_url = serializers.CharField(read_only=True)
    time_zone = serializers.CharField(read_only=True, help_text="IANA name: every time on "
                                      "the pages, in mails and in the calendar is shown in "
                                      "it.")


class MeUpdateSerializer(serializers.Serializer):
    time_zone = serializers.CharField(max_length=64, required=False,
                                      help_text="An IANA zone name, e.g. Europe/Paris.")
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)

    def validate_time_zone(self, value: str) -> str:
        if value not in known_time_zones():
            raise serializers.ValidationError(f"'{value[:64]}' is not a time zone name "
                                              "(use one like Europe/Paris).")
        return value


class MeView(APIView):
    def _me(self, request: Request) -> dict:
        url = calendar_url(user=signed_in(request.user), absolute=request.build_absolute_uri)
        return {"username": request.user.get_username(),
                "email": getattr(request.user, "email", ""), "calendar_url": url,
                "time_zone": profile_of(user=signed_in(request.user)).time_zone}

    @extend_schema(operation_id="users_me", responses={200: MeSerializer},
                   description="The caller: username, email, time zone and the secret "
                   "address of their deadlines calendar (iCalendar, no sign-in needed).")
    def get(self, request: Request) -> Response:
        return Response(self._me(request))

    @extend_schema(operation_id="users_me_update", request=MeUpdateSerializer,
                   responses={200: MeSerializer},
                   description="Change your time zone and/or email (a new address is "
                   "mailed a link to confirm it). An unknown zone is 400; nothing changes.")
    def patch(self, request: Request) -> Response:
        data = validated(MeUpdateSerializer, request.data)
        with transaction.atomic():
            if "time_zone" in data:
                profile_update(user=signed_in(request.user), time_zone=data["time_zone"])
            changed = "email" in data and email_update(user=signed_in(request.user),
                                                       email=data["email"])
        if changed:
            send_verification(user=signed_in(request.user), link_for=lambda token: (
                request.build_absolute_uri(reverse("verify-email", args=[token]))))
        return Response(self._me(request))


class CalendarRotateSerializer(serializers.Serializer):
    calendar_url = serializers.CharField(read_only=True)


class CalendarRotateView(APIView):
    @extend_schema(operation_id="users_me_calendar_rotate", request=None,
                   responses={200: CalendarRotateSerializer},
                   description="Revoke the calendar address and make a new secret one: the "
                   "old address answers 404 from now on.")
    def post(self, request: Request) -> Response:
        token = calendar_rotate(user=signed_in(request.user))
        url = request.build_absolute_uri(reverse("calendar-feed", args=[token]))
        return Response({"calendar_url": url})


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The feed a calendar program polls: its address is its only key (404 otherwise)."""
    body = feed_for_token(token)
    if body is None:
        raise Http404("No such calendar.")
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")
