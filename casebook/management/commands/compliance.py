"""`python manage.py compliance [--output docs/COMPLIANCE.md] [BOOK ...]`: play the case
book (like `casebook`, in a throwaway database) and write the compliance page, and the
same report as JSON beside it (docs/COMPLIANCE.json, read by the site's page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from casebook.compliance import build_report, render_report
from casebook.management.commands.casebook import _on_test_database
from casebook.runner import load_cases, run_paths

ROOT = Path(__file__).resolve().parents[3]


class Command(BaseCommand):
    help = "Play the case book and write docs/COMPLIANCE.md (rule sections, cases, status)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", default=[str(ROOT / "tests" / "casebook")])
        parser.add_argument("--output", default=str(ROOT / "docs" / "COMPLIANCE.md"))
        parser.add_argument("--json", default=None,
                            help="also write the report as JSON (the site's compliance "
                                 "page reads docs/COMPLIANCE.json; default: beside --output)")

    def handle(self, *args: Any, **options: Any) -> None:
        created = None
        if not _on_test_database():
            created = connection.settings_dict["NAME"]
            connection.settings_dict.setdefault("TEST", {})["MIGRATE"] = False
            connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False,
                                               serialize=False)
        try:
            summary = run_paths(options["paths"])
        finally:
            if created is not None:
                connection.creation.destroy_test_db(created, verbosity=0)
        cases, _ = load_cases(options["paths"])
        for outcome in summary.outcomes:
            if outcome.path is not None and outcome.path.resolve().is_relative_to(ROOT):
                outcome.path = outcome.path.resolve().relative_to(ROOT)
        report = build_report(summary, {c.id: c for c in cases})
        output = Path(options["output"])
        output.write_text(render_report(report), encoding="utf-8")
        json_path = Path(options["json"]) if options["json"] else output.with_suffix(".json")
        json_path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        self.stdout.write(f"wrote {options['output']}: {summary.last_line()}")
