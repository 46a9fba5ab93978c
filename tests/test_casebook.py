"""The case book (tests/casebook/) played through the same runner as
`python manage.py casebook`, plus the runner's own behaviour on wrong cases."""

from __future__ import annotations

import copy
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casebook import runner
from casebook.case import case_files, load_case
from casebook.management.commands import casebook as casebook_command
from casebook.management.commands import compliance as compliance_command

BOOK = Path(__file__).parent / "casebook"
# the book is played once per module (below): under xdist, once per run only if the module's
# tests share a worker (`--dist loadgroup`, pyproject.toml)
pytestmark = pytest.mark.xdist_group("casebook")


def _run(*paths: str | Path) -> tuple[str, BaseException | None]:
    out = io.StringIO()
    try:
        call_command("casebook", *[str(p) for p in paths], stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


@pytest.fixture(scope="module")
def book_played_once() -> Iterator[None]:
    """Both `casebook BOOK` and `compliance BOOK` play the whole book through
    `casebook.runner.run_paths` on a fresh test database (each case in a rolled-back
    transaction), which is a third of this module's CPU. Within the module the book's
    outcomes are played once and handed (as a copy) to the second command that asks for
    exactly the same paths; any other paths are played as usual."""
    played: dict[tuple[tuple[Path, ...], bool], runner.Summary] = {}
    real = runner.run_paths

    def run_paths_once(paths, *, run_pending: bool = False) -> runner.Summary:
        paths = list(paths)
        key = (tuple(Path(p).resolve() for p in paths), run_pending)
        if key not in played:
            played[key] = real(paths, run_pending=run_pending)
        return copy.deepcopy(played[key])

    with pytest.MonkeyPatch.context() as patch:
        for module in (casebook_command, compliance_command):
            patch.setattr(module, "run_paths", run_paths_once)
        yield


@pytest.mark.django_db
@pytest.mark.usefixtures("book_played_once")
def test_the_whole_book_passes() -> None:
    """Every case of the book passes (pending cases are reported, never counted)."""
    output, error = _run(BOOK)
    last = output.strip().splitlines()[-1]
    failing = [line for line in output.splitlines() if line.startswith(("FAIL", "ERROR"))]
    assert error is None and not failing, "\n".join(failing)
    passed = int(last.split(" passed")[0])
    skipped = int(last.split(", ")[2].split()[0]) if last.count(",") == 2 else 0
    files = list(case_files([BOOK]))
    marked = sum(1 for f in files if load_case(f).status == "pending")
    assert skipped >= marked  # pending: marked so, or a service not in the project yet
    assert passed >= len(files) - skipped
    assert ", 0 failed" in last


POWER_PLANT_40 = """
id: WRONG-POWER-40
rule: {section: Power plant, quote: "Each power plant produces 50 points of energy"}
when:
  - query: {name: power_output, plants: 1}
then:
  result: 40
"""


@pytest.mark.django_db
def test_a_wrong_case_fails_naming_the_case_and_the_difference(tmp_path: Path) -> None:
    """A deliberately wrong case (a power plant giving 40) fails with its id and the
    difference, and the command exits non-zero."""
    (tmp_path / "wrong.yaml").write_text(POWER_PLANT_40)
    output, error = _run(tmp_path)
    assert error is not None and error.returncode == 1
    assert "FAIL WRONG-POWER-40: result: expected 40, got 50" in output
    assert output.strip().splitlines()[-1] == "0 passed, 1 failed"


REFUSAL_LEAK = """
id: WRONG-ERROR
rule: {section: Exploration, quote: "roll"}
given: {holdings: {alice: [Beta]}}
dice: [1, 1, 1]
when:
  - explore: {player: alice, territory: Beta}
then:
  error: insufficient_credits
"""


@pytest.mark.django_db
def test_an_expected_refusal_that_does_not_happen_fails(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(REFUSAL_LEAK)
    output, error = _run(tmp_path)
    assert error is not None
    assert "FAIL WRONG-ERROR: error: expected insufficient_credits, got none" in output


UNUSED_DICE = """
id: WRONG-DICE
rule: {section: Exploration, quote: "roll"}
given: {holdings: {alice: [Beta]}}
dice: [1, 1, 1, 5]
when:
  - explore: {player: alice, territory: Beta}
"""


@pytest.mark.django_db
def test_dice_the_rules_did_not_roll_fail_the_case(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(UNUSED_DICE)
    output, _ = _run(tmp_path)
    assert "FAIL WRONG-DICE: dice: expected 0 unused, got 1 unused" in output


PENDING = """
id: LATER
rule: {section: Shipping, quote: "five containers"}
status: pending
reason: shipping service not written yet
"""


@pytest.mark.django_db
def test_pending_cases_are_skipped_not_passed(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(PENDING)
    output, error = _run(tmp_path)
    assert error is None
    assert "PENDING LATER: shipping service not written yet" in output
    assert output.strip().splitlines()[-1] == "0 passed, 0 failed, 1 skipped"


def test_a_malformed_case_is_an_error_not_a_pass(tmp_path: Path, db) -> None:
    (tmp_path / "c.yaml").write_text("id: BROKEN\nwhen: 3\n")
    output, error = _run(tmp_path)
    assert error is not None
    assert output.startswith("ERROR BROKEN:")


def test_every_case_names_a_section_of_the_seed() -> None:
    """The compliance page files a case under its `rule.section`: a name that is no
    heading of the seed (lost headings included) would leave its section looking
    uncovered, so the book must not have one."""
    from battles.rulesets.registry import find_ruleset
    from casebook.compliance import canonical_section, seed_sections

    strays = {}
    for f in case_files([BOOK]):
        case = load_case(f)
        sections = (seed_sections() if case.ruleset == "unlimit3d8" else
                    [s["section"] for s in find_ruleset(case.ruleset).sections()])
        if canonical_section(case.section, sections) not in sections:
            strays[f.name] = (case.ruleset, case.section)
    assert not strays


def test_sections_are_matched_by_the_case_not_by_its_file(tmp_path: Path) -> None:
    """The defect that showed "Beginning the game" uncovered: the section must come from
    the case, matched without regard to case or spacing, wherever the file lies."""
    from casebook.compliance import build_report
    from casebook.runner import PASSED, Outcome, Summary

    path = tmp_path / "anywhere" / "start.yaml"
    path.parent.mkdir()
    path.write_text("id: X\nrule: {section: 'beginning  the Game'}\n")
    case = load_case(path)
    report = build_report(Summary([Outcome("X", PASSED, [], path)], 0.0), {"X": case})
    row = next(r for r in report["sections"] if r["section"] == "Beginning the game")
    assert (row["cases"], row["status"]) == (1, "covered")
    assert not report["unknown_sections"]


def test_the_report_counts_refusal_cases_per_ruleset(tmp_path: Path) -> None:
    """Issue 28: a case expecting a step's refusal (or the case's) proves a prohibition
    and is counted as a refusal case, per ruleset."""
    from casebook.compliance import build_report, render_report
    from casebook.runner import FAILED, PASSED, Outcome, Summary

    texts = {
        "A": "id: A\nrule: {section: Tactical Turn}\nwhen: [{act: {do: pass}, error: x}]\n",
        "B": "id: B\nrule: {section: Tactical Turn}\nthen: {error: y}\n",
        "C": "id: C\nrule: {section: Tactical Turn}\nwhen: [{act: {do: pass}}]\n",
        "D": "id: D\nruleset: onepage\nrule: {section: Movement}\n"
             "when: [{act: {do: move}, error: moved_twice}]\n",
    }
    cases = {}
    for key, text in texts.items():
        path = tmp_path / f"{key}.yaml"
        path.write_text(text)
        cases[key] = load_case(path)
    outcomes = [Outcome("A", PASSED, [], tmp_path / "A.yaml"),
                Outcome("B", FAILED, ["x"], tmp_path / "B.yaml"),
                Outcome("C", PASSED, [], tmp_path / "C.yaml"),
                Outcome("D", PASSED, [], tmp_path / "D.yaml")]
    report = build_report(Summary(outcomes, 0.0), cases)
    assert report["refusals"] == {"cases": 2, "passed": 1}
    onepage = next(r for r in report["rulesets"] if r["name"] == "onepage")
    assert onepage["refusals"] == {"cases": 1, "passed": 1}
    page = render_report(report)
    assert "| Unlimit3d 8 (`unlimit3d8`) | 2 | 1 |" in page


@pytest.mark.django_db
@pytest.mark.usefixtures("book_played_once")
def test_the_compliance_page_covers_every_section(tmp_path: Path) -> None:
    """Issue 8: every rule section of the seed has a case or says why it is not
    applicable; the page and its JSON are written."""
    import json

    out = tmp_path / "COMPLIANCE.md"
    call_command("compliance", str(BOOK), "--output", str(out), stdout=io.StringIO())
    report = json.loads(out.with_suffix(".json").read_text())
    uncovered = [r["section"] for r in report["sections"]
                 if r["status"] in ("NOT COVERED", "FAILING")]
    assert not uncovered
    assert report["failed"] == 0
    assert "| Beginning the game |" in out.read_text()


@pytest.mark.django_db
def test_the_site_shows_the_compliance_report(client, tmp_path: Path, monkeypatch) -> None:
    """The compliance page renders the last report, linked from every page's footer."""
    import json

    from campaign.pages import compliance as page

    report = {"passed": 1, "failed": 0, "pending": 0, "total": 1, "unknown_sections": {},
              "sections": [{"section": "Beginning the game", "cases": 1, "passed": 1,
                            "failed": 0, "pending": 0, "status": "covered", "reason": "",
                            "items": [{"id": "MOV-START", "status": "passed", "title": "t",
                                       "path": "p", "note": ""}]},
                           {"section": "Maps and Sheets", "cases": 0, "passed": 0,
                            "failed": 0, "pending": 0, "status": "not applicable",
                            "reason": "pictures", "items": []}],
              "rulings": [{"ruling": "R-MAP-8", "cases": [], "status": "outside the book",
                           "note": "forced dice"}]}
    path = tmp_path / "COMPLIANCE.json"
    path.write_text(json.dumps(report))
    monkeypatch.setattr(page, "report_path", lambda: path)
    response = client.get("/compliance/")
    body = response.content.decode()
    assert response.status_code == 200
    assert "MOV-START" in body and "Not applicable: pictures" in body
    assert 'href="/compliance/"' in body
    monkeypatch.setattr(page, "report_path", lambda: tmp_path / "missing.json")
    assert "No compliance report yet" in client.get("/compliance/").content.decode()
