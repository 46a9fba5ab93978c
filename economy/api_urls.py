"""API routes of the economy app, mounted under /api/campaigns/<campaign_id>/."""

from django.urls import path

from economy import api as v
from economy.destinations_api import DestinationsView

urlpatterns = [
    path("me/", v.MeView.as_view(), name="api-me"),
    path("buildings/", v.BuildingListView.as_view(), name="api-buildings"),
    path("buildings/<int:building_id>/upgrades/", v.UpgradeView.as_view(),
         name="api-building-upgrades"),
    path("buildings/<int:building_id>/product/", v.ProductView.as_view(),
         name="api-building-product"),
    path("buildings/<int:building_id>/weapon/", v.TurretWeaponView.as_view(),
         name="api-building-weapon"),
    path("territories/<int:territory_id>/activation/", v.ActivationView.as_view(),
         name="api-activation"),
    path("shipments/", v.ShipmentView.as_view(), name="api-shipments"),
    path("purchases/", v.PurchaseView.as_view(), name="api-purchases"),
    path("units/", v.UnitListView.as_view(), name="api-units"),
    path("destinations/", DestinationsView.as_view(), name="api-destinations"),
    path("units/<int:unit_id>/", v.UnitDetailView.as_view(), name="api-unit"),
    path("units/<int:unit_id>/repair/", v.UnitRepairView.as_view(), name="api-unit-repair"),
    path("pilots/", v.PilotListView.as_view(), name="api-pilots"),
    path("pilots/<int:pilot_id>/", v.PilotDetailView.as_view(), name="api-pilot"),
    path("weapons/", v.WeaponListView.as_view(), name="api-weapons"),
    path("weapons/<int:weapon_id>/", v.WeaponDetailView.as_view(), name="api-weapon"),
    path("trades/", v.TradeListView.as_view(), name="api-trades"),
    path("trades/<int:trade_id>/", v.TradeDetailView.as_view(), name="api-trade"),
    path("trades/<int:trade_id>/accept/", v.TradeActionView.as_view(action="accept"),
         name="api-trade-accept"),
    path("trades/<int:trade_id>/decline/", v.TradeActionView.as_view(action="decline"),
         name="api-trade-decline"),
    path("trades/<int:trade_id>/cancel/", v.TradeActionView.as_view(action="cancel"),
         name="api-trade-cancel"),
    path("kits/", v.KitListView.as_view(), name="api-kits"),
    path("artifacts/", v.ArtifactListView.as_view(), name="api-artifacts"),
    path("artifacts/<int:territory_id>/sell/", v.ArtifactSellView.as_view(),
         name="api-artifact-sell"),
    path("artifacts/<int:territory_id>/house/", v.ArtifactHouseView.as_view(),
         name="api-artifact-house"),
    path("corrections/", v.CorrectionView.as_view(), name="api-corrections"),
    path("exchanges/", v.ExchangeView.as_view(), name="api-exchanges"),
]
