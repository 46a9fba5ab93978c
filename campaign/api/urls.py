from django.urls import URLPattern, URLResolver, include, path

from campaign.api import views
from campaign.api.profile import CalendarRotateView, MeView, ProfileView

campaign_urls: list[URLPattern | URLResolver] = [
    path("", views.CampaignDetailView.as_view(), name="api-campaign"),
    path("settings/", views.CampaignSettingsView.as_view(), name="api-campaign-settings"),
    path("join/", views.JoinView.as_view(), name="api-campaign-join"),
    path("claim/", views.ClaimView.as_view(), name="api-campaign-claim"),
    path("start/", views.StartView.as_view(), name="api-campaign-start"),
    path("advance/", views.AdvanceView.as_view(), name="api-campaign-advance"),
    path("ready/", views.ReadyView.as_view(), name="api-campaign-ready"),
    path("messages/", views.MessagesView.as_view(), name="api-messages"),
    path("dice/", views.DiceView.as_view(), name="api-dice"),
    path("verify/", views.VerifyView.as_view(), name="api-verify"),
    path("export/", views.ExportView.as_view(), name="api-export"),
    path("rollback/", views.RollbackView.as_view(), name="api-rollback"),
    path("sandbox/", views.SandboxView.as_view(), name="api-sandbox"),
    path("sandbox/seat/", views.SandboxSeatView.as_view(), name="api-sandbox-seat"),
    path("catalogue/", views.CatalogueView.as_view(), name="api-campaign-catalogue"),
    path("", include("territories.api_urls")),
    path("", include("economy.api_urls")),
    path("", include("battles.api_urls")),
    path("", include("orders.api_urls")),
    path("", include("campaign.api.clock_urls")),
]

urlpatterns = [
    path("users/", views.UserCreateView.as_view(), name="api-users"),
    path("users/me/", MeView.as_view(), name="api-users-me"),
    path("users/me/calendar/rotate/", CalendarRotateView.as_view(),
         name="api-users-me-calendar-rotate"),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("profile/", ProfileView.as_view(), name="api-profile"),
    path("rules/", views.RulesView.as_view(), name="api-rules"),
    path("rulesets/", views.RulesetListView.as_view(), name="api-rulesets"),
    path("campaigns/", views.CampaignListView.as_view(), name="api-campaigns"),
    path("campaigns/import/", views.ImportView.as_view(), name="api-campaign-import"),
    path("campaigns/<int:campaign_id>/", include(campaign_urls)),
]
