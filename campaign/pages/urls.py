"""Every page route. Each app's pages are mounted here; the API is separate
(`campaign.api.urls`)."""

from __future__ import annotations

from django.urls import include, path

from battles import order_pages
from battles import pages as battle_pages
from campaign.pages import accounts, campaigns, compliance, history, umpire
from campaign.pages.common import NAV, NavItem, always, running_player, umpire_only
from economy import pages as economy_pages
from territories import pages as territory_pages

NAV.extend([
    NavItem("Map", "map", always),
    NavItem("Economy", "economy", running_player),
    NavItem("Forces", "forces", running_player),
    NavItem("Orders", "orders", running_player),
    NavItem("Battles", "battles", always),
    NavItem("History", "history", always),
    NavItem("Umpire console", "umpire", umpire_only),
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
    path("territories/<int:territory_id>/turret/", territory_pages.turret,
         name="territory-turret"),
    path("territories/<int:territory_id>/product/", territory_pages.factory_product,
         name="territory-product"),
    path("territories/<int:territory_id>/energy/", territory_pages.energy_preview,
         name="territory-energy"),
    path("economy/", economy_pages.economy, name="economy"),
    path("economy/price/", economy_pages.weapon_price, name="economy-price"),
    path("economy/buy/", economy_pages.buy, name="economy-buy"),
    path("economy/ship/", economy_pages.ship, name="economy-ship"),
    path("trades/new/", economy_pages.trade_new, name="trade-new"),
    path("trades/<int:trade_id>/<str:action>/", economy_pages.trade_action,
         name="trade-action"),
    path("passages/grant/", economy_pages.passage_grant, name="passage-grant"),
    path("passages/revoke/", economy_pages.passage_revoke, name="passage-revoke"),
    path("artifacts/<int:territory_id>/<str:action>/", economy_pages.artifact_action,
         name="artifact-action"),
    path("forces/", economy_pages.forces, name="forces"),
    path("forces/units/<int:unit_id>/", economy_pages.unit_change, name="unit-change"),
    path("orders/", order_pages.orders, name="orders"),
    path("orders/submit/", order_pages.submit, name="order-submit"),
    path("orders/<int:order_id>/withdraw/", order_pages.withdraw, name="order-withdraw"),
    path("odds/", battle_pages.odds_new, name="odds-new"),
    path("odds/<int:odds_id>/", battle_pages.odds_status, name="odds-status"),
    path("battles/", battle_pages.battle_list, name="battles"),
    path("battles/<int:battle_id>/", battle_pages.battle_report, name="battle"),
    path("battles/<int:battle_id>/retry/", battle_pages.battle_retry, name="battle-retry"),
    path("history/", history.history, name="history"),
    path("umpire/", umpire.console, name="umpire"),
    path("umpire/advance/", umpire.advance, name="umpire-advance"),
    path("umpire/deadline/", umpire.deadline, name="umpire-deadline"),
    path("umpire/pause/", umpire.pause, name="umpire-pause"),
    path("umpire/settings/", umpire.settings_update, name="umpire-settings"),
    path("umpire/corrections/", economy_pages.umpire_correction, name="umpire-correction"),
    path("umpire/handover/", umpire.handover, name="umpire-handover"),
]

urlpatterns = [
    path("", campaigns.home, name="home"),
    path("health/", campaigns.health, name="health"),
    path("compliance/", compliance.compliance, name="compliance"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("campaigns/new/", campaigns.campaign_new, name="campaign-new"),
    path("campaigns/join/", campaigns.join_lookup, name="join-lookup"),
    path("campaigns/<int:campaign_id>/", include(campaign_pages)),
]
