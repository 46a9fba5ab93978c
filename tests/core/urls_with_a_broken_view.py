"""The project's URLs plus two views that fail (for the production 500 test)."""

from django.urls import path

from campaign.urls import handler500
from campaign.urls import urlpatterns as project_urls


def boom(request):
    raise RuntimeError("a bug, not bad input")


urlpatterns = [path("api/boom/", boom), path("boom/", boom), *project_urls]

__all__ = ["handler500", "urlpatterns"]
