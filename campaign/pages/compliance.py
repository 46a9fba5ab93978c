"""The compliance page: every rule section of the seed with its case-book cases and their
status, and every ruling with its cases (issue 8). It shows the report the `compliance`
command wrote last (docs/COMPLIANCE.json, beside docs/COMPLIANCE.md): playing the book
takes seconds, far too long for a request. Public: it holds rules, no game data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


def report_path() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "COMPLIANCE.json"


def load_report() -> dict[str, Any] | None:
    try:
        return json.loads(report_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@require_GET
def compliance(request: HttpRequest) -> HttpResponse:
    report = load_report()
    context: dict[str, Any] = {"report": report}
    if report is not None:
        sections = report.get("sections", [])
        context["covered"] = sum(1 for s in sections if s["status"] == "covered")
        context["not_applicable"] = [s for s in sections if s["status"] == "not applicable"]
        context["uncovered"] = [s for s in sections
                                if s["status"] not in ("covered", "not applicable")]
        context["rulings_without_case"] = [r for r in report.get("rulings", [])
                                           if not r["cases"]]
    return render(request, "pages/compliance.html", context)
