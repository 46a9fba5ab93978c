"""The territories app's pages, mounted under /campaigns/<id>/ by the project's page
URLs (by name, so the core imports no app above it)."""

from django.urls import path

from territories import pages

urlpatterns = [
    path("map/", pages.meta_map, name="map"),
    path("umpire/ownership/", pages.ownership, name="umpire-ownership"),
    path("map/geometry/<str:version>/<str:layer>.svg", pages.meta_map_geometry,
         name="map-geometry"),
    path("map.svg", pages.meta_map_svg_file, name="map-svg"),
    path("map.png", pages.meta_map_png_file, name="map-png"),
]
