"""Every page route. Each app's pages are mounted here; the API is separate
(`campaign.api.urls`)."""

from __future__ import annotations

from django.urls import include, path

from campaign.pages import accounts, campaigns
from campaign.pages.common import NAV, NavItem, always, running_player
from economy import pages as economy_pages
from territories import pages as territory_pages

NAV.extend([
    NavItem("Map", "map", always),
    NavItem("Economy", "economy", running_player),
    NavItem("Forces", "forces", running_player),
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
    path("economy/", economy_pages.economy, name="economy"),
    path("economy/price/", economy_pages.weapon_price, name="economy-price"),
    path("economy/buy/", economy_pages.buy, name="economy-buy"),
    path("economy/ship/", economy_pages.ship, name="economy-ship"),
    path("trades/new/", economy_pages.trade_new, name="trade-new"),
    path("trades/<int:trade_id>/<str:action>/", economy_pages.trade_action,
         name="trade-action"),
    path("forces/", economy_pages.forces, name="forces"),
    path("forces/units/<int:unit_id>/", economy_pages.unit_change, name="unit-change"),
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
