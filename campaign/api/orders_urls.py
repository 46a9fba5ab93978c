"""API routes for sealed orders and the journal, under /api/campaigns/<campaign_id>/."""

urlpatterns: list = []
