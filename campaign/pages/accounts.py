"""Account pages: sign up (when the site allows it) and the profile (time zone).
Log in, log out and password change are Django's own views with our templates."""

from __future__ import annotations

import zoneinfo
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from campaign.access import signed_in
from campaign.errors import GameError
from campaign.models import Profile
from campaign.services.calendar import calendar_rotate, calendar_url
from campaign.services.mail import user_of_token
from campaign.services.notifications import KIND_LABELS, KINDS
from campaign.services.profiles import (
    email_update,
    email_verified,
    known_time_zones,
    profile_update,
    send_verification,
    verify_email,
)


class SignupForm(UserCreationForm):
    email = forms.EmailField(label="Email", required=False,
                             help_text="For deadlines and results. We mail a link to "
                                       "confirm it; nothing is sent before you open it.")
    #: Filled in by the browser (`Intl`, static/js/site.js): the new account's time zone,
    #: which every time on the pages, in mails and in the calendar is shown in (issue 27).
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def clean_time_zone(self) -> str:
        zone = (self.cleaned_data.get("time_zone") or "").strip()
        return zone if zone in known_time_zones() else "UTC"

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


def _link_for(request: HttpRequest) -> Any:
    def link(token: str) -> str:
        return request.build_absolute_uri(reverse("verify-email", args=[token]))
    return link


def safe_next(request: HttpRequest) -> str:
    """The page a visitor was on their way to (`next`, e.g. an invitation's join page,
    issue 26), when it is a path of this site; "" otherwise."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return ""
    return target


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Sign-up; a visitor who came from an invitation (`next`) ends on its join page."""
    if not settings.ALLOW_SIGNUP:
        raise Http404("Sign-up is closed on this site.")
    target = safe_next(request)
    if request.user.is_authenticated:
        return redirect(target or "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        profile_update(user=user, time_zone=form.cleaned_data["time_zone"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        mailed = send_verification(user=user, link_for=_link_for(request))
        mail_note = (f" We mailed a link to {user.email}: open it to receive your "
                     "campaigns' deadlines." if mailed else "")
        if target:
            messages.success(request, f"Welcome, {user.username}. Times are shown in "
                                      f"{form.cleaned_data['time_zone']} (your profile "
                                      f"changes it).{mail_note}")
            return redirect(target)
        messages.success(request, f"Welcome, {user.username}. Times are shown in "
                                  f"{form.cleaned_data['time_zone']}; change it below if "
                                  "that is not where you are." + mail_note)
        return redirect("profile")
    return render(request, "pages/signup.html", {"form": form, "next": target})


def _zone_choices() -> list[tuple[str, str]]:
    return [(z, z) for z in sorted(zoneinfo.available_timezones()) if "/" in z or z == "UTC"]


class ProfileForm(forms.Form):
    email = forms.EmailField(label="Email", required=False,
                             help_text="Deadlines and results go here once you have opened "
                                       "the confirmation link we mail to it.")
    time_zone = forms.ChoiceField(
        label="Time zone", help_text="Deadlines and times are shown in this zone.")
    email_notifications = forms.BooleanField(label="Email me about deadlines and results",
                                             required=False)
    kinds = forms.MultipleChoiceField(
        label="Which emails", required=False, widget=forms.CheckboxSelectMultiple,
        choices=list(KIND_LABELS.items()),
        help_text="Untick what you do not want.")
    digest = forms.BooleanField(label="One email a day instead (deadline reminders still "
                                      "come at once)", required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["time_zone"]).choices = _zone_choices()


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    prof, _ = Profile.objects.get_or_create(user=signed_in(request.user))
    if request.method == "POST" and request.POST.get("resend"):
        if send_verification(user=signed_in(request.user), link_for=_link_for(request)):
            messages.success(request, f"We mailed a new link to {signed_in(request.user).email}.")
        return redirect("profile")

    form = ProfileForm(request.POST or None, initial={
        "email": signed_in(request.user).email, "time_zone": prof.time_zone,
        "email_notifications": prof.email_notifications, "digest": prof.digest,
        "kinds": [k for k in KINDS if k not in (prof.muted_kinds or [])]})
    if request.method == "POST" and form.is_valid():
        chosen = set(form.cleaned_data["kinds"])
        prof = profile_update(user=signed_in(request.user),
                              time_zone=form.cleaned_data["time_zone"],
                              email_notifications=form.cleaned_data["email_notifications"],
                              muted_kinds=[k for k in KINDS if k not in chosen],
                              digest=form.cleaned_data["digest"])
        changed = email_update(user=signed_in(request.user), email=form.cleaned_data["email"])
        messages.success(request, f"Times are now shown in {prof.time_zone}.")
        if changed and send_verification(user=signed_in(request.user),
                                         link_for=_link_for(request)):
            messages.success(request, f"We mailed a link to {signed_in(request.user).email}: "
                                      "open it to "
                                      "receive email from your campaigns.")
        return redirect("profile")
    return render(request, "pages/profile.html", {
        "form": form, "profile": prof, "verified": email_verified(request.user),
        "calendar_url": calendar_url(user=signed_in(request.user),
                                     absolute=request.build_absolute_uri)})


@login_required
@require_POST
def calendar_rotate_page(request: HttpRequest) -> HttpResponse:
    """The profile's "new address" button (issue 27): the same service as
    `POST /api/users/me/calendar/rotate/`; the old address stops working at once."""
    calendar_rotate(user=signed_in(request.user))
    messages.success(request, "Your calendar has a new address: the old one no longer works. "
                              "Give the new one to your calendar program.")
    return redirect(reverse("profile") + "#calendar")


@require_http_methods(["GET"])
def verify_email_page(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address (issue 17): opening it verifies the address."""
    try:
        verify_email(token=token)
    except GameError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, "Your email address is confirmed: deadlines and results "
                                  "will reach you there.")
    return redirect("profile" if request.user.is_authenticated else "home")


@csrf_exempt  # a mail program's one-click POST (RFC 8058) carries no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The `List-Unsubscribe` address of every mail (issue 27): GET asks, POST stops the
    user's notification mails (the signed token names the user; a forged one is a 404).
    A mail program's one-click POST does the same without a page."""
    user_id = user_of_token(token)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    if user is None:
        raise Http404("This unsubscribe link is not valid (it may be cut short).")
    if request.method == "POST":
        profile_update(user=user, email_notifications=False)
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse(status=200)
        return render(request, "pages/unsubscribe.html", {"done": True, "who": user})
    return render(request, "pages/unsubscribe.html", {"done": False, "who": user})
