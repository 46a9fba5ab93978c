"""API routes for the clock, the journal, seats and notifications, under
/api/campaigns/<campaign_id>/ (sealed orders: `orders.api_urls`)."""

from django.urls import path

from campaign.api import absence_views
from campaign.api import clock_views as v

urlpatterns = [
    path("away/", absence_views.AwayView.as_view(), name="api-away"),
    path("events/", v.EventListView.as_view(), name="api-events"),
    path("deadline/", v.DeadlineView.as_view(), name="api-deadline"),
    path("pause/", v.PauseView.as_view(), name="api-pause"),
    path("resume/", v.ResumeView.as_view(), name="api-resume"),
    path("players/<int:player_id>/handover/", v.HandoverView.as_view(), name="api-handover"),
    path("notifications/", v.NotificationSettingsView.as_view(), name="api-notifications"),
]
