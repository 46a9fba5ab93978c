"""API routes of the territories app, mounted under /api/campaigns/<campaign_id>/."""

from django.urls import path

from territories import api

urlpatterns = [
    path("territories/", api.TerritoryListView.as_view(), name="api-territories"),
    path("territories/<int:territory_id>/", api.TerritoryDetailView.as_view(),
         name="api-territory"),
    path("territories/<int:territory_id>/map.svg", api.TerritorySvgView.as_view(),
         name="api-territory-svg"),
    path("map.svg", api.MapSvgView.as_view(), name="api-map-svg"),
    path("map/static/", api.MapStaticView.as_view(), name="api-map-static"),
    path("map/state/", api.MapStateView.as_view(), name="api-map-state"),
    path("map.graphml", api.MapExportView.as_view(fmt="graphml"), name="api-map-graphml"),
    path("map.json", api.MapExportView.as_view(fmt="node_link"), name="api-map-json"),
    path("passages/", api.PassageListView.as_view(), name="api-passages"),
    path("passages/<int:passage_id>/", api.PassageDetailView.as_view(), name="api-passage"),
]
