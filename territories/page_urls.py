"""The territories app's pages, mounted under /campaigns/<id>/ by the project's page
URLs (by name, so the core imports no app above it)."""

from django.urls import path

from territories import pages

urlpatterns = [
    path("map/", pages.meta_map, name="map"),
    path("umpire/ownership/", pages.ownership, name="umpire-ownership"),
    path("map.svg", pages.meta_map_svg_file, name="map-svg"),
    path("map.png", pages.meta_map_png_file, name="map-png"),
    path("territories/<int:territory_id>/", pages.territory, name="territory"),
    path("territories/<int:territory_id>/build/", pages.build, name="territory-build"),
    path("territories/<int:territory_id>/upgrade/", pages.upgrade, name="territory-upgrade"),
    path("territories/<int:territory_id>/activate/", pages.activate,
         name="territory-activate"),
    path("territories/<int:territory_id>/turret/", pages.turret, name="territory-turret"),
    path("territories/<int:territory_id>/product/", pages.factory_product,
         name="territory-product"),
    path("territories/<int:territory_id>/energy/", pages.energy_preview,
         name="territory-energy"),
]
