"""Account pages: sign up (when the site allows it) and the profile (time zone).
Log in, log out and password change are Django's own views with our templates."""

from __future__ import annotations

import zoneinfo

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaign.models import Profile
from campaign.services.profiles import profile_update


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if not settings.ALLOW_SIGNUP:
        raise Http404("Sign-up is closed on this site.")
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}. Set your time zone below.")
        return redirect("profile")
    return render(request, "pages/signup.html", {"form": form})


def _zone_choices() -> list[tuple[str, str]]:
    return [(z, z) for z in sorted(zoneinfo.available_timezones()) if "/" in z or z == "UTC"]


class ProfileForm(forms.Form):
    time_zone = forms.ChoiceField(
        label="Time zone", help_text="Deadlines and times are shown in this zone.")
    email_notifications = forms.BooleanField(label="Email me about deadlines and results",
                                             required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = _zone_choices()


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    prof, _ = Profile.objects.get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, initial={
        "time_zone": prof.time_zone, "email_notifications": prof.email_notifications})
    if request.method == "POST" and form.is_valid():
        prof = profile_update(user=request.user, time_zone=form.cleaned_data["time_zone"],
                              email_notifications=form.cleaned_data["email_notifications"])
        messages.success(request, f"Times are now shown in {prof.time_zone}.")
        return redirect("profile")
    return render(request, "pages/profile.html", {"form": form, "profile": prof})
