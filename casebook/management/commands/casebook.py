"""`python manage.py casebook PATH [PATH ...]`: play case files (docs/CASEBOOK_FORMAT.md).

Prints one line per failing case (`FAIL <id>: ...`, `ERROR <id>: ...`), one per pending
case (`PENDING <id>: reason`), and ends with `N passed, M failed[, K skipped]`; exits 1
when any case failed. Runs in a throwaway test database it creates itself (in memory
on SQLite), never the real one; inside a test run it uses the test database.
"""

from __future__ import annotations

import time
from typing import Any

from django.core import mail
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from casebook.case import CaseFormatError
from casebook.runner import PASSED, PENDING, run_paths


def _on_test_database() -> bool:
    """Inside a test run (Django's runner or pytest-django) the connection already points
    at the test database: on PostgreSQL its NAME is `test_<name>`, which the creation's
    own naming would turn into `test_test_<name>`, so ask the test environment instead
    (setup_test_environment gives `django.core.mail` its `outbox`)."""
    return (hasattr(mail, "outbox")
            or connection.settings_dict["NAME"]
            == connection.creation._get_test_db_name())  # type: ignore[attr-defined]  # private Django API the stubs leave out


class Command(BaseCommand):
    help = "Play case-book files (YAML) against the real services and the battle engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="case files or directories")
        parser.add_argument("--run-pending", action="store_true",
                            help="also play cases marked pending (still reported pending)")
        parser.add_argument("--passed", action="store_true", help="print passing cases too")
        parser.add_argument("--quiet-pending", action="store_true",
                            help="do not print a line per pending case")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        created = None
        if not _on_test_database():
            created = connection.settings_dict["NAME"]
            # Tables straight from the models (no migration replay): a fresh database in
            # a fraction of a second, which keeps the whole book under ten seconds.
            connection.settings_dict.setdefault("TEST", {})["MIGRATE"] = False
            connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False,
                                              serialize=False)
        try:
            try:
                summary = run_paths(options["paths"], run_pending=options["run_pending"])
            except CaseFormatError as exc:
                raise CommandError(str(exc)) from exc
        finally:
            if created is not None:
                connection.creation.destroy_test_db(created, verbosity=0)
        for outcome in summary.outcomes:
            if outcome.status == PASSED and not options["passed"]:
                continue
            if outcome.status == PENDING and options["quiet_pending"]:
                continue
            self.stdout.write(outcome.line())
        if options["verbosity"] > 1:
            self.stdout.write(f"({len(summary.outcomes)} cases in "
                              f"{time.perf_counter() - started:.2f}s)")
        self.stdout.write(summary.last_line())
        if summary.failed:
            raise CommandError(f"{summary.failed} case(s) failed", returncode=1)
