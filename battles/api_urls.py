"""API routes of the battles app, mounted under /api/campaigns/<campaign_id>/."""

urlpatterns: list = []
