"""Issue 16: every kind of journal entry the code writes has a human label (the history
page never shows a raw key like `battle_opened`)."""

from __future__ import annotations

import re
from pathlib import Path

from campaign.journal_labels import LABELS, label

ROOT = Path(__file__).resolve().parents[2]


def test_every_kind_the_code_records_has_a_label():
    kinds = set()
    for app in ("campaign", "territories", "economy", "orders", "battles"):
        for path in (ROOT / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for call in re.finditer(r"record_event\((.{0,400}?)\)", text, re.S):
                found = re.search(r'kind="([a-z_]+)"', call.group(1))
                if found:
                    kinds.add(found.group(1))
    assert len(kinds) > 20  # the scan finds the calls
    assert kinds - set(LABELS) == set()
    assert label("sandbox_created") == "Sandbox made"
