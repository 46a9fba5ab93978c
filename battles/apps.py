from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from django.apps import AppConfig

if TYPE_CHECKING:
    from battles.rulesets.base import Ruleset


class BattlesConfig(AppConfig):
    """Battle records, the Celery jobs that run them, and the recording of results."""

    name = "battles"

    def ready(self) -> None:
        """Tell the core which tactical rulesets this site offers (the core imports no
        other app; it reads them from `campaign.rulesets`)."""
        from battles.pages import battle_alerts, troubled_battles
        from battles.rulesets.registry import all_rulesets
        from battles.services import unlimit3d8_effects  # noqa: F401 (registers handlers)
        from battles.services.jobs import refuse_while_battles_unfinished, resend_restored
        from battles.services.opening import open_battles
        from battles.services.verify import verify_battles
        from campaign.models import Phase
        from campaign.pages.campaigns import register_dashboard_alerts
        from campaign.pages.umpire import register_console_panel
        from campaign.services.clock import register_phase_hook
        from campaign.services.commitments import register_verifier

        register_verifier("battle", verify_battles)

        from battles.selectors import battle_names
        from campaign.journal_labels import register_names

        register_names("battle", battle_names)

        from battles.services.export import export_sections
        from campaign.services.export import register_exporter

        register_exporter("battles", export_sections)

        from battles.models import Battle, BattleParticipant, BattleRecord
        from battles.services.export import battle_for_copy
        from campaign.services.imports import Table, register_table

        register_table(Table(60, "battles", Battle, rewrite=battle_for_copy))
        for order, section, model in ((61, "battle_participants", BattleParticipant),
                                      (62, "battle_records", BattleRecord)):
            register_table(Table(order, section, model))
        from campaign.services.sandbox import nothing, register_sandbox_filter

        # A sandbox plays forward from a phase start: past battles stay in the original
        # (their inputs hold other players' forces).
        for section in ("battles", "battle_participants", "battle_records"):
            register_sandbox_filter(section, nothing)
        register_dashboard_alerts(battle_alerts, order=20)
        register_console_panel(troubled_battles)
        from battles.pages import odds_context
        from orders.pages import OrdersSection, register_orders_section

        # The orders page shows the battle odds below the order form.
        register_orders_section(OrdersSection("pages/_odds_section.html", odds_context))
        # After the orders' reveal (order 10) has moved the units: open the battles.
        register_phase_hook("enter", Phase.TACTICAL, open_battles, order=20)
        # Before anything else leaves the tactical phase: every battle must be recorded.
        register_phase_hook("leave", Phase.TACTICAL, refuse_while_battles_unfinished,
                            order=0)
        from campaign.services.rollback import register_restored_hook

        register_restored_hook(resend_restored)

        from django.conf import settings

        from battles.rulesets.registry import add_path

        for name, path in getattr(settings, "EXTRA_RULESETS", {}).items():
            add_path(name, path)
        for ruleset in all_rulesets():
            offer(ruleset)


def _catalogue(ruleset: Ruleset, faction: str | None,
               options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    return [e.to_dict() for e in ruleset.catalogue(faction=faction, options=options)]


def offer(ruleset: Ruleset) -> None:
    """Tell the core about one tactical ruleset (name, title, tables, catalogue, its own
    options, what a player buys, how a bought unit starts and what repairing it costs)."""
    from battles.rulesets.base import option_defaults
    from campaign import rulesets

    rulesets.register(rulesets.RulesetInfo(
        name=ruleset.name, title=ruleset.title, version=ruleset.version,
        seed=ruleset.seed_file, dice=tuple(ruleset.dice), factions=tuple(ruleset.factions),
        tables=ruleset.tables,
        catalogue=partial(_catalogue, ruleset),
        options=option_defaults(ruleset.option_specs),
        initial_state=ruleset.initial_state, repair=ruleset.repair,
        check_options=ruleset.check_options, name_lists=ruleset.name_lists,
        option_specs=tuple(ruleset.option_specs),
        purchase_kinds=tuple(ruleset.purchase_kinds), repairs=ruleset.repairs))
