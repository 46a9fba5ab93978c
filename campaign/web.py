"""Server-rendered pages of the core app."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from campaign.access import campaigns_of


def home(request: HttpRequest) -> HttpResponse:
    campaigns = (
        campaigns_of(request.user).select_related("umpire").order_by("-created_at")[:50]
        if request.user.is_authenticated
        else []
    )
    return render(request, "home.html", {"campaigns": campaigns})


def health(request: HttpRequest) -> JsonResponse:
    """Liveness for the compose health check: the app answers and the database works."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
