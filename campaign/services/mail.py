"""Mails people act on (issue 27): every notification goes as plain text and as HTML,
with the address of the page where its reader acts, and with a `List-Unsubscribe` header
(RFC 2369, one-click by RFC 8058) so a mail program offers "unsubscribe" itself.

The texts are written once, in `campaign.services.notifications`, marked for translation
(gettext); this module only wraps them: the HTML part is drawn by `mail/notification.html`
from the same paragraphs (addresses become links), and both parts end with how to stop
them. The unsubscribe address carries a signed token of the user (`django.core.signing`,
salted): no database row, and it cannot be forged or pointed at someone else.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

SALT = "campaign.unsubscribe"


def unsubscribe_token(user: User) -> str:
    return signing.dumps(user.pk, salt=SALT)


def user_of_token(token: str) -> int | None:
    """The user id a token was made for, or None for a forged or garbled one."""
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def unsubscribe_url(user: User) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("unsubscribe",
                                                   args=[unsubscribe_token(user)])


def send(*, user: User, subject: str, body: str) -> int:
    """Mail `body` (paragraphs split by blank lines) to the user, as text and HTML."""
    stop = unsubscribe_url(user)
    footer = _("You receive this because you play in a campaign on this site. Stop these "
               "mails: %(url)s (or choose which ones on your profile).") % {"url": stop}
    paragraphs = [p for p in body.split("\n\n") if p.strip()]
    html = render_to_string("mail/notification.html", {
        "subject": subject, "paragraphs": paragraphs, "footer": footer, "stop": stop})
    mail = EmailMultiAlternatives(
        subject, f"{body}\n\n-- \n{footer}\n", settings.DEFAULT_FROM_EMAIL, [user.email],
        headers={"List-Unsubscribe": f"<{stop}>",
                 "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    mail.attach_alternative(html, "text/html")
    return mail.send()
