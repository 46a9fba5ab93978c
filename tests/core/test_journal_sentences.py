"""Issue 26: every kind of journal entry reads as a sentence with the names players know
(one table, `campaign.journal_labels.SENTENCES`), never as ids or `key: value` pairs."""

from __future__ import annotations

import re
from pathlib import Path

from campaign.journal_labels import LABELS, SENTENCES, Names, dice_text, sentence
from tests.pages.test_readable_text import debug_text

ROOT = Path(__file__).resolve().parents[2]
#: the shapes the code writes kinds in: record_event/record_private(kind="..."),
#: Entry(kind="..."), the clock's _clock_event(c, "...") and (player, "...", data) rows
WRITES = (r'record_(?:event|private)\((?:.{0,200}?)kind="([a-z_]+)"',
          r'Entry\(\s*kind="([a-z_]+)"', r'_clock_event\(\w+, "([a-z_]+)"',
          r'append\(\(player, "([a-z_]+)"', r'kind = "(trade_[a-z]+)"')


def _recorded_kinds() -> set[str]:
    kinds: set[str] = set()
    for app in ("campaign", "territories", "economy", "orders", "battles"):
        for path in (ROOT / app).rglob("*.py"):
            if "rulesets" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            for pattern in WRITES:
                kinds |= set(re.findall(pattern, text, re.S))
    return kinds


def test_every_kind_the_code_records_has_a_sentence() -> None:
    kinds = _recorded_kinds()
    assert {"purchase", "production", "battle_result", "clock_paused"} <= kinds
    assert kinds - set(SENTENCES) == set()
    assert set(SENTENCES) <= set(LABELS)


NAMES = Names(of={"player": {11: "alice", 12: "bob"}, "territory": {21: "Kepler"},
                  "unit": {4191604156651550: "bob's Golem"}, "pilot": {31: "Vex"},
                  "battle": {41: "the battle of Kepler"}})


def test_sentences_name_players_places_and_units() -> None:
    assert sentence("purchase", {"territory": 21, "item": "Golem", "cost": 400}, NAMES,
                    actor="alice") == "alice buys a Golem at Kepler for 400 SC."
    assert sentence("battle_order", {"first_picker": 12}, NAMES) == \
        "The lot is drawn: bob picks the first battle."
    assert sentence("repair", {"unit": 4191604156651550, "cost": 30}, NAMES,
                    actor="bob") == "bob repairs bob's Golem for 30 SC."
    assert sentence("xp_awarded", {"operative": 31, "xp": 2, "battle": 41,
                                   "level_up": {"from": 1, "to": 2}}, NAMES) == \
        "Vex gains 2 XP in the battle of Kepler and reaches level 2."
    assert sentence("territory_taken", {"territory": 99, "player": 11}, NAMES) == \
        "alice takes a territory (unopposed)."


def test_no_kind_shows_an_id_or_a_debug_pair_whatever_its_data() -> None:
    """Every data key the journal writes, filled with an id nobody can name."""
    unknown = 8888888888888888
    data = dict.fromkeys((
        "player", "winner", "defender", "first_picker", "from_player", "to_player",
        "grantor", "grantee", "territory", "unit", "from_unit", "to_unit", "pilot",
        "operative", "building", "battle", "artifact", "laboratory", "trade", "shipment"),
        unknown)
    data.update({"turn": 3, "phase": "move", "xp": 2, "attempts": 2, "players": 2,
                 "cost": 400, "credits": 200,
                 "lines": [{"kind": "mined", "territory": unknown, "produced": 3,
                            "resource": "minerals"}],
                 "missed": [{"player": unknown, "missed_turns": 2}],
                 "announcements": [{"territory": unknown,
                                    "player": unknown}]})
    for kind in LABELS:
        text = sentence(kind, data, NAMES, actor="alice")
        assert text and not debug_text(text), (kind, text)


def test_an_entry_of_a_kind_no_code_writes_reads_as_its_label_and_prose() -> None:
    assert sentence("note", {"detail": "PUBLIC-NEWS", "player": 11}, NAMES) == \
        "Note. PUBLIC-NEWS"


def test_dice_fold_apart_from_the_sentence() -> None:
    data = {"dice": {"active": 7, "passive": 5, "nemesis": 8, "total": 20}}
    assert dice_text(data) == "Dice: active 7, passive 5, nemesis 8 (total 20)"
    assert dice_text({}) == ""
