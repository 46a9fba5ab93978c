"""The project's URLs plus page views that raise a refusal no form caught (for the
styled refusal pages' test)."""

from django.urls import path

from campaign.errors import Conflict, InvalidInput, WrongPhase
from campaign.urls import urlpatterns as project_urls


def too_late(request):
    raise WrongPhase("Orders are given in the move phase; this campaign is in its "
                     "commercial phase.")


def bad_number(request):
    raise InvalidInput("The amount must be a whole number of at least 1.", code="amount")


def api_conflict(request):
    raise Conflict("Not now.")


urlpatterns = [path("refusals/too-late/", too_late), path("refusals/bad-number/", bad_number),
               path("api/refusals/conflict/", api_conflict), *project_urls]
