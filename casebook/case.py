"""Loading case files: YAML, one situation per file (format: docs/CASEBOOK_FORMAT.md)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from campaign.rulesets import DEFAULT as DEFAULT_RULESET

CASE_SUFFIXES = (".yaml", ".yml")
TOP_KEYS = frozenset({"id", "title", "rule", "ruling", "status", "reason", "given", "dice",
                      "when", "then", "notes", "ruleset"})
STATUSES = ("active", "pending")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class CaseFormatError(ValueError):
    """A case file that does not follow the documented format."""


@dataclass
class Case:
    id: str
    path: Path
    rule: dict[str, Any]
    given: dict[str, Any] = field(default_factory=dict)
    dice: list[int] | None = None
    when: list[dict[str, Any]] = field(default_factory=list)
    then: dict[str, Any] = field(default_factory=dict)
    rulings: tuple[str, ...] = ()
    status: str = "active"
    reason: str = ""
    title: str = ""
    ruleset: str = DEFAULT_RULESET

    @property
    def area(self) -> str:
        return self.path.parent.name

    @property
    def section(self) -> str:
        return str(self.rule.get("section", ""))

    @property
    def proves_refusal(self) -> bool:
        """The case expects the rules to refuse a choice (a step's `error:` or the
        case's `then: error:`): a prohibition proven, not only a permission."""
        return "error" in self.then or any("error" in step for step in self.when)


def case_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Every case file named or found (recursively) under the given paths, sorted."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in CASE_SUFFIXES
                              and p.is_file())
        elif path.is_file():
            yield path
        else:
            raise CaseFormatError(f"{path}: no such file or directory")


def _fail(path: Path, message: str) -> CaseFormatError:
    return CaseFormatError(f"{path}: {message}")


def parse_case(data: Any, path: Path) -> Case:
    """Validate the top level of a case and return it (actions are checked when run)."""
    if not isinstance(data, dict):
        raise _fail(path, "a case file must be a mapping")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise _fail(path, f"unknown top-level key(s): {', '.join(sorted(unknown))}")
    case_id = data.get("id")
    if not isinstance(case_id, str) or not case_id.strip():
        raise _fail(path, "a case needs an 'id' (a string)")
    rule = data.get("rule")
    if isinstance(rule, str):
        rule = {"section": rule}
    if not isinstance(rule, dict) or not rule.get("section"):
        raise _fail(path, "a case needs 'rule' with a 'section' of the seed (and a 'quote')")
    ruling = data.get("ruling") or ()
    rulings = (ruling,) if isinstance(ruling, str) else tuple(ruling)
    status = data.get("status", "active")
    if status not in STATUSES:
        raise _fail(path, f"'status' must be one of {STATUSES}")
    if status == "pending" and not data.get("reason"):
        raise _fail(path, "a pending case needs a 'reason'")
    dice = data.get("dice")
    if dice is not None and (not isinstance(dice, list)
                             or not all(isinstance(f, int) and 1 <= f <= 8 for f in dice)):
        raise _fail(path, "'dice' must be a list of die faces (1..8)")
    ruleset = data.get("ruleset", DEFAULT_RULESET)
    if not isinstance(ruleset, str) or not ruleset:
        raise _fail(path, "'ruleset' must be a ruleset name")
    when = data.get("when") or []
    if isinstance(when, dict):
        when = [when]
    if not isinstance(when, list) or not all(isinstance(s, dict) for s in when):
        raise _fail(path, "'when' must be a list of actions")
    then = data.get("then") or {}
    given = data.get("given") or {}
    if not isinstance(then, dict) or not isinstance(given, dict):
        raise _fail(path, "'given' and 'then' must be mappings")
    return Case(id=case_id.strip(), path=path, rule=rule, given=given, dice=dice, when=when,
                then=then, rulings=rulings, status=status, reason=str(data.get("reason", "")),
                title=str(data.get("title", "")), ruleset=ruleset)


def load_case(path: Path) -> Case:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise _fail(path, f"not valid YAML: {exc}") from exc
    return parse_case(data, path)
