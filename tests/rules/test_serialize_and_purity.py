"""`rules_as_json()` keeps API.md's shape; `campaign.rules` never imports Django."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from tests.rules import unlimit3d8 as rules

ROOT = Path(__file__).resolve().parents[2]


def test_rules_json_has_the_contract_keys() -> None:
    """API.md, 'The rules': buildings, resources, pilot_classes, xp_levels, weapons,
    templates, vehicles with their listed fields; energy None is 0, a '-' is null."""
    data = json.loads(json.dumps(rules.rules_as_json()))
    for key in ("buildings", "resources", "pilot_classes", "xp_levels", "weapons",
                "templates", "vehicles"):
        assert key in data
    for b in data["buildings"].values():
        assert {"name", "cost", "energy", "armor", "hit_points", "requires", "upgrades"} <= set(b)
        for u in b["upgrades"].values():
            assert {"name", "cost", "effect"} <= set(u)
    assert data["buildings"]["station"]["energy"] == 0
    assert data["buildings"]["station"]["requires"] is None
    assert set(data["buildings"]) == set(rules.BUILDING_KEYS)
    for r in data["resources"]:
        assert {"name", "scores", "raw_value", "refined_value", "refined_with"} <= set(r)
    assert data["resources"][0]["scores"] == [3, 8]
    for p in data["pilot_classes"].values():
        assert {"name", "hiring_cost", "levels", "bonus_xp"} <= set(p)
        for line in p["levels"]:
            assert set(line) == {"level", "pilot", "fight", "tech", "will", "init"}
    assert data["xp_levels"][0] == {"level": 1, "xp": 5}
    for w in data["weapons"].values():
        assert {"name", "type", "base_damage", "misfire", "range_increment", "base_cooldown",
                "special", "cost"} <= set(w)
    assert data["weapons"]["beamer"]["misfire"] is None
    assert data["weapons"]["cannon"]["base_damage"] == 10
    for t in data["templates"].values():
        assert {"name", "effect", "cost", "applies_to", "passive", "excludes"} <= set(t)
    assert data["templates"]["heavy"]["cost"] == "+50%"
    for v in data["vehicles"].values():
        assert {"name", "category", "slots", "size", "weight", "armor", "hit_points",
                "cost"} <= set(v)
    assert data["vehicles"]["hellound"]["slots"] == ["M", "M"]
    assert len(data["move_table"]) == 8
    assert len(data["j_row"]) == 7
    assert data["constants"]["starting_credits"] == 1000


def test_rules_json_follows_the_bandit_option() -> None:
    """R-TAB-1: the served Bandit level-8 row follows the campaign option."""
    default = rules.rules_as_json()["pilot_classes"]["bandit"]["levels"][7]
    printed = rules.rules_as_json(bandit_level8_row="as_printed")["pilot_classes"]["bandit"]
    assert (default["tech"], default["will"]) == (11, 11)
    assert (printed["levels"][7]["tech"], printed["levels"][7]["will"]) == (1, 1)


def test_rules_package_imports_without_django() -> None:
    """ARCHITECTURE.md: campaign.rules is pure Python (the engine imports it anywhere)."""
    code = ("import sys, campaign.rules; "
            "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
            "print(','.join(bad)); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False, env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_of_campaign_rules_imports_django() -> None:
    """No `import django` / `from django` / `rest_framework` in campaign/rules/*.py."""
    for path in (ROOT / "campaign" / "rules").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert not name.startswith(("django", "rest_framework")), (path, name)


def test_rule_options_are_declared_as_campaign_options() -> None:
    """COMMON.md: per-campaign options are declared in campaign/options.py; the table
    readings R-TAB-1/R-TAB-2 must be offered there with the same default and choices."""
    from campaign.options import OPTIONS

    for key, (default, choices, ruling) in rules.RULE_OPTIONS.items():
        option = OPTIONS[key]
        assert option.default == default
        assert tuple(option.choices) == tuple(choices)
        assert option.ruling == ruling
