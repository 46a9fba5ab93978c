from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerView

from campaign.api.profile import calendar_feed
from campaign.schema import SchemaView

urlpatterns = [
    path("", include("campaign.pages.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("campaign.api.urls")),
    path("calendar/<str:token>.ics", calendar_feed, name="calendar-feed"),
]

handler500 = "campaign.errors.server_error"
handler404 = "campaign.errors.not_found"
handler403 = "campaign.errors.forbidden"
