"""The battle replay: the engine's log folded into positions per engine turn and drawn
on the 32"x32" territorial map with its corridor (issue 7: "a turn-by-turn replay on
the territorial map")."""

from __future__ import annotations

import pytest

from battles.replay import board_svg
from battles.rulesets.base import Frame
from battles.rulesets.unlimit3d8.replay import board_of, frames


def battlefield_svg(frame: Frame, *, title: str, side_colors: dict[str, str],
                    unit_labels: dict[str, str], building_labels: dict[str, str]) -> str:
    """One frame of an Unlimit3d 8 battle on its 32"x32" map (its own board)."""
    return board_svg(board_of([frame]), frame, title=title, side_colors=side_colors,
                     unit_labels=unit_labels, building_labels=building_labels)

LOG = [
    {"turn": 0, "round": 0, "event": "deploy", "order": ["1", "2"],
     "units": {"9": [16.0, 20.0], "2": [12.0, -2.0], "6": [16.0, -2.0]},
     "buildings": {"4": [5.0, 5.0]}},
    {"turn": 1, "round": 1, "event": "action", "side": "1", "unit": 9, "to": [16.0, 16.0],
     "action": "Move"},
    {"turn": 1, "round": 1, "event": "move", "unit": 9, "to": [16.0, 16.0], "distance": 4.0,
     "cdt": 3},
    {"turn": 2, "round": 1, "event": "action", "side": "2", "unit": 2, "action": "Warp"},
    {"turn": 2, "round": 1, "event": "warp", "unit": 2, "to": [12.0, 10.0], "distance": 12,
     "cdt": 4},
    {"turn": 2, "round": 1, "event": "roll", "purpose": "warp", "success": False,
     "effects": ["no_warp"]},
    {"turn": 3, "round": 2, "event": "action", "side": "1", "unit": 9, "target": 6,
     "target_kind": "unit", "action": "Ram"},
    {"turn": 3, "round": 2, "event": "ram", "unit": 9, "target": 6, "distance": 6.0, "cdt": 5},
    {"turn": 3, "round": 2, "event": "damage", "target": 6, "destroyed": True, "hp_left": 0},
    {"turn": 4, "round": 2, "event": "action", "side": "2", "unit": 2, "target": 4,
     "target_kind": "building", "action": "RangedAttack"},
    {"turn": 4, "round": 2, "event": "ranged_attack", "unit": 2, "target": 4, "cdt": 4},
    {"turn": 4, "round": 2, "event": "damage", "building": 4, "destroyed": True},
    {"turn": 4, "round": 2, "event": "retreat", "unit": 2},
    {"turn": 4, "round": 2, "event": "end", "winner": "1", "reason": "side_eliminated"},
]
SIDES = {"9": "1", "2": "2", "6": "2"}


def test_deployment_is_the_first_frame() -> None:
    f = frames(LOG, SIDES)
    assert [x.turn for x in f] == [0, 1, 2, 3, 4]
    assert f[0].units["2"].pos == (12.0, -2.0) and f[0].units["2"].side == "2"
    assert f[0].buildings["4"].pos == (5.0, 5.0)


def test_a_move_carries_its_destination_and_draws_an_arrow() -> None:
    f = frames(LOG, SIDES)
    assert f[1].units["9"].pos == (16.0, 16.0)
    assert f[1].moves == [("9", (16.0, 20.0), (16.0, 16.0))]
    assert f[0].units["9"].pos == (16.0, 20.0), "earlier frames keep their positions"


def test_a_failed_warp_leaves_the_unit_where_it_was() -> None:
    f = frames(LOG, SIDES)
    assert f[2].units["2"].pos == (12.0, -2.0) and f[2].moves == []


def test_a_ram_runs_toward_its_target_and_destroys_it() -> None:
    f = frames(LOG, SIDES)
    x, y = f[3].units["9"].pos
    assert x == pytest.approx(16.0) and y == pytest.approx(10.0)
    assert f[3].units["6"].state == "destroyed"
    assert f[3].attacks, "the ram is drawn as an attack"


def test_a_building_target_and_a_retreat() -> None:
    f = frames(LOG, SIDES)
    assert f[4].buildings["4"].state == "destroyed"
    assert f[4].attacks == [((12.0, -2.0), (5.0, 5.0))]
    assert f[4].units["2"].state == "retreated"
    assert f[3].units["2"].state == "active"


def test_the_svg_is_labelled_and_flips_north_up() -> None:
    f = frames(LOG, SIDES)
    svg = battlefield_svg(f[1], title="Battle of Beta: turn 1",
                          side_colors={"1": "#123456", "2": "#654321"},
                          unit_labels={"9": "alice's golem #9"}, building_labels={})
    assert 'role="img"' in svg and "<title id=\"field-title\">Battle of Beta: turn 1" in svg
    assert "alice&apos;s golem #9" in svg or "alice's golem #9" in svg
    # unit 9 at (16, 16) inches -> (160, 160) SVG units; attackers in the south corridor
    # (y = -2) are drawn below the map (SVG y = 340).
    assert 'cx="160.0" cy="160.0"' in svg
    assert 'cy="340.0"' in svg
    assert svg.count("<title") >= 1 + 3 + 1


def test_the_acting_unit_and_its_target_stand_out_with_hit_points_left() -> None:
    """Issue 16: the acting unit and its target highlighted, damage shown on the map."""
    LOG2 = [*LOG[:7], {"turn": 3, "round": 2, "event": "ram", "unit": 9, "target": 6,
                       "distance": 6.0, "cdt": 5},
            {"turn": 3, "round": 2, "event": "damage", "target": 6, "destroyed": False,
             "hp_left": 7}]
    f = frames(LOG2, SIDES)
    assert (f[3].actors, f[3].targets) == ({"9"}, {"6"})
    assert f[3].units["6"].hp == 7 and f[2].units["6"].hp is None
    svg = battlefield_svg(f[3], title="t", side_colors={}, building_labels={},
                          unit_labels={"9": "alice's Golem", "6": "bob's Lycaon"})
    assert 'class="unit actor"' in svg and 'class="unit target"' in svg
    assert "bob&apos;s Lycaon · 7 HP" in svg or "bob's Lycaon · 7 HP" in svg


def test_an_empty_or_odd_log_gives_no_frames() -> None:
    assert frames([]) == []
    assert [x.turn for x in frames(["junk", {"turn": 1, "event": "pass", "side": "1"}])] == [1]


@pytest.mark.django_db
def test_the_report_page_steps_through_the_replay(web_client, played_campaign, alice) -> None:
    from battles.models import Battle

    battle = Battle.objects.get(campaign=played_campaign)
    assert battle.status == "finished"
    client = web_client(alice)
    url = f"/campaigns/{played_campaign.pk}/battles/{battle.pk}/"
    page = client.get(url).content.decode()
    assert 'class="battlefield"' in page and "Deployment" in page
    assert 'data-replay="next"' in page and 'data-replay="prev"' not in page
    last = max(e["turn"] for e in battle.log)
    step = client.get(url + f"?turn={last}", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in step and 'class="battlefield"' in step
    assert 'data-replay="next"' not in step and 'data-replay="prev"' in step
    assert "end" in step  # the last turn's log entry is listed beside the map
    assert client.get(url + "?turn=nonsense").status_code == 200
