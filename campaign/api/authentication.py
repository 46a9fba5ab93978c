"""Token authentication with the token and its user read in one statement sent as text.

Every API request of a client script starts here (an order POST, a plan PUT): DRF's
`TokenAuthentication` reads the same row with `select_related("user").get(key=...)`,
which Django compiles anew on every request (about a fifth of an order POST's CPU on
the two-core bench machine, issue 32.4). The statement is built once from the models'
metadata (`campaign.sql`); the header parsing, the refusals and their wording are DRF's.
"""

from __future__ import annotations

import functools

from django.contrib.auth.models import User
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from campaign import sql


@functools.cache
def _token_statement(vendor: str) -> str:
    """The token by its key, with its user's columns after its own (one per database
    vendor: quoting is the backend's)."""
    return (f"SELECT {sql.columns(Token, 't')}, {sql.columns(User, 'u')} "
            f"FROM {sql.table(Token)} t JOIN {sql.table(User)} u ON u.id = t.user_id "
            "WHERE t.key = %s")


def token_with_user(key: str) -> Token | None:
    """The token of `key` with its user loaded (what `Token.objects.select_related("user")`
    reads), or None."""
    row = sql.fetch_one(_token_statement(connection.vendor), [key])
    if row is None:
        return None
    token = sql.instance(Token, row)
    token.user = sql.instance(User, row, sql.width(Token))
    return token


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>` (API.md, "Conventions"), as DRF answers it."""

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        token = token_with_user(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
