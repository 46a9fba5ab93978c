"""Issue 17: an email address at sign-up and in the profile, verified by a mailed link;
campaign mail goes only to a verified address."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from campaign.models import Profile
from campaign.services.notifications import recipients

pytestmark = pytest.mark.django_db


def _link(mail) -> str:
    return re.search(r"http://testserver(/accounts/verify-email/[^/\s]+/)", mail.body).group(1)


def test_sign_up_with_an_email_then_open_the_link(settings, mailoutbox):
    settings.ALLOW_SIGNUP = True
    page = Client()
    r = page.post("/accounts/signup/", {"username": "dora", "email": "dora@example.org",
                                        "password1": "a long passphrase 42",
                                        "password2": "a long passphrase 42"}, follow=True)
    assert "We mailed a link to dora@example.org" in r.content.decode()
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["dora@example.org"]
    dora = get_user_model().objects.get(username="dora")
    assert dora.email == "dora@example.org"
    assert "not confirmed" in page.get("/accounts/profile/").content.decode()
    r = page.get(_link(mailoutbox[0]), follow=True)
    assert "Your email address is confirmed" in r.content.decode()
    assert Profile.objects.get(user=dora).email_verified == "dora@example.org"


def test_changing_the_address_needs_a_new_link_and_old_links_stop_working(alice, mailoutbox):
    page = Client()
    page.force_login(alice)
    form = {"time_zone": "UTC", "email_notifications": "on"}
    page.post("/accounts/profile/", {**form, "email": "alice@example.org"})
    first = _link(mailoutbox[-1])
    page.get(first)
    assert Profile.objects.get(user=alice).email_verified == "alice@example.org"
    page.post("/accounts/profile/", {**form, "email": "alice@other.example"})
    alice.refresh_from_db()
    assert alice.email == "alice@other.example"
    assert "not confirmed" in page.get("/accounts/profile/").content.decode()
    r = page.get(first, follow=True)  # the link for the old address verifies nothing
    assert "no longer use" in r.content.decode()
    assert Profile.objects.get(user=alice).email_verified == "alice@example.org"
    r = page.get("/accounts/verify-email/forged-token/", follow=True)
    assert "not valid" in r.content.decode()
    bad = page.post("/accounts/profile/", {**form, "email": "not an address"})
    assert bad.status_code == 200
    alice.refresh_from_db()
    assert alice.email == "alice@other.example"
    page.post("/accounts/profile/", {"resend": "1"})
    assert mailoutbox[-1].to == ["alice@other.example"]


def test_campaign_mail_goes_only_to_a_verified_address(running_campaign, alice):
    alice.email = "alice@example.org"
    alice.save()
    assert all(p.user != alice for p in recipients(running_campaign, None))
    Profile.objects.update_or_create(user=alice, defaults={"email_verified": alice.email})
    assert any(p.user == alice for p in recipients(running_campaign, None))


def _verified(user, email):
    user.email = email
    user.save()
    Profile.objects.update_or_create(user=user, defaults={"email_verified": email})


def test_per_kind_choices_and_a_daily_digest(running_campaign, alice, bob, mailoutbox):
    """Issue 17: a player unticks the kinds they do not want, or takes one email a day
    (a deadline reminder still goes at once)."""
    import datetime as dt

    from django.utils import timezone

    from campaign.services import notifications

    _verified(alice, "alice@example.org")
    _verified(bob, "bob@example.org")
    page = Client()
    page.force_login(alice)
    page.post("/accounts/profile/", {"email": "alice@example.org", "time_zone": "UTC",
                                     "email_notifications": "on",
                                     "kinds": ["reminder", "results", "rolled_back",
                                               "corrected", "message"]})
    assert Profile.objects.get(user=alice).muted_kinds == ["phase_opened"]
    page2 = Client()
    page2.force_login(bob)
    page2.post("/accounts/profile/", {"email": "bob@example.org", "time_zone": "UTC",
                                      "email_notifications": "on", "digest": "on",
                                      "kinds": ["phase_opened", "reminder", "results",
                                                "rolled_back", "corrected", "message"]})
    c = running_campaign
    sent = notifications.deliver(campaign_id=c.pk, kind="phase_opened", turn=c.turn,
                                 phase=c.phase)
    assert sent == 0 and not mailoutbox  # alice muted it, bob's waits for the digest
    notifications.deliver(campaign_id=c.pk, kind="reminder", turn=c.turn, phase=c.phase)
    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.org", "bob@example.org"]
    mailoutbox.clear()
    now = timezone.now()
    assert notifications.send_digests(now=now) == 1
    assert mailoutbox[0].to == ["bob@example.org"] and "phase has begun" in mailoutbox[0].body
    assert notifications.send_digests(now=now) == 0  # sent once; nothing waits
    notifications.deliver(campaign_id=c.pk, kind="results", turn=c.turn, phase=c.phase)
    assert notifications.send_digests(now=now + dt.timedelta(hours=1)) == 0  # not a day yet
    assert notifications.send_digests(now=now + dt.timedelta(hours=25)) == 1
    bad = page.post("/accounts/profile/", {"email": "alice@example.org", "time_zone": "UTC",
                                           "kinds": ["spam"]})
    assert bad.status_code == 200  # refused by the form, nothing changed
    assert Profile.objects.get(user=alice).muted_kinds == ["phase_opened"]
