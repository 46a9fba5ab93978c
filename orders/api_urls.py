"""API routes for sealed orders and their receipts, under /api/campaigns/<campaign_id>/
(mounted by the project's API URLs by module name)."""

from django.urls import path

from orders import api_views as v

urlpatterns = [
    path("orders/", v.OrderListView.as_view(), name="api-orders"),
    path("orders/<int:order_id>/", v.OrderDetailView.as_view(), name="api-order"),
    path("receipts/", v.ReceiptListView.as_view(), name="api-receipts"),
]
