"""The messages pages: the reader's threads (one per other player and "Everyone") with
their unread counts, and one thread with its compose box (issue 26.5). Reads come from
`campaign.inbox`, writes go through `campaign.services.messages`; the page never shows a
thread that is not the reader's (404, so even its existence says nothing)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from campaign import inbox
from campaign.access import Membership
from campaign.errors import GameError
from campaign.models import Player
from campaign.pages.common import is_htmx, page_membership, render_campaign
from campaign.services import messages as message_service


@login_required
def threads(request: HttpRequest, campaign_id: int) -> HttpResponse:
    member = page_membership(request, campaign_id)
    return render_campaign(request, member, "pages/messages.html",
                           {"threads": inbox.threads(member)})


def _correspondent(member: Membership, player_id: int | None) -> Player | None:
    if player_id is None:
        return None
    found = (Player.objects.filter(campaign=member.campaign, pk=player_id)
             .select_related("user").first())
    if found is None or not inbox.may_read(member, found):
        raise Http404("No such conversation.")
    return found


def thread_url(campaign_id: int, correspondent: Player | None) -> str:
    if correspondent is None:
        return reverse("messages-everyone", args=[campaign_id])
    return reverse("messages-thread", args=[campaign_id, correspondent.pk])


@login_required
def thread(request: HttpRequest, campaign_id: int, player_id: int | None = None
           ) -> HttpResponse:
    """GET: the conversation, oldest first, read up to its newest message. POST: send
    `text` to the thread (post/redirect/get; htmx gets the thread back in place)."""
    member = page_membership(request, campaign_id)
    correspondent = _correspondent(member, player_id)
    if not inbox.may_read(member, correspondent):
        raise Http404("No such conversation.")
    url = thread_url(member.campaign.pk, correspondent)
    error = ""
    text = ""
    status = 200
    if request.method == "POST":
        if member.player is None:
            raise PermissionDenied("Only the players of this campaign write messages.")
        text = request.POST.get("text", "")
        try:
            message_service.send_message(
                member=member, to=correspondent.pk if correspondent else None, text=text)
        except GameError as exc:
            # htmx swaps only a 2xx answer: it gets the thread with its form error as a
            # 200; a plain form post gets the precise 4xx
            error, status = exc.detail, 200 if is_htmx(request) else exc.status_code
        else:
            if not is_htmx(request):
                return redirect(url + "#latest")
            text = ""
    conversation = inbox.thread_messages(member, correspondent)
    seen = inbox.read_until(member, correspondent)
    mine = member.player.pk if member.player is not None else None
    new = {m.pk for m in conversation
           if m.sender_id != mine and (seen is None or m.created_at > seen)}
    if conversation:
        message_service.thread_read(member=member, correspondent=correspondent,
                                    until=conversation[-1].created_at)
    context = {"correspondent": correspondent, "conversation": conversation,
               "new": new, "page_size": inbox.PAGE,
               "thread_name": correspondent.user.get_username() if correspondent
               else "Everyone", "thread_url": url, "error": error, "text": text,
               "may_write": member.player is not None,
               "max_text": message_service.MAX_TEXT}
    template = "pages/_message_thread.html" if is_htmx(request) else "pages/message_thread.html"
    return render_campaign(request, member, template, context, status=status)


def unread_badge(member: Membership) -> int:
    """The navigation's count of the reader's unread messages (one query)."""
    return inbox.unread_total(member)
