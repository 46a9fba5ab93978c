"""A small accessibility checker for rendered pages (used by the crawls): the document
has a `lang`, a skip link to the main landmark, and every form control, image and SVG
picture has an accessible name."""

from __future__ import annotations

from html.parser import HTMLParser

UNLABELLED_TYPES = {"hidden", "submit", "button", "reset", "image"}


class _A11y(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.ids: set[str] = set()
        self.label_for: set[str] = set()
        self.label_depth = 0
        self.controls: list[tuple[str, dict[str, str], bool]] = []  # tag, attrs, in label
        self.problems: list[str] = []
        self.svg_stack: list[dict[str, object]] = []
        self.skip_target = ""
        self.main_ids: list[str] = []
        self.first_link = True

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "html":
            self.lang = attrs.get("lang", "")
        elif tag == "main":
            self.main_ids.append(attrs.get("id", ""))
        elif tag == "a" and self.first_link:
            self.first_link = False
            if "skip" in attrs.get("class", "") and attrs.get("href", "").startswith("#"):
                self.skip_target = attrs["href"][1:]
        elif tag == "label":
            self.label_depth += 1
            if attrs.get("for"):
                self.label_for.add(attrs["for"])
        elif tag in ("input", "select", "textarea"):
            if tag != "input" or attrs.get("type", "text") not in UNLABELLED_TYPES:
                self.controls.append((tag, attrs, self.label_depth > 0))
        elif tag == "img":
            if "alt" not in attrs:
                self.problems.append(f"<img src={attrs.get('src')!r}> has no alt")
        elif tag == "svg":
            named = bool(attrs.get("aria-label") or attrs.get("aria-labelledby"))
            self.svg_stack.append({"role": attrs.get("role", ""), "named": named,
                                   "hidden": attrs.get("aria-hidden") == "true"})
        elif tag == "title" and self.svg_stack:
            self.svg_stack[-1]["named"] = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in ("svg",):
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "label" and self.label_depth:
            self.label_depth -= 1
        elif tag == "svg" and self.svg_stack:
            svg = self.svg_stack.pop()
            if svg["role"] == "img" and not svg["named"]:
                self.problems.append("<svg role=img> without a <title> or aria-label")
            if not svg["role"] and not svg["hidden"] and not svg["named"]:
                self.problems.append("<svg> picture without role=img and a name "
                                     "(or aria-hidden)")


def page_problems(html: str, *, full_page: bool = True) -> list[str]:
    """What is wrong with one rendered page (empty when it passes)."""
    parser = _A11y()
    parser.feed(html)
    parser.close()
    problems = list(parser.problems)
    for tag, attrs, in_label in parser.controls:
        named = (in_label or attrs.get("aria-label") or attrs.get("aria-labelledby")
                 or attrs.get("title") or (attrs.get("id") and attrs["id"] in parser.label_for))
        if not named:
            problems.append(f"unlabelled <{tag} name={attrs.get('name')!r} "
                            f"id={attrs.get('id')!r}>")
    for label_id in parser.label_for - parser.ids:
        problems.append(f"<label for={label_id!r}> points at nothing")
    if full_page:
        if not parser.lang:
            problems.append("<html> has no lang attribute")
        if len(parser.main_ids) != 1:
            problems.append(f"expected one <main> landmark, found {len(parser.main_ids)}")
        if not parser.skip_target or parser.skip_target not in parser.main_ids:
            problems.append("the first link is not a skip link to the main landmark")
    return problems
