"""Keyset pages for the long lists (journal, battles), without changing their bodies.

The contract (API.md) answers these routes with JSON arrays, so a page is still an
array; when more rows follow, the response carries `Link: <...?cursor=...>; rel="next"`
(RFC 8288), GitHub's way. `?limit=` asks for a page size (1..MAX_LIMIT, DEFAULT_LIMIT
when absent: large enough that a small league's client, which knows nothing of pages,
still sees everything in one answer).

The cursor is opaque and stable: it names the last row served by the id the client was
already shown (the journal's random public id, a battle's id), never a position, so rows
added meanwhile neither repeat nor go missing. The next page is read after that row in
the list's own order (keyset: one indexed query, whatever the page's depth). A cursor
naming a row the caller may not see is refused exactly like one naming no row at all:
it cannot be used to probe other players' entries.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.db.models import Model, Q, QuerySet
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.errors import InvalidInput

DEFAULT_LIMIT = 1000
MAX_LIMIT = 1000

M = TypeVar("M", bound=Model)

BAD_CURSOR = ("This cursor does not belong to this list; start again without it "
              "and follow the Link header's next page.")


PAGE_DESCRIPTION = (
    f"Paginated without changing the body: at most `limit` rows (default {DEFAULT_LIMIT}, "
    f"at most {MAX_LIMIT}); when more follow, the `Link` header names the next page "
    "(`rel=\"next\"`, with an opaque, stable `cursor`).")

PAGE_PARAMETERS = [
    OpenApiParameter("cursor", str, required=False,
                     description="Opaque: from the previous page's `Link` header."),
    OpenApiParameter("limit", int, required=False,
                     description=f"Rows per page, 1 to {MAX_LIMIT} (default "
                     f"{DEFAULT_LIMIT})."),
    OpenApiParameter("Link", str, location=OpenApiParameter.HEADER, response=[200],
                     description='`<url>; rel="next"` when more rows follow.'),
]


def paged(data: Any, link: str | None) -> Response:
    """The page as the contract's array, with the next page's Link header if any."""
    response = Response(data)
    if link:
        response["Link"] = link
    return response


def encode_cursor(kind: str, key: int) -> str:
    return base64.urlsafe_b64encode(f"{kind}:{key}".encode()).decode().rstrip("=")


def decode_cursor(kind: str, cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        found, _, value = text.partition(":")
        if found != kind or not value.isdigit() or len(value) > 19:
            raise ValueError(text)
        return int(value)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput(BAD_CURSOR, code="bad_cursor",
                           fields={"cursor": ["Not a cursor of this list."]}) from None


def page_limit(request: Request) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return DEFAULT_LIMIT
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT:
        raise InvalidInput(f"'limit' must be a whole number from 1 to {MAX_LIMIT}.",
                           fields={"limit": [f"A whole number from 1 to {MAX_LIMIT}."]})
    return int(raw)


def after_row(qs: QuerySet[M], order: Sequence[str], row: M) -> QuerySet[M]:
    """The rows of `qs` that come after `row` in `order` (field names, ascending, the
    last one unique): (a > x) or (a = x and b > y) or ..."""
    condition = Q()
    for i, name in enumerate(order):
        step = Q(**{f"{name}__gt": getattr(row, name)})
        for earlier in order[:i]:
            step &= Q(**{earlier: getattr(row, earlier)})
        condition |= step
    return qs.filter(condition)


def keyset_page(request: Request, qs: QuerySet[M], *, kind: str, order: Sequence[str],
                cursor_key: str, lookup: Callable[[int], M | None]
                ) -> tuple[list[M], str | None]:
    """One page of `qs` (ordered by `order`) after the request's cursor, and the Link
    header naming the next page (None on the last one). `cursor_key` is the attribute
    the cursor carries (what the client sees as the row's id); `lookup(key)` finds that
    row among those the caller may see (None otherwise)."""
    limit = page_limit(request)
    qs = qs.order_by(*order)
    cursor = request.query_params.get("cursor")
    if cursor:
        last = lookup(decode_cursor(kind, cursor))
        if last is None:
            raise InvalidInput(BAD_CURSOR, code="bad_cursor",
                               fields={"cursor": ["Not a cursor of this list."]})
        qs = after_row(qs, order, last)
    rows = list(qs[:limit + 1])
    if len(rows) <= limit:
        return rows, None
    rows = rows[:limit]
    params: dict[str, Any] = {k: v for k, v in request.query_params.items()
                              if k not in ("cursor", "limit")}
    params["limit"] = limit
    params["cursor"] = encode_cursor(kind, getattr(rows[-1], cursor_key))
    url = request.build_absolute_uri(request.path) + "?" + urlencode(params)
    return rows, f'<{url}>; rel="next"'
