"""Every page route. Each app's pages are mounted here; the API is separate
(`campaign.api.urls`)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from campaign.pages import (
    absence,
    accounts,
    campaigns,
    channels,
    claims,
    compliance,
    dice,
    history,
    messages,
    trust,
    umpire,
)
from campaign.pages.common import (
    NAV,
    NavItem,
    always,
    messages_reader,
    running_player,
    umpire_only,
)

NAV.extend([
    NavItem("Map", "map", always),
    NavItem("Economy", "economy", running_player),
    NavItem("Forces", "forces", running_player),
    NavItem("Orders", "orders", running_player),
    NavItem("Battles", "battles", always),
    NavItem("History", "history", always),
    NavItem("Messages", "messages", messages_reader, badge=messages.unread_badge),
    NavItem("Umpire console", "umpire", umpire_only),
])

campaign_pages: list[URLPattern | URLResolver] = [
    path("", campaigns.dashboard, name="campaign-dashboard"),
    path("join/", campaigns.join, name="campaign-join"),
    path("claim/", claims.claim, name="campaign-claim"),
    path("start/", campaigns.start, name="campaign-start"),
    path("ready/", campaigns.ready, name="campaign-ready"),
    path("away/", absence.away, name="campaign-away"),
    path("back/", absence.back_from_away, name="campaign-back"),
    path("stand-in/", absence.stand_in_rules, name="stand-in"),
    path("history/", history.history, name="history"),
    path("history/turn-<int:turn>.md", history.turn_markdown, name="history-turn-md"),
    path("dice/", dice.dice, name="dice"),
    path("messages/", messages.threads, name="messages"),
    path("messages/everyone/", messages.thread, name="messages-everyone"),
    path("messages/<int:player_id>/", messages.thread, name="messages-thread"),
    path("umpire/", umpire.console, name="umpire"),
    path("umpire/advance/", umpire.advance, name="umpire-advance"),
    path("umpire/deadline/", umpire.deadline, name="umpire-deadline"),
    path("umpire/pause/", umpire.pause, name="umpire-pause"),
    path("umpire/grace/", umpire.grace, name="umpire-grace"),
    path("umpire/seats/", umpire.seats, name="umpire-seats"),
    path("umpire/correct/", umpire.corrections, name="umpire-correct"),
    path("umpire/settings/", umpire.settings_page, name="umpire-settings"),
    path("umpire/data/", umpire.data, name="umpire-data"),
    path("umpire/data/export/", umpire.export_download, name="umpire-export"),
    path("umpire/data/import/", umpire.import_upload, name="umpire-import"),
    path("umpire/handover/", umpire.handover, name="umpire-handover"),
    path("umpire/remove/", umpire.remove_player, name="umpire-remove-player"),
    path("umpire/nudge/", umpire.nudge, name="umpire-nudge"),
    path("umpire/approve/", umpire.approve_player, name="umpire-approve-player"),
    path("umpire/rollback/", trust.rollback_page, name="umpire-rollback"),
    path("umpire/channels/", channels.campaign_channels, name="umpire-channels"),
    path("sandbox/", trust.sandbox_new, name="sandbox-new"),
    path("sandbox/seat/", trust.sandbox_seat, name="sandbox-seat"),
    # Each app's own pages, by module name: the core imports no app above it.
    path("", include("territories.page_urls")),
    path("", include("economy.page_urls")),
    path("", include("orders.page_urls")),
    path("", include("battles.page_urls")),
]

urlpatterns = [
    path("", campaigns.home, name="home"),
    path("health/", campaigns.health, name="health"),
    path("compliance/", compliance.compliance, name="compliance"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/unsubscribe/<str:token>/", accounts.unsubscribe, name="unsubscribe"),
    path("accounts/profile/calendar/rotate/", accounts.calendar_rotate_page,
         name="profile-calendar-rotate"),
    path("accounts/channels/", channels.user_channels, name="channels"),
    path("accounts/channels/push/", channels.push_subscription, name="push-subscription"),
    path("accounts/channels/<int:channel_id>/test/", channels.user_channel_action,
         {"action": "test"}, name="channel-test"),
    path("accounts/channels/<int:channel_id>/remove/", channels.user_channel_action,
         {"action": "remove"}, name="channel-remove"),
    path("manifest.webmanifest", channels.manifest, name="manifest"),
    path("sw.js", channels.service_worker, name="service-worker"),
    path("accounts/verify-email/<str:token>/", accounts.verify_email_page, name="verify-email"),
    path("campaigns/new/", campaigns.campaign_new, name="campaign-new"),
    path("campaigns/join/", campaigns.join_lookup, name="join-lookup"),
    path("campaigns/<int:campaign_id>/", include(campaign_pages)),
]
