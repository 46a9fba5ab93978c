"""The one hook kind (issue 31.3): order, keys, connecting twice, and every hook point
the apps call has the receivers the architecture page lists."""

from __future__ import annotations

from campaign.hooks import Hook


def test_receivers_run_by_order_then_as_connected_and_a_second_connect_keeps_one():
    hook: Hook[[int], str] = Hook("test", "A test hook.")

    def late(n: int) -> str:
        return f"late {n}"

    def first(n: int) -> str:
        return f"first {n}"

    def second(n: int) -> str:
        return f"second {n}"

    hook.connect(late, order=90)
    hook.connect(first)
    hook.connect(second)
    hook.connect(first)  # ready() run twice
    assert hook.call(1) == ["first 1", "second 1", "late 1"]
    assert hook.receivers() == [first, second, late]


def test_keys_pick_receivers_and_the_decorator_returns_the_function():
    hook: Hook[[], int] = Hook("test", "A test hook.")

    @hook.connect(key="a", label="the a")
    def one() -> int:
        return 1

    hook.connect(one, key="b", order=0)
    assert one() == 1
    assert hook.by_key("a") == [one] and hook.one("b") is one and hook.one("c") is None
    assert hook.keys() == ["b", "a"]
    assert [c.label for c in hook.connections("a")] == ["the a"]
    hook.disconnect(one, key="b")
    assert hook.keys() == ["a"]


def test_the_apps_connect_what_the_core_calls():
    from campaign.journal_labels import journal_names_found
    from campaign.models import Phase
    from campaign.services.clock import phase_entered
    from campaign.services.imports import registered_tables
    from campaign.services.sandbox import sandbox_rows
    from orders.pages import orders_page_section
    from territories.services.movement import stations_found

    assert [c.name for c in phase_entered.connections(Phase.TACTICAL)] == [
        "orders.services.reveal.reveal_and_move", "battles.services.opening.open_battles",
        "campaign.services.absence.stand_in_plays"]
    assert set(journal_names_found.keys()) == {"territory", "unit", "pilot", "building",
                                                "battle"}
    tables = registered_tables()
    assert list(tables)[:2] == ["phases", "territories"] and "battle_records" in tables
    assert [t.order for t in tables.values()] == sorted(t.order for t in tables.values())
    assert set(sandbox_rows.keys()) <= set(tables)
    assert [s.template for s in orders_page_section.call()] == ["pages/_odds_section.html"]
    assert [f.__name__ for f in stations_found.receivers()] == ["territories_with_station"]
