"""The battles app's pages, mounted under /campaigns/<id>/ by the project's page URLs (by
name, so the core imports no app above it)."""

from django.urls import path

from battles import pages

urlpatterns = [
    path("odds/", pages.odds_new, name="odds-new"),
    path("odds/<int:odds_id>/", pages.odds_status, name="odds-status"),
    path("battles/", pages.battle_list, name="battles"),
    path("battles/<int:battle_id>/", pages.battle_report, name="battle"),
    path("battles/<int:battle_id>/report.md", pages.battle_report_markdown,
         name="battle-report-md"),
    path("battles/<int:battle_id>/retry/", pages.battle_retry, name="battle-retry"),
    path("battles/<int:battle_id>/tabletop/", pages.battle_tabletop, name="battle-tabletop"),
    path("battles/<int:battle_id>/confirm/", pages.battle_confirm, name="battle-confirm"),
]
