"""Playing cases: each in its own transaction, rolled back, against the real services.

`run_case` returns an `Outcome` (passed / failed / error / pending) with the sentences
that say what differed. A refused step (a `GameError`, a rule violation, an illegal
battle action) must leave the state exactly as it was: the runner compares every row of
the project's apps before and after it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.apps import apps
from django.db import connection, models, transaction

from battles.rulesets.base import ActionRefused, RulesetError
from campaign.dice import DiceExhaustedError, forced_dice
from campaign.errors import GameError
from campaign.models import Event
from campaign.rules import RuleViolation
from casebook.actions import ACTIONS, ServiceMissing, StepError, split_step
from casebook.battle import IllegalAction
from casebook.case import Case, CaseFormatError, case_files, load_case
from casebook.expect import check_then, show
from casebook.given import DEFAULT_PLAYERS, Ctx, GivenError, build, prepare_users

SNAPSHOT_APPS = ("campaign", "territories", "economy", "orders", "battles")
PASSED, FAILED, ERROR, PENDING = "passed", "failed", "error", "pending"


@dataclass
class Outcome:
    case_id: str
    status: str
    messages: list[str] = field(default_factory=list)
    path: Path | None = None
    seconds: float = 0.0

    def line(self) -> str:
        label = {FAILED: "FAIL", ERROR: "ERROR", PENDING: "PENDING", PASSED: "PASS"}[self.status]
        return f"{label} {self.case_id}: {'; '.join(self.messages)}".rstrip(": ")


@dataclass
class Summary:
    outcomes: list[Outcome]
    seconds: float

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def passed(self) -> int:
        return self.count(PASSED)

    @property
    def failed(self) -> int:
        return self.count(FAILED) + self.count(ERROR)

    @property
    def pending(self) -> int:
        return self.count(PENDING)

    def last_line(self) -> str:
        line = f"{self.passed} passed, {self.failed} failed"
        if self.pending:
            line += f", {self.pending} skipped"
        return line


class Refusal(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


def _snapshot_models() -> list[type[models.Model]]:
    found: list[type[models.Model]] = []
    for label in SNAPSHOT_APPS:
        try:
            found.extend(apps.get_app_config(label).get_models())
        except LookupError:
            continue
    return found


_SNAPSHOT_SQL: list[tuple[str, str]] = []


def _snapshot_queries() -> list[tuple[str, str]]:
    """One plain SELECT per game table (timestamps left out), built once."""
    if not _SNAPSHOT_SQL:
        quote = connection.ops.quote_name
        tables: dict[str, list[str]] = {}
        for model in _snapshot_models():
            tables[model._meta.db_table] = [
                f.column for f in model._meta.concrete_fields
                if f.column is not None
                and not isinstance(f, (models.DateTimeField, models.DateField))]
            for m2m in model._meta.many_to_many:
                if m2m.remote_field.through is None:  # set once the models are loaded
                    continue
                through = m2m.remote_field.through._meta
                tables[through.db_table] = [f.column for f in through.concrete_fields
                                            if f.column is not None]
        for table, columns in sorted(tables.items()):
            cols = ", ".join(quote(c) for c in columns)
            _SNAPSHOT_SQL.append((table, f"SELECT {cols} FROM {quote(table)} ORDER BY 1"))
    return _SNAPSHOT_SQL


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the game's tables, timestamps left out."""
    shot = {}
    with connection.cursor() as cursor:
        for table, sql in _snapshot_queries():
            cursor.execute(sql)
            shot[table] = cursor.fetchall()
    return shot


def snapshot_diff(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    changed = []
    for label in sorted(set(before) | set(after)):
        a, b = before.get(label, []), after.get(label, [])
        if a != b:
            changed.append(f"{label} ({len(a)} rows before, {len(b)} after)")
    return changed


def _refusal(exc: BaseException) -> Refusal | None:
    """The refusal an exception stands for, or None for a crash."""
    if isinstance(exc, GameError):
        return Refusal(exc.code, str(exc.detail))
    if isinstance(exc, IllegalAction):
        return Refusal(exc.code, exc.detail)
    if isinstance(exc, RuleViolation):
        return Refusal("rule_violation", str(exc))
    if isinstance(exc, ActionRefused):
        return Refusal(exc.code or "refused", str(exc))
    if isinstance(exc, RulesetError):
        return Refusal("ruleset_error", str(exc))
    return None


def _run_step(ctx: Ctx, index: int, step: dict[str, Any], *, watch: bool
              ) -> tuple[Refusal | None, list[str]]:
    """Run one step. Returns (refusal or None, problems with a refusal's side effects).

    `watch`: a refusal is expected here, so compare every table before and after it.
    """
    name, params, opts = split_step(step)
    before = snapshot() if watch else None
    sid = transaction.savepoint()
    try:
        if "dice" in opts:
            saved = ctx.dice
            with forced_dice(list(opts["dice"])) as dice:
                ctx.dice = dice
                try:
                    result = ACTIONS[name](ctx, params)
                finally:
                    ctx.dice = saved
        else:
            result = ACTIONS[name](ctx, params)
    except Exception as exc:
        refusal = _refusal(exc)
        if refusal is None:
            transaction.savepoint_rollback(sid)
            raise
        leaks = snapshot_diff(before, snapshot()) if before is not None else []
        transaction.savepoint_rollback(sid)
        problems = [f"step {index + 1} ({name}) was refused ({refusal.code}) but changed "
                    f"{', '.join(leaks)}"] if leaks else []
        return refusal, problems
    transaction.savepoint_commit(sid)
    ctx.last = result
    if isinstance(result, dict) and name == "battle":
        ctx.results["__battle__"] = result
    if "as" in opts:
        ctx.results[str(opts["as"])] = result
    return None, []


def _play(case: Case) -> list[str]:
    """Play a case inside the caller's transaction; the sentences of what differed."""
    ctx = build(case.given)
    ctx.ruleset = case.ruleset
    last_event = Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    ctx.results["__first_event__"] = last_event
    then = dict(case.then)
    expected_error = then.get("error")
    problems: list[str] = []
    refused: Refusal | None = None
    with forced_dice(case.dice or []) as dice:
        ctx.dice = dice
        for index, step in enumerate(case.when):
            _, _, opts = split_step(step)
            try:
                watch = "error" in opts or expected_error is not None
                refusal, leaks = _run_step(ctx, index, step, watch=watch)
            except DiceExhaustedError as exc:
                return [f"step {index + 1}: the rules rolled more dice than the case gives "
                        f"({exc})"]
            problems += leaks
            step_error = opts.get("error")
            if step_error is not None:
                got = refusal.code if refusal else "none"
                if got != step_error:
                    detail = f" ({refusal.detail})" if refusal else ""
                    problems.append(f"step {index + 1}: expected error {step_error}, got "
                                    f"{got}{detail}")
                continue
            if refusal is not None:
                refused = refusal
                if expected_error is None:
                    problems.append(f"step {index + 1} was refused: {refusal.code}: "
                                    f"{refusal.detail}")
                break
        remaining = dice.remaining
    if expected_error is not None:
        got = refused.code if refused else "none"
        if got != expected_error:
            detail = f" ({refused.detail})" if refused else ""
            problems.append(f"error: expected {expected_error}, got {got}{detail}")
    dice_left = then.get("dice_left", 0 if case.dice else None)
    if dice_left is not None and dice_left != "*" and remaining != dice_left:
        problems.append(f"dice: expected {dice_left} unused, got {remaining} unused (the "
                        "rules rolled fewer dice than the case gives)")
    problems += check_then(ctx, then)
    return problems


def run_case(case: Case, *, run_pending: bool = False) -> Outcome:
    started = time.perf_counter()
    if case.status == "pending" and not run_pending:
        return Outcome(case.id, PENDING, [case.reason], case.path)
    try:
        with transaction.atomic():
            try:
                problems = _play(case)
            finally:
                transaction.set_rollback(True)
    except ServiceMissing as exc:
        return Outcome(case.id, PENDING, [str(exc)], case.path, time.perf_counter() - started)
    except (GivenError, StepError, CaseFormatError) as exc:
        return Outcome(case.id, ERROR, [f"case format: {exc}"], case.path)
    except Exception as exc:  # a crash of the code under test
        return Outcome(case.id, ERROR, [f"{type(exc).__name__}: {show(str(exc))}"], case.path)
    elapsed = time.perf_counter() - started
    if case.status == "pending":
        note = "passes now" if not problems else "; ".join(problems)
        return Outcome(case.id, PENDING, [f"{case.reason} [{note}]"], case.path, elapsed)
    return Outcome(case.id, FAILED if problems else PASSED, problems, case.path, elapsed)


def _id_of(path: Path) -> str:
    """The id a broken file declares, else its name."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("id:"):
            return line[3:].strip().strip("'\"") or path.stem
    return path.stem


def load_cases(paths: Iterable[str | Path]) -> tuple[list[Case], list[Outcome]]:
    """Cases from files and directories; unreadable files become ERROR outcomes."""
    cases: list[Case] = []
    broken: list[Outcome] = []
    seen: dict[str, Path] = {}
    for path in case_files(paths):
        try:
            case = load_case(path)
        except CaseFormatError as exc:
            broken.append(Outcome(_id_of(path), ERROR, [str(exc)], path))
            continue
        if case.id in seen:
            broken.append(Outcome(case.id, ERROR, [f"duplicate id (also in {seen[case.id]})"],
                                  path))
            continue
        seen[case.id] = path
        cases.append(case)
    return cases, broken


def _user_names(cases: list[Case]) -> set[str]:
    names = set(DEFAULT_PLAYERS)
    for case in cases:
        players = case.given.get("players")
        if isinstance(players, (list, dict)):
            names.update(str(p) for p in players)
    return names


def run_paths(paths: Iterable[str | Path], *, run_pending: bool = False) -> Summary:
    started = time.perf_counter()
    cases, outcomes = load_cases(paths)
    prepare_users(_user_names(cases))
    for case in cases:
        outcomes.append(run_case(case, run_pending=run_pending))
    return Summary(outcomes, time.perf_counter() - started)
