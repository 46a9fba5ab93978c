"""API routes of the economy app, mounted under /api/campaigns/<campaign_id>/."""

urlpatterns: list = []
