"""API routes of the territories app, mounted under /api/campaigns/<campaign_id>/."""

urlpatterns: list = []
