"""Chat and push channels on the pages (issue 27, item 2): a player's own channels and
push on this device (`/accounts/channels/`), an umpire's campaign channels
(`/campaigns/<id>/umpire/channels/`), and what makes the site installable (the web app
manifest and the service worker, served from the site root)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign import channels as transports
from campaign import push
from campaign.access import Membership, signed_in
from campaign.errors import GameError, error_body
from campaign.models import Channel, PushSubscription
from campaign.pages.common import (
    attempt,
    campaign_page,
    optional_int,
    render_campaign,
    require_umpire_page,
)
from campaign.services import channels

SERVICE_WORKER = Path(__file__).resolve().parent.parent.parent / "static" / "js" / "sw.js"


def _rows(owned: Any) -> list[dict[str, Any]]:
    return [{"pk": c.pk, "label": channels.label(c), "last_outcome": c.last_outcome,
             "last_at": c.last_at} for c in owned]


EXAMPLES = [
    ("Discord", "discord://WEBHOOK_ID/WEBHOOK_TOKEN"),
    ("Slack", "slack://TOKEN_A/TOKEN_B/TOKEN_C/#channel"),
    ("Telegram", "tgram://BOT_TOKEN/CHAT_ID"),
    ("Matrix", "matrixs://USER:PASSWORD@matrix.example.org/#room"),
    ("ntfy", "ntfy://your-topic (ntfy.sh) or ntfys://ntfy.example.org/your-topic"),
]


@login_required
@require_http_methods(["GET", "POST"])
def user_channels(request: HttpRequest) -> HttpResponse:
    """A player's own channels: add an address, send a test, remove it; push here."""
    if request.method == "POST":
        address = request.POST.get("address", "")
        attempt(request, lambda: channels.channel_add(address=address,
                                                      user=signed_in(request.user)),
                success="Channel saved. Send a test to check that it arrives.")
        return redirect("channels")
    return render(request, "pages/channels.html", {
        "rows": _rows(Channel.objects.filter(user=signed_in(request.user))),
        "examples": EXAMPLES, "max_channels": channels.MAX_CHANNELS,
        "push_key": push.vapid_keys().public,
        "push_devices": PushSubscription.objects.filter(user=signed_in(request.user)).count()})


@login_required
@require_POST
def user_channel_action(request: HttpRequest, channel_id: int, action: str) -> HttpResponse:
    if action == "test":
        attempt(request, lambda: channels.channel_test(channel_id=channel_id,
                                                       user=signed_in(request.user)),
                success="A test message is on its way; this page says below whether it "
                        "arrived.")
    else:
        attempt(request, lambda: channels.channel_remove(channel_id=channel_id,
                                                         user=signed_in(request.user)),
                success="Channel removed: nothing more is sent there.")
    return redirect("channels")


def _json_refusal(detail: str, code: str, status: int = 400) -> JsonResponse:
    return JsonResponse(error_body(code, detail), status=status)


@login_required
@require_http_methods(["POST", "DELETE"])
def push_subscription(request: HttpRequest) -> JsonResponse:
    """Save (POST) or remove (DELETE) this browser's push subscription: the body is the
    browser's `PushSubscription.toJSON()` (or `{"endpoint"}` to remove). CSRF-protected."""
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return _json_refusal("The request is not JSON.", "invalid_json")
    if not isinstance(data, dict):
        return _json_refusal("The request must be a JSON object.", "invalid_json")
    endpoint = data.get("endpoint")
    if request.method == "DELETE":
        removed = channels.push_unsubscribe(user=signed_in(request.user),
                                            endpoint=str(endpoint or ""))
        return JsonResponse({"detail": "Push is off on this device." if removed else
                             "Push was not on for this device."})
    given = data.get("keys")
    keys: dict[str, Any] = given if isinstance(given, dict) else {}
    try:
        channels.push_subscribe(user=signed_in(request.user), endpoint=endpoint,
                                p256dh=keys.get("p256dh"), auth=keys.get("auth"))
    except GameError as exc:
        return _json_refusal(exc.detail, exc.code, exc.status_code)
    return JsonResponse({"detail": "Push is on for this device: deadlines, results and "
                                   "messages will appear here."}, status=201)


@campaign_page
@require_http_methods(["GET", "POST"])
def campaign_channels(request: HttpRequest, member: Membership) -> HttpResponse:
    """The umpire's campaign channels: the campaign's public events posted to chat."""
    require_umpire_page(member)
    campaign = member.campaign
    here = reverse("umpire-channels", args=[campaign.pk])
    if request.method == "POST":
        action = request.POST.get("action", "add")
        which = optional_int(request.POST.get("channel")) or 0
        if action == "test":
            attempt(request, lambda: channels.channel_test(channel_id=which,
                                                           campaign=campaign),
                    success="A test message is on its way; this page says below whether "
                            "it arrived.")
        elif action == "remove":
            attempt(request, lambda: channels.channel_remove(channel_id=which,
                                                             campaign=campaign),
                    success="Channel removed: nothing more is posted there.")
        else:
            address = request.POST.get("address", "")
            attempt(request, lambda: channels.channel_add(address=address,
                                                          campaign=campaign),
                    success="Channel saved. Send a test to check that it arrives.")
        return redirect(here)
    return render_campaign(request, member, "pages/umpire_channels.html", {
        "rows": _rows(Channel.objects.filter(campaign=campaign)), "examples": EXAMPLES,
        "max_channels": channels.MAX_CHANNELS, "services": transports.SERVICES})


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the site installs as an app opening on the home page."""
    return JsonResponse({
        "name": "Unlimit3d 8 campaigns", "short_name": "Unlimit3d 8",
        "description": "Run and play Unlimit3d 8 campaigns.",
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#203040",
        "icons": [{"src": static(f"icons/icon-{n}.png"), "sizes": f"{n}x{n}",
                   "type": "image/png", "purpose": "any"}
                  for n in (192, 512)],
    }, content_type="application/manifest+json")


@require_GET
@cache_control(max_age=0, no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site root so its scope is the whole site."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response
