"""The orders app's pages (the orders page and the receipts page), mounted under
/campaigns/<id>/ by the project's page URLs (by module name, so the core imports no app
above it)."""

from django.urls import path

from orders import pages, plan_pages, receipt_pages

urlpatterns = [
    path("orders/", pages.orders, name="orders"),
    path("orders/submit/", pages.submit, name="order-submit"),
    path("orders/<int:order_id>/withdraw/", pages.withdraw, name="order-withdraw"),
    path("receipts/", receipt_pages.receipts, name="receipts"),
    path("orders/plans/", plan_pages.plan_save, name="plan-save"),
    path("orders/plans/<str:where>/withdraw/", plan_pages.plan_remove, name="plan-remove"),
]
