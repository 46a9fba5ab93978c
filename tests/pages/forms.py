"""Read a page's form as a browser would submit it, unchanged (for round-trip tests)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _FormReader(HTMLParser):
    def __init__(self, action: str):
        super().__init__()
        self.action = action
        self.inside = False
        self.select: str | None = None
        self.first_option: str | None = None
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("action") == self.action
        if not self.inside or "disabled" in a:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind == "checkbox":
                if "checked" in a:
                    self.values[a["name"]] = a.get("value") or "on"
            elif kind not in ("submit", "file"):
                self.values[a["name"]] = a.get("value", "")
        elif tag == "select" and a.get("name"):
            self.select, self.first_option = a["name"], None
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = a.get("value", "")
                self.values.setdefault(self.select, self.first_option)
            if "selected" in a:
                self.values[self.select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def form_values(html: str, action: str) -> dict[str, Any]:
    """The fields of the form posting to `action`, as the page shows them (no csrf)."""
    reader = _FormReader(action)
    reader.feed(html)
    reader.values.pop("csrfmiddlewaretoken", None)
    return reader.values


def settings_form(client: Any, url: str) -> dict[str, Any]:
    """The umpire's settings form at `url`, as shown."""
    return form_values(client.get(url).content.decode(), url)
