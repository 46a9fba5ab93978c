"""Every page route. Each app's pages are mounted here; the API is separate
(`campaign.api.urls`)."""

from __future__ import annotations

from django.urls import include, path

from campaign.pages import accounts, campaigns

campaign_pages = [
    path("", campaigns.dashboard, name="campaign-dashboard"),
    path("join/", campaigns.join, name="campaign-join"),
    path("start/", campaigns.start, name="campaign-start"),
    path("ready/", campaigns.ready, name="campaign-ready"),
]

urlpatterns = [
    path("", campaigns.home, name="home"),
    path("health/", campaigns.health, name="health"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("campaigns/new/", campaigns.campaign_new, name="campaign-new"),
    path("campaigns/join/", campaigns.join_lookup, name="join-lookup"),
    path("campaigns/<int:campaign_id>/", include(campaign_pages)),
]
