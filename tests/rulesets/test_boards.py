"""The board replay seam (issue 26, item 8): every ruleset folds a fought battle's stored
input and log into one neutral `Board` (the battlefield's shape, a frame per step, each
unit's position), without playing the battle again; the page draws any of them with one
drawer whose unit labels never overlap."""

from __future__ import annotations

import random
import re

import pytest

from battles.replay import _overlaps, _place, board_svg
from battles.rulesets.base import Board, Frame, Marker
from battles.rulesets.registry import find_ruleset
from campaign.rules.dice import Dice

RULESETS = ["unlimit3d8", "onepage", "battledice", "thirtymm", "mobius"]


def _fought(name: str, seed: int) -> tuple[object, dict, dict]:
    ruleset = find_ruleset(name)
    battle_input = ruleset.sample_battle(seed)
    outcome = ruleset.resolve(battle_input, Dice(random.Random(seed)))
    return ruleset, battle_input, ruleset.document(outcome)


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("seed", [1, 4])
def test_a_fought_battle_folds_into_a_frame_per_step_from_the_deployment(name, seed) -> None:
    ruleset, battle_input, result = _fought(name, seed)
    board = ruleset.board(battle_input, result, result["log"])
    assert isinstance(board, Board) and board.rounds == result["rounds"] > 0
    assert board.frames[0].turn == 0 and board.frames[0].moves == []
    fielded = {str(u["id"]) for units in battle_input["sides"].values() for u in units}
    assert set(board.frames[0].units) == fielded
    rounds = {f.round for f in board.frames[1:]}
    assert rounds == set(range(1, board.rounds + 1))
    if board.step == "round":  # one frame per round: as many as the battle lasted
        assert len(board.frames) == board.rounds + 1
    every = [e for f in board.frames for e in f.entries]
    assert every == [e for e in result["log"] if isinstance(e, dict)], "no entry lost"


@pytest.mark.parametrize("name", RULESETS)
def test_the_last_frame_agrees_with_the_outcome(name) -> None:
    ruleset, battle_input, result = _fought(name, 2)
    last = ruleset.board(battle_input, result, result["log"]).frames[-1]
    for fate in result["units"]:
        uid = str(fate.get("id", fate.get("unit")))
        if fate["fate"] == "destroyed" and uid in last.units:
            assert last.units[uid].state == "destroyed", (uid, fate)


@pytest.mark.parametrize("name", ["onepage", "battledice", "thirtymm", "mobius"])
def test_units_move_where_the_log_says_and_stay_on_the_board(name) -> None:
    ruleset, battle_input, result = _fought(name, 3)
    board = ruleset.board(battle_input, result, result["log"])
    moved = [m for f in board.frames for m in f.moves]
    assert moved, "the sample battles move"
    for f in board.frames:
        for m in f.units.values():
            assert -board.margin - 1e-6 <= m.pos[0] <= board.width + board.margin + 1e-6
    first, later = board.frames[0].units, board.frames[-1].units
    assert any(first[u].pos != later[u].pos for u in first)


@pytest.mark.parametrize("name", RULESETS)
def test_the_board_is_read_from_the_log_never_by_playing_again(name, monkeypatch) -> None:
    ruleset, battle_input, result = _fought(name, 5)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the replay fought the battle again")

    monkeypatch.setattr(type(ruleset), "resolve", refuse)
    a = ruleset.board(battle_input, result, result["log"])
    b = ruleset.board(battle_input, result, result["log"])
    assert [(f.turn, {k: m.pos for k, m in f.units.items()}) for f in a.frames] == \
        [(f.turn, {k: m.pos for k, m in f.units.items()}) for f in b.frames]


def test_labels_of_units_standing_together_are_placed_apart() -> None:
    placed: list = []
    bounds = (-40.0, -40.0, 360.0, 360.0)
    for i in range(8):  # eight units in the same spot
        _, _, box = _place(f"Heavy vehicles {i}", 160.0, 160.0, placed, [], bounds)
        assert not any(_overlaps(box, p) for p in placed)
        assert bounds[0] <= box[0] and box[2] <= bounds[2]
        placed.append(box)


def test_every_ruleset_is_drawn_by_the_one_drawer_with_its_grid() -> None:
    grids = {}
    for name in RULESETS:
        ruleset, battle_input, result = _fought(name, 1)
        board = ruleset.board(battle_input, result, result["log"])
        svg = board_svg(board, board.frames[1], title=f"{name} round 1", side_colors={},
                        unit_labels={}, building_labels={})
        assert 'class="battlefield"' in svg and 'role="img"' in svg
        assert svg.count('class="label"') >= 1
        grids[name] = re.search(r'data-grid="(\w+)"', svg).group(1)
    assert grids == {"unlimit3d8": "square", "onepage": "axis", "battledice": "hex",
                     "thirtymm": "hex", "mobius": "axis"}


def test_a_ruleset_without_a_board_draws_none() -> None:
    from tests.rulesets.coinflip import CoinFlip

    assert CoinFlip().board({}, {}, []) is None
    frame = Frame(turn=0, round=0, side="", units={"1": Marker("1", (1.0, 1.0), "1")},
                  buildings={})
    board = Board(width=4.0, height=4.0, frames=[frame], rounds=0)
    assert "unit 1" in board_svg(board, frame, title="t", side_colors={}, unit_labels={},
                                 building_labels={})
