"""Every page route. Each app's pages are mounted here; the API is separate
(`campaign.api.urls`)."""

from __future__ import annotations

from django.urls import include, path

from campaign.pages import accounts, campaigns
from campaign.pages.common import NAV, NavItem, always
from territories import pages as territory_pages

NAV.extend([
    NavItem("Map", "map", always),
])

campaign_pages = [
    path("", campaigns.dashboard, name="campaign-dashboard"),
    path("join/", campaigns.join, name="campaign-join"),
    path("start/", campaigns.start, name="campaign-start"),
    path("ready/", campaigns.ready, name="campaign-ready"),
    path("map/", territory_pages.meta_map, name="map"),
    path("territories/<int:territory_id>/", territory_pages.territory, name="territory"),
    path("territories/<int:territory_id>/build/", territory_pages.build,
         name="territory-build"),
    path("territories/<int:territory_id>/upgrade/", territory_pages.upgrade,
         name="territory-upgrade"),
    path("territories/<int:territory_id>/activate/", territory_pages.activate,
         name="territory-activate"),
    path("territories/<int:territory_id>/energy/", territory_pages.energy_preview,
         name="territory-energy"),
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
