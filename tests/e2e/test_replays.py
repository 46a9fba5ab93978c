"""Battle replays for all five rulesets (issue 26, item 8): a finished battle of each
ruleset shows a board replay on its page that steps through its frames, at a desktop
and a phone width; no two unit labels overlap on any frame (their boxes measured in
the browser); the number of rounds (turns) the page states is the number the replay
steps through, and the one the battle's result records."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.e2e.test_two_player_turn import _login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULESETS = ["unlimit3d8", "onepage", "battledice", "thirtymm", "mobius"]
VIEWPORTS = {"desktop": (1366, 800), "phone": (390, 844)}
DUEL_MAP = {"nodes": ["Alpha", "Beta"], "edges": [["Alpha", "Beta"]]}
FACTIONS = {"mobius": ("kingdom_of_acorn", "eggman_empire")}

#: Pairs of unit labels whose boxes overlap (more than half a pixel), and how many labels.
OVERLAPS = """() => {
  const boxes = Array.from(document.querySelectorAll('#replay svg.battlefield text.label'))
    .map(t => [t.textContent, t.getBoundingClientRect()]);
  const bad = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [na, a] = boxes[i], [nb, b] = boxes[j];
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
        a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) bad.push(na + ' / ' + nb);
  }
  return {labels: boxes.length, overlapping: bad};
}"""


def _remap(value: Any, sides: dict[str, str], key: str = "") -> Any:
    """The ruleset's sample battle (sides "1" and "2") with the campaign's player ids."""
    if isinstance(value, dict):
        return {sides.get(k, k): _remap(v, sides, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_remap(v, sides, key) for v in value]
    if key in ("defender", "side", "order", "winner") and isinstance(value, str):
        return sides.get(value, value)
    return value


def _finished_battle(make_campaign, uma, alice, bob, ruleset_name: str) -> Any:
    """A campaign of `ruleset_name` with alice and bob seated and one battle between them
    fought by the ruleset's engine (its sample armies, seeded dice) and stored finished."""
    from battles.models import Battle
    from battles.rulesets.registry import find_ruleset
    from campaign.rules.dice import Dice
    from campaign.services.campaigns import campaign_join
    from territories.models import Territory

    campaign = make_campaign(uma, name=f"{ruleset_name} replays", map_spec=DUEL_MAP,
                             options={"ruleset": ruleset_name})
    faction_a, faction_b = FACTIONS.get(ruleset_name, (None, None))
    a = campaign_join(campaign_id=campaign.pk, user=alice, invite=campaign.invite_code,
                      faction=faction_a)
    b = campaign_join(campaign_id=campaign.pk, user=bob, invite=campaign.invite_code,
                      faction=faction_b)
    ruleset = find_ruleset(ruleset_name)
    sides = {"1": str(a.pk), "2": str(b.pk)}
    battle_input = _remap(ruleset.sample_battle(5), sides)
    outcome = ruleset.resolve(battle_input, Dice(random.Random(5)))
    result = ruleset.document(outcome)
    territory = Territory.objects.filter(campaign=campaign).order_by("pk").first()
    return Battle.objects.create(
        campaign=campaign, turn=1, territory=territory, status=Battle.Status.FINISHED,
        sides=[{"player": a.pk, "role": "attacker"}, {"player": b.pk, "role": "defender"}],
        defender=b, seed=5, ruleset_name=ruleset_name,
        winner_id=outcome.winner, input=battle_input, result=result,
        log=list(result.get("log") or outcome.log))


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("ruleset_name", RULESETS)
def test_a_finished_battle_replays_on_its_board_with_labels_apart_and_counts_that_agree(
        browser, live_server, shoot, make_campaign, uma, alice, bob, ruleset_name: str,
        viewport: str) -> None:
    battle = _finished_battle(make_campaign, uma, alice, bob, ruleset_name)
    width, height = VIEWPORTS[viewport]
    page = _login(browser, live_server.url, "alice", width=width)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/campaigns/{battle.campaign_id}/battles/{battle.pk}/")

    board = page.locator("#replay svg.battlefield")
    assert board.is_visible(), f"{ruleset_name}: no board replay on the battle's page"
    stated = int(page.locator("#replay [data-rounds]").get_attribute("data-rounds"))
    assert stated == battle.result["rounds"] > 0
    word = "Round" if ruleset_name in ("unlimit3d8", "thirtymm", "mobius") else "Turn"
    assert re.search(rf"lasted {stated} {word.lower()}s?\b",
                     page.locator("#replay .replay-count").inner_text())

    headings, pictures, rounds_seen = [], [], set()
    while True:
        heading = page.locator("[data-replay-heading]").inner_text()
        headings.append(heading)
        pictures.append(board.inner_html())
        labels = page.evaluate(OVERLAPS)
        assert labels["labels"] > 0 or heading != "Deployment", "the units are labelled"
        assert not labels["overlapping"], f"{ruleset_name} {heading}: {labels}"
        if heading != "Deployment":
            found = re.match(rf"{word} (\d+) of (\d+)", heading)
            assert found, heading
            assert int(found.group(2)) == stated
            rounds_seen.add(int(found.group(1)))
        step = page.locator("[data-replay=next]")
        if step.count() == 0:
            break
        if len(headings) == 2:
            shoot(page, f"60-replay-{ruleset_name}-{viewport}")
        step.click()
        page.wait_for_function(
            "h => document.querySelector('[data-replay-heading]').innerText !== h", arg=heading)
        board = page.locator("#replay svg.battlefield")

    assert headings[0] == "Deployment"
    assert rounds_seen == set(range(1, stated + 1)), (stated, headings)
    assert len(set(pictures)) > 2, "the frames differ: units move, attack, fall"
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_browser_moves_apart_labels_its_own_font_makes_touch(
        browser, live_server, make_campaign, uma, alice, bob) -> None:
    """The server's placement is an estimate of the text's width; with a wider font two
    labels could touch, and the page's script measures and moves them apart."""
    battle = _finished_battle(make_campaign, uma, alice, bob, "battledice")
    page = _login(browser, live_server.url, "alice", width=1366)
    page.goto(f"{live_server.url}/campaigns/{battle.campaign_id}/battles/{battle.pk}/")
    page.evaluate("""() => {  // a wider font than the estimate, and two labels together
      const labels = document.querySelectorAll('#replay svg.battlefield text.label');
      labels.forEach(t => t.setAttribute('font-size', '14'));
      labels[1].setAttribute('x', labels[0].getAttribute('x'));
      labels[1].setAttribute('y', labels[0].getAttribute('y'));
    }""")
    assert page.evaluate(OVERLAPS)["overlapping"], "the labels were made to touch"
    page.evaluate("document.dispatchEvent(new Event('htmx:afterSwap'))")
    assert page.evaluate(OVERLAPS)["overlapping"] == []
