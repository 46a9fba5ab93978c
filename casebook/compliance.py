"""The compliance page: every rule section of the seed with its cases and their status.

Sections are the seed's headings (docs/seed-unlimit3d-8.txt, the lines ending in
"[edit]") plus the sections whose headings were lost in the copy (the building tables,
the exploration table, the four pilot classes, shields, tackle, designation, lifting,
move and the battle set-up; see /work/shared/seeds/README.md). A section with no case
must say why it is not applicable; otherwise the page says it is not covered yet.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from battles.rulesets.registry import find_ruleset
from campaign import rulesets
from campaign.rulesets import DEFAULT as DEFAULT_RULESET
from casebook.runner import Outcome, Summary

SEED = Path(__file__).resolve().parents[1] / "docs" / "seed-unlimit3d-8.txt"
RULINGS = Path(__file__).resolve().parents[1] / "docs" / "RULINGS.md"

# Sections whose headings the copy lost: (name, the heading they follow in the seed).
LOST_SECTIONS: tuple[tuple[str, str], ...] = (
    ("Bunker", "Making a roll"), ("Factory", "Concrete barricade"),
    ("Foundry", "Force Field"), ("Laboratory", "Force Field"), ("Radar", "Power plant"),
    ("Refinery", "Power plant"), ("Station", "Power plant"), ("Turret", "Power plant"),
    ("Warehouse", "Power plant"), ("Bandit", "Level and experience"),
    ("Scientist", "Level and experience"), ("Soldier", "Level and experience"),
    ("Worker", "Level and experience"), ("Shields", "Special Rules"),
    ("Move table", "Weapon slots"), ("Exploration", "Weapon slots"),
    ("Battle set-up", "Weapon slots"), ("Tackle", "Close Combat (fight)"),
    ("Missile designation", "Close Combat (fight)"), ("Lifting", "Close Combat (fight)"),
    ("Move", "Close Combat (fight)"),
)

NOT_APPLICABLE: dict[str, str] = {
    "Maps and Sheets": "Pictures of a character sheet and a meta-map; no rule. The meta-map "
                       "itself is covered under Move Phase and Beginning the game.",
}

# Rulings the case book cannot show, with the reason (listed on the page, not hidden).
RULINGS_OUTSIDE_THE_BOOK: dict[str, str] = {
    "R-MAP-8": "reproducible maps and unforced dice: every case forces its dice and "
               "lays its map out itself, so the book cannot show what the seed alone "
               "decides (tests/territories cover it)",
    "R-BAT-31": "what the default player chooses is a behaviour, not a rule (the ruling "
                "says so); R-BAT-5 shows its retreat",
    "R-PLAN-1": "how a sealed battle plan steers the default player is a behaviour measured "
                "over seeded battles (tests/rulesets/test_plans_unlimit3d8.py)",
    "R-PLAN-2": "withdrawing by plan: tests/rulesets/test_plans_unlimit3d8.py",
    "R-PLAN-3": "holding by plan: tests/rulesets/test_plans_unlimit3d8.py",
    "R-PLAN-4": "focus by plan: tests/rulesets/test_plans_unlimit3d8.py",
    "R-DICE-1": "secret per-phase seeds are the site's trust machinery, not a rule of the "
                "seed (tests/core/test_verifiable_dice.py proves them)",
    "R-DICE-2": "rollback and sandbox points: tests/core/test_rollback.py, "
                "tests/core/test_rollback_keeps.py and tests/core/test_sandbox.py",
    "R-DICE-3": "what a sandbox copies: tests/core/test_sandbox.py",
    "R-DICE-4": "a committed seed survives a rollback: the site's trust machinery "
                "(tests/core/test_rollback_keeps.py proves it)",
    "R-ORD-12": "deadlines at a local hour are the site's administration of a league, not a "
                "rule of the seed (tests/core/test_time_zones.py)",
    "R-AWAY-1": "absence is the site's administration of a league, not a rule of the seed "
                "(tests/orders/test_absence.py)",
    "R-AWAY-2": "the stand-in: tests/orders/test_absence.py",
    "R-AWAY-3": "a record to join: tests/orders/test_absence.py",
    "R-AWAY-4": "deadlines met and missed: tests/orders/test_absence.py",
}


def _key(name: str) -> str:
    return " ".join(str(name).replace("\u2019", "'").split()).casefold()


def canonical_section(name: str, sections: list[str] | None = None) -> str:
    """The seed heading a case's `rule.section` names, matched without regard to case,
    spacing or a trailing "[edit]"; the name itself when it is no heading."""
    sections = sections if sections is not None else seed_sections()
    wanted = _key(str(name).removesuffix("[edit]"))
    return next((s for s in sections if _key(s) == wanted), str(name))


def seed_sections() -> list[str]:
    """The seed's headings in order, with the lost sections after the heading they
    follow."""
    headings = [m.group(1).strip() for m in re.finditer(r"^(\S.*)\[edit\]$",
                                                         SEED.read_text(encoding="utf-8"),
                                                         re.MULTILINE)]
    ordered: list[str] = []
    for heading in headings:
        ordered.append(heading)
        ordered.extend(name for name, after in LOST_SECTIONS if after == heading)
    return ordered


def ruling_ids() -> list[str]:
    if not RULINGS.exists():
        return []
    return re.findall(r"^- \*\*(R-[A-Z0-9]+-\d+)", RULINGS.read_text(encoding="utf-8"),
                      re.MULTILINE)


STATUS_MARK = {"passed": "passed", "failed": "FAILED", "error": "ERROR", "pending": "pending"}


def _status(outs: list[Outcome]) -> str:
    passed = sum(1 for o in outs if o.status == "passed")
    failed = sum(1 for o in outs if o.status in ("failed", "error"))
    return "covered" if passed and not failed else ("FAILING" if failed else "pending only")


def _section_rows(sections: list[str], by_section: dict[str, list[Outcome]],
                  reasons: dict[str, str], cases: dict[str, object]) -> list[dict[str, Any]]:
    def item(o: Outcome) -> dict[str, Any]:
        case = cases[o.case_id]
        return {"id": o.case_id, "status": o.status, "title": getattr(case, "title", "") or "",
                "path": o.path.as_posix() if o.path else "",
                "note": "" if o.status == "passed" else "; ".join(o.messages)}

    rows = []
    for section in sections:
        outs = sorted(by_section.get(section, []), key=lambda o: o.case_id)
        if outs:
            status = _status(outs)
        elif section in reasons:
            status = "not applicable"
        else:
            status = "NOT COVERED"
        rows.append({"section": section, "cases": len(outs),
                     "passed": sum(1 for o in outs if o.status == "passed"),
                     "failed": sum(1 for o in outs if o.status in ("failed", "error")),
                     "pending": sum(1 for o in outs if o.status == "pending"),
                     "status": status, "reason": reasons.get(section, "") if not outs else "",
                     "items": [item(o) for o in outs]})
    return rows


def _ruling_rows(ids: list[str], by_ruling: dict[str, list[Outcome]]) -> list[dict[str, Any]]:
    rulings = []
    for ruling in ids:
        outs = by_ruling.get(ruling, [])
        ok = sum(1 for o in outs if o.status == "passed")
        status = ("NO CASE" if not outs else "passed" if ok == len(outs)
                  else f"{ok}/{len(outs)} passed")
        note = RULINGS_OUTSIDE_THE_BOOK.get(ruling, "") if not outs else ""
        if note:
            status = "outside the book"
        rulings.append({"ruling": ruling, "cases": [o.case_id for o in outs],
                        "status": status, "note": note})
    return rulings


def ruleset_ruling_ids(name: str) -> list[str]:
    """The rulings of a tactical ruleset other than Unlimit3d 8 (docs/rulings/NAME.md)."""
    path = RULINGS.parent / "rulings" / f"{name}.md"
    if not path.exists():
        return []
    return re.findall(r"^- \*\*(R-[A-Z0-9]+-\d+)", path.read_text(encoding="utf-8"),
                      re.MULTILINE)


def _ruleset_report(name: str, outcomes: list[Outcome],
                    cases: dict[str, object]) -> dict[str, Any]:
    ruleset = find_ruleset(name)
    listed = ruleset.sections() if hasattr(ruleset, "sections") else []
    sections = [str(s["section"]) for s in listed]
    reasons = {str(s["section"]): str(s["reason"]) for s in listed if s.get("reason")}
    by_section: dict[str, list[Outcome]] = defaultdict(list)
    by_ruling: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        case = cases[outcome.case_id]
        by_section[canonical_section(case.section, sections)].append(  # type: ignore[attr-defined]
            outcome)
        for ruling in case.rulings:  # type: ignore[attr-defined]
            by_ruling[ruling].append(outcome)
    return {"name": name, "title": ruleset.title, "seed": ruleset.seed_file,
            "refusals": _refusals(outcomes, cases),
            "passed": sum(1 for o in outcomes if o.status == "passed"),
            "failed": sum(1 for o in outcomes if o.status in ("failed", "error")),
            "pending": sum(1 for o in outcomes if o.status == "pending"),
            "total": len(outcomes),
            "sections": _section_rows(sections, by_section, reasons, cases),
            "unknown_sections": {s: [o.case_id for o in by_section[s]]
                                 for s in sorted(set(by_section) - set(sections))},
            "rulings": _ruling_rows(ruleset_ruling_ids(name), by_ruling)}


def _refusals(outcomes: list[Outcome], cases: dict[str, object]) -> dict[str, int]:
    """How many of these cases prove a refusal (a prohibition), and how many pass."""
    proving = [o for o in outcomes
               if getattr(cases.get(o.case_id), "proves_refusal", False)]
    return {"cases": len(proving), "passed": sum(1 for o in proving if o.status == "passed")}


def build_report(summary: Summary, cases: dict[str, object]) -> dict[str, Any]:
    """The compliance report as plain data (the Markdown page and the site page both
    render it). `cases` maps case id -> Case (for its section, title, rulings and
    ruleset). The top level is Unlimit3d 8's seed (the strategic layer and its own
    battles); `rulesets` holds one report per further tactical ruleset with cases."""
    sections = seed_sections()
    by_section: dict[str, list[Outcome]] = defaultdict(list)
    by_ruling: dict[str, list[Outcome]] = defaultdict(list)
    others: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in summary.outcomes:
        # The section comes from the case (its `rule`), never from where the file lies.
        case = cases.get(outcome.case_id)
        if case is None:
            continue
        ruleset = case.ruleset  # type: ignore[attr-defined]
        if ruleset != DEFAULT_RULESET:  # the strategic layer's seed is the default's
            others[ruleset].append(outcome)
            continue
        section = canonical_section(case.section, sections)  # type: ignore[attr-defined]
        by_section[section].append(outcome)
        for ruling in case.rulings:  # type: ignore[attr-defined]
            by_ruling[ruling].append(outcome)
    rows = _section_rows(sections, by_section, NOT_APPLICABLE, cases)
    unknown = {section: [o.case_id for o in by_section[section]]
               for section in sorted(set(by_section) - set(sections))}
    own = [o for o in summary.outcomes if o.case_id in cases
           and cases[o.case_id].ruleset == DEFAULT_RULESET]  # type: ignore[attr-defined]
    return {"passed": summary.passed, "failed": summary.failed, "pending": summary.pending,
            "refusals": _refusals(own, cases),
            "total": len(summary.outcomes), "sections": rows, "unknown_sections": unknown,
            "rulings": _ruling_rows(ruling_ids(), by_ruling),
            "rulesets": [_ruleset_report(name, outs, cases)
                         for name, outs in sorted(others.items())]}


def _title(name: str) -> str:
    """A ruleset's title as the site offers it (its name when the site lacks it)."""
    info = rulesets.get(name)
    return info.title if info is not None else name


def render(summary: Summary, cases: dict[str, object]) -> str:
    """The page as Markdown."""
    return render_report(build_report(summary, cases))


def render_report(report: dict[str, Any]) -> str:
    lines = [
        "# Compliance: the rules of Unlimit3d 8 and the case book",
        "",
        "Generated by `python manage.py compliance` from the case book (tests/casebook/,",
        "format in docs/CASEBOOK_FORMAT.md) and the rulings (docs/RULINGS.md). Do not edit",
        "by hand. A case *passed* when the real services and the real engine did what the",
        "seed (and the cited ruling) says; *pending* cases are written but not yet",
        "playable (their reason is given) and never count as passed.",
        "",
        f"**{report['passed']} passed, {report['failed']} failed, {report['pending']} pending** "
        f"({report['total']} cases).",
        "",
        "## Refusal cases per ruleset",
        "",
        "A refusal case proves a prohibition: the rules refuse an illegal choice (a wrong",
        "phase, a move too far, an action out of turn) with a precise error and change nothing.",
        "",
        "| ruleset | refusal cases | passed |",
        "|---|---|---|",
        f"| {_title(DEFAULT_RULESET)} (`{DEFAULT_RULESET}`) | {report['refusals']['cases']} | "
        f"{report['refusals']['passed']} |",
        *(f"| {rs['title']} (`{rs['name']}`) | {rs['refusals']['cases']} | "
          f"{rs['refusals']['passed']} |" for rs in report.get("rulesets", [])),
        "",
        "## By rule section of the seed",
        "",
        "| section | cases | passed | failed | pending | status |",
        "|---|---|---|---|---|---|",
    ]
    for row in report["sections"]:
        lines.append(f"| {row['section']} | {row['cases']} | {row['passed']} | "
                     f"{row['failed']} | {row['pending']} | {row['status']} |")
    lines += ["", "## Sections", ""]
    for row in report["sections"]:
        lines += [f"### {row['section']}", ""]
        if not row["items"]:
            lines.append(f"Not applicable: {row['reason']}" if row["reason"] else
                         "**Not covered yet**: no case checks this section.")
            lines.append("")
            continue
        for it in row["items"]:
            note = f" — {it['note']}" if it["note"] else ""
            lines.append(f"- `{it['id']}` {STATUS_MARK[it['status']]}: {it['title']} "
                         f"({it['path']}){note}")
        lines.append("")
    if report["unknown_sections"]:
        lines += ["## Cases naming no seed section", ""]
        for section, ids in report["unknown_sections"].items():
            lines.append(f"- {section!r}: " + ", ".join(f"`{i}`" for i in ids))
        lines.append("")
    lines += ["## Rulings", "", "| ruling | cases | status |", "|---|---|---|"]
    for r in report["rulings"]:
        ids = ", ".join(f"`{i}`" for i in r["cases"][:6]) + (" ..." if len(r["cases"]) > 6
                                                               else "")
        status = f"outside the book: {r['note']}" if r["note"] else r["status"]
        lines.append(f"| {r['ruling']} | {ids} | {status} |")
    lines.append("")
    for rs in report.get("rulesets", []):
        lines += _render_ruleset(rs)
    return "\n".join(lines)


def _render_ruleset(rs: dict[str, Any]) -> list[str]:
    lines = [f"# Ruleset {rs['title']} (`{rs['name']}`, seed {rs['seed']})", "",
             f"**{rs['passed']} passed, {rs['failed']} failed, {rs['pending']} pending** "
             f"({rs['total']} cases, {rs['refusals']['cases']} of them refusals); rulings in "
             f"docs/rulings/{rs['name']}.md.", "",
             "| section | cases | passed | failed | status |", "|---|---|---|---|---|"]
    for row in rs["sections"]:
        status = (f"{row['status']}: {row['reason']}" if row["reason"] else row["status"])
        lines.append(f"| {row['section']} | {row['cases']} | {row['passed']} | "
                     f"{row['failed']} | {status} |")
    lines.append("")
    for row in rs["sections"]:
        for it in row["items"]:
            note = f" — {it['note']}" if it["note"] else ""
            lines.append(f"- `{it['id']}` {STATUS_MARK[it['status']]} ({row['section']}): "
                         f"{it['title']}{note}")
    if rs["unknown_sections"]:
        lines += ["", "Cases naming no section of this seed: "
                  + ", ".join(f"{s!r} ({', '.join(ids)})"
                              for s, ids in rs["unknown_sections"].items())]
    lines += ["", "| ruling | cases | status |", "|---|---|---|"]
    for r in rs["rulings"]:
        lines.append(f"| {r['ruling']} | {', '.join(f'`{i}`' for i in r['cases'][:6])} | "
                     f"{r['status']} |")
    lines.append("")
    return lines
