"""API routes of the battles app, mounted under /api/campaigns/<campaign_id>/."""

from django.urls import path

from battles import api

urlpatterns: list = [
    path("battles/", api.BattleListView.as_view(), name="api-battles"),
    path("battles/<int:battle_id>/", api.BattleDetailView.as_view(), name="api-battle"),
    path("battles/<int:battle_id>/retry/", api.BattleRetryView.as_view(),
         name="api-battle-retry"),
    path("battles/<int:battle_id>/result/", api.BattleResultView.as_view(),
         name="api-battle-result"),
    path("battles/<int:battle_id>/confirm/", api.BattleConfirmView.as_view(),
         name="api-battle-confirm"),
    path("odds/", api.OddsCreateView.as_view(), name="api-odds"),
    path("odds/<int:odds_id>/", api.OddsDetailView.as_view(), name="api-odds-detail"),
]
