"""The economy's pages, mounted under /campaigns/<id>/ by the project's page URLs (by
name, so the core imports no app above it)."""

from django.urls import path

from economy import pages, territory_pages

urlpatterns = [
    path("economy/", pages.economy, name="economy"),
    path("economy/price/", pages.weapon_price, name="economy-price"),
    path("economy/buy/", pages.buy, name="economy-buy"),
    path("economy/ship/", pages.ship, name="economy-ship"),
    path("trades/new/", pages.trade_new, name="trade-new"),
    path("trades/<int:trade_id>/<str:action>/", pages.trade_action, name="trade-action"),
    path("passages/grant/", pages.passage_grant, name="passage-grant"),
    path("passages/revoke/", pages.passage_revoke, name="passage-revoke"),
    path("artifacts/<int:territory_id>/<str:action>/", pages.artifact_action,
         name="artifact-action"),
    path("forces/", pages.forces, name="forces"),
    path("forces/units/<int:unit_id>/", pages.unit_change, name="unit-change"),
    path("forces/<str:kind>/<int:item_id>/name/", pages.rename, name="rename"),
    path("umpire/corrections/", pages.umpire_correction, name="umpire-correction"),
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
]
