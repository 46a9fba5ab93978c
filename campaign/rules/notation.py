"""Plain notations the rules' documents share (pure, no Django): a fitted weapon written
`"cannon+heavy+accurate"`, and any value as plain JSON-ready data."""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from typing import Any


def plain(value: Any) -> Any:
    """Dataclasses and tuples as plain dicts and lists (for comparisons and messages)."""
    if is_dataclass(value) and not isinstance(value, type):
        return plain(asdict(value))
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [plain(v) for v in items]
    return value


def weapon_spec(raw: Any) -> tuple[str, list[str]]:
    """`"cannon"`, `"cannon+heavy+accurate"` or `{weapon|key: cannon, templates: [...]}`
    (ValueError for anything else)."""
    if isinstance(raw, str):
        key, *templates = [p.strip() for p in raw.split("+")]
        return key, templates
    if isinstance(raw, dict):
        return str(raw.get("weapon") or raw.get("key")), list(raw.get("templates") or [])
    raise ValueError(f"a weapon is a name or a mapping, not {raw!r}")
