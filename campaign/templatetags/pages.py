"""Small template helpers for the server-rendered pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def signup_open() -> bool:
    return bool(getattr(settings, "ALLOW_SIGNUP", False))


@register.filter
def seat_name(username: Any) -> str:
    """A sandbox seat's player as the original knew them ("bob (sandbox 1a2b3c4d)" ->
    "bob")."""
    text = str(username)
    head, sep, _tail = text.rpartition(" (sandbox ")
    return head if sep else text


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def percent(part: Any, whole: Any) -> int:
    try:
        part, whole = float(part), float(whole)
    except (TypeError, ValueError):
        return 0
    if whole <= 0:
        return 100
    return max(0, min(100, round(100 * part / whole)))


@register.filter
def label(value: Any) -> str:
    """`machine_gun` -> `Machine gun`."""
    text = str(value or "").replace("_", " ")
    return text[:1].upper() + text[1:]
