"""A two-player turn in a real browser: the umpire creates and starts a campaign, two
players join; alice builds, activates, buys and crews a unit and seals a move order
into bob's territory; the umpire advances to the tactical phase; the battle report
appears. Screenshots of the main pages go to artifacts/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _login(browser: Any, base: str, username: str, *, width: int = 1280) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    # Irreversible actions ask first (data-confirm): the person answers yes.
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    return page


def _advance(umpire: Any, base: str, cid: int, expect_phase: str) -> None:
    umpire.goto(f"{base}/campaigns/{cid}/umpire/")
    umpire.get_by_role("button", name="Advance to the next phase").click()
    umpire.wait_for_load_state()
    assert f"{expect_phase} phase" in umpire.locator("main").inner_text()


def _buy(page: Any, form_button: str, select_label: str, value: str) -> None:
    form = page.locator("form", has=page.get_by_role("button", name=form_button))
    form.get_by_label(select_label).select_option(value)
    form.get_by_role("button", name=form_button).click()
    page.wait_for_load_state()


def test_two_player_turn(browser, live_server, shoot, uma, alice, bob) -> None:
    from campaign.models import Campaign
    from economy.models import Building, Unit
    from territories.models import Territory

    base = live_server.url

    # --- the umpire creates a campaign on a two-territory hex map
    umpire = _login(browser, base, "uma")
    umpire.get_by_role("link", name="Create a campaign").click()
    umpire.get_by_label("Campaign name").fill("Browser league")
    umpire.get_by_label("Meta-map").select_option("hex")
    umpire.get_by_label("Number of territories").fill("2")
    umpire.get_by_label("Seed").fill("1")  # the map and dice the test was written for
    umpire.get_by_role("button", name="Create campaign").click()
    umpire.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    cid = Campaign.objects.get(name="Browser league").pk
    shoot(umpire, "01-setup-dashboard")

    # --- two players join by the invitation link
    # the invitation link the umpire reads on the dashboard carries the invite code
    umpire_invite = umpire.locator("code", has_text="/join/").first.inner_text()
    assert "invite=" in umpire_invite
    players = {}
    for name in ("alice", "bob"):
        page = _login(browser, base, name)
        page.goto(umpire_invite)
        page.get_by_role("button", name="Take a seat").click()
        page.wait_for_url(f"{base}/campaigns/{cid}/")
        players[name] = page
    a, b = players["alice"], players["bob"]

    umpire.goto(f"{base}/campaigns/{cid}/")
    umpire.get_by_role("button", name="Start the campaign").click()
    umpire.wait_for_load_state()
    assert "Commercial" in umpire.locator("main").inner_text()

    home = Territory.objects.get(campaign_id=cid, owner__user=alice)
    target = Territory.objects.get(campaign_id=cid, owner__user=bob)

    # --- alice: dashboard and map
    a.goto(f"{base}/campaigns/{cid}/")
    assert "1000 SC" in a.locator("main").inner_text()
    shoot(a, "02-dashboard")
    a.get_by_role("link", name="Map", exact=True).click()
    a.wait_for_url(f"{base}/campaigns/{cid}/map/")
    shoot(a, "03-meta-map")

    # --- build a warehouse on a free square of her territory
    a.goto(f"{base}/campaigns/{cid}/territories/{home.pk}/")
    taken = set(Building.objects.filter(territory=home).values_list("x", "y"))
    x, y = next((x, y) for y in range(15, -1, -1) for x in range(16) if (x, y) not in taken)
    a.locator("#kind").select_option("warehouse")
    # building by clicking (issue 17): the free square is picked on the territorial map
    grid = a.locator("[data-pick-square] svg").bounding_box()
    a.mouse.click(grid["x"] + (x + 0.5) * grid["width"] / 16,
                  grid["y"] + (y + 0.5) * grid["height"] / 16)
    assert (a.locator("#bx").input_value(), a.locator("#by").input_value()) == (str(x), str(y))
    a.get_by_role("button", name="Build", exact=True).click()
    a.wait_for_load_state()
    assert "Warehouse built" in a.locator(".messages").inner_text()
    shoot(a, "04-territory")

    # --- economy: the weapon builder prices templates live and refuses illegal ones
    a.goto(f"{base}/campaigns/{cid}/economy/")
    price = a.locator("#price")
    assert "8 SC" in price.inner_text()
    a.get_by_label("Heavy").check()
    a.wait_for_function("document.querySelector('#price').innerText.includes('12 SC')")
    a.get_by_label("Light", exact=True).check()
    a.wait_for_function("document.querySelector('#price').innerText.includes('Not allowed')")
    a.get_by_label("Light", exact=True).uncheck()
    a.wait_for_function("document.querySelector('#price').innerText.includes('12 SC')")
    shoot(a, "05-economy")
    _buy(a, "Buy vehicle", "Model", "golem")
    _buy(a, "Hire", "Class", "soldier")
    assert Unit.objects.filter(player__user=alice).count() == 1

    # bob defends his territory with his own crewed Golem
    b.goto(f"{base}/campaigns/{cid}/economy/")
    _buy(b, "Buy vehicle", "Model", "golem")
    _buy(b, "Hire", "Class", "soldier")

    # --- activity phase: activate with the live energy budget, crew the unit
    _advance(umpire, base, cid, "Activity")
    a.goto(f"{base}/campaigns/{cid}/territories/{home.pk}/")
    energy_before = a.locator("#energy").inner_text()
    first_box = a.locator("label", has_not_text="— 0 energy").locator(
        "input[name=active]").first
    first_box.set_checked(not first_box.is_checked())
    a.wait_for_function(f"document.querySelector('#energy').innerText !== {energy_before!r}")
    first_box.set_checked(not first_box.is_checked())
    a.get_by_role("button", name="Save activation").click()
    a.wait_for_load_state()
    assert "Activation saved" in a.locator(".messages").inner_text()

    for page in (a, b):
        page.goto(f"{base}/campaigns/{cid}/forces/")
        page.locator("select[name=pilot]").first.select_option(index=1)
        page.get_by_role("button", name="Crew").first.click()
        page.wait_for_load_state()
        assert "Unit updated" in page.locator(".messages").inner_text()
    shoot(a, "06-forces")

    # --- move phase: a sealed order into bob's territory
    _advance(umpire, base, cid, "Move")
    a.goto(f"{base}/campaigns/{cid}/orders/")
    a.get_by_role("link", name="Choose destination").first.click()
    a.locator("#order-form").wait_for()
    # orders by clicking (issue 17): the destination is picked on the map
    a.locator(f'[data-pick-destination] a[data-territory="{target.pk}"] circle').click()
    assert a.get_by_label(target.name).is_checked()
    assert a.url.endswith("/orders/") or "unit=" in a.url  # the click did not navigate
    shoot(a, "07-orders")
    a.get_by_role("button", name="Seal order").click()
    a.wait_for_load_state()
    assert "sealed" in a.locator("main").inner_text()
    # a sealed battle plan (issue 29) for the territory the order goes to
    plans = a.locator("section.plans")
    plans.get_by_label("For the battle at").select_option(label=target.name)
    plans.get_by_label("Attack: close in and fight").check()
    plans.get_by_label("Withdraw", exact=True).select_option(label="After losing half")
    plans.get_by_label("Shoot first at").select_option(label="The weakest enemy")
    plans.get_by_role("button", name="Seal this plan").click()
    a.wait_for_load_state()
    assert f"Plan for {target.name} sealed" in a.locator(".messages").inner_text()
    assert "withdraw after losing 50% of the force" in a.locator("section.plans").inner_text()
    shoot(a, "07b-battle-plan")
    b.goto(f"{base}/campaigns/{cid}/orders/")
    assert "Seal order" not in b.content()
    assert "50% of the force" not in b.content()  # sealed: bob never sees alice's plan
    # the battle plan form on a phone: there, every field reachable, nothing sideways
    bob_phone = _login(browser, base, "bob", width=390)
    bob_phone.goto(f"{base}/campaigns/{cid}/orders/")
    phone_plans = bob_phone.locator("section.plans")
    for field in ("For the battle at", "Shoot first at"):
        assert phone_plans.get_by_label(field).is_visible()
    assert phone_plans.get_by_role("button", name="Seal this plan").is_visible()
    assert "50% of the force" not in bob_phone.content()
    width = bob_phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the orders page scrolls sideways on a phone ({width}px)"
    shoot(bob_phone, "07c-battle-plan-phone")
    bob_phone.context.close()

    # --- the umpire opens the tactical phase: the battle is resolved by the engine
    _advance(umpire, base, cid, "Tactical")
    shoot(umpire, "08-umpire-console")
    a.goto(f"{base}/campaigns/{cid}/battles/")
    a.get_by_role("link", name="Battle report").first.click()
    a.get_by_role("heading", name=re.compile("Replay, turn by turn")).wait_for(timeout=30_000)
    assert "dice and action log" in a.locator("main").inner_text()
    assert a.locator("svg.battlefield").count() == 1
    assert "Deployment" in a.locator("#replay").inner_text()
    assert "alice planned to attack, the weakest enemy first, withdrawing at 50% losses" \
        in a.locator(".narrative").inner_text()
    shoot(a, "09-battle-report")

    # --- the replay steps turn by turn on the territorial map (htmx, no reload)
    for step in (2, 3):  # each click waits for its step: htmx swaps the controls
        a.locator("[data-replay=next]").click()
        a.wait_for_function("document.querySelector('.replay-pos').textContent"
                            f".includes('step {step} of')")
    assert a.locator("svg.battlefield g.unit").count() >= 1
    a.locator("#replay").scroll_into_view_if_needed()
    shoot(a, "09b-battle-replay")
    # the arrow keys step the replay too (issue 16)
    a.keyboard.press("ArrowLeft")
    a.wait_for_function("document.querySelector('.replay-pos').textContent"
                        ".includes('step 2 of')")
    a.locator("[data-replay=last]").click()
    a.wait_for_function("!document.querySelector('[data-replay=next]')")
    assert "end" in a.locator(".replay-log").inner_text()

    # --- the umpire closes the turn: the history charts gain turn 1
    _advance(umpire, base, cid, "Commercial")
    a.goto(f"{base}/campaigns/{cid}/history/")
    charts = a.locator("section[aria-labelledby=charts-h]")
    assert charts.locator("svg[role=img]").count() == 3
    assert "Turn 1" in charts.inner_text()
    shoot(a, "10-history")
    umpire.goto(f"{base}/campaigns/{cid}/history/")
    shoot(umpire, "10b-history-umpire")

    # --- the dashboard on a phone
    phone = _login(browser, base, "bob", width=390)
    phone.goto(f"{base}/campaigns/{cid}/")
    shoot(phone, "11-dashboard-phone")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the dashboard scrolls sideways on a phone ({width}px)"
