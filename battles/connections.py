"""The battles app's receivers on the hook points of the core and the apps below
(imported by `BattlesConfig.ready()`; docs/ARCHITECTURE.md, "Hook points")."""

from __future__ import annotations

from battles.models import Battle, BattleParticipant, BattleRecord
from battles.pages import battle_alerts, odds_context, troubled_battles
from battles.selectors import battle_names
from battles.services import unlimit3d8_effects
from battles.services.effects import effect_applied
from battles.services.export import battle_for_copy, export_sections
from battles.services.jobs import refuse_while_battles_unfinished, resend_restored
from battles.services.opening import open_battles
from battles.services.verify import verify_battles
from campaign.journal_labels import journal_names_found
from campaign.models import Phase
from campaign.pages.campaigns import dashboard_alerts
from campaign.pages.umpire import console_panel
from campaign.services.clock import phase_entered, phase_left
from campaign.services.commitments import dice_verified
from campaign.services.export import sections_exported
from campaign.services.imports import Table, import_tables
from campaign.services.rollback import rollback_restored
from campaign.services.sandbox import nothing, sandbox_rows
from orders.pages import OrdersSection, orders_page_section

dice_verified.connect(verify_battles, key="battle")
journal_names_found.connect(battle_names, key="battle")
sections_exported.connect(export_sections, key="battles")


@import_tables.connect
def tables() -> list[Table]:
    """The battles (60-69): after everything they name."""
    return [Table(60, "battles", Battle, rewrite=battle_for_copy),
            Table(61, "battle_participants", BattleParticipant),
            Table(62, "battle_records", BattleRecord)]


# A sandbox plays forward from a phase start: past battles stay in the original (their
# inputs hold other players' forces).
for _section in ("battles", "battle_participants", "battle_records"):
    sandbox_rows.connect(nothing, key=_section)
dashboard_alerts.connect(battle_alerts, order=20)
console_panel.connect(troubled_battles)


@orders_page_section.connect
def odds_section() -> OrdersSection:
    """The orders page shows the battle odds below the order form."""
    return OrdersSection("pages/_odds_section.html", odds_context)


# After the orders' reveal (order 10) has moved the units: open the battles.
phase_entered.connect(open_battles, key=Phase.TACTICAL, order=20)
# Before anything else leaves the tactical phase: every battle must be recorded.
phase_left.connect(refuse_while_battles_unfinished, key=Phase.TACTICAL, order=0)
rollback_restored.connect(resend_restored)

# Unlimit3d 8's effects, each kind reported under its summary key (`label`).
effect_applied.connect(unlimit3d8_effects.spend_missiles, key="missiles_spent",
                       label="missiles_fired")
effect_applied.connect(unlimit3d8_effects.move_cargo, key="cargo", label="cargo")
effect_applied.connect(unlimit3d8_effects.rob_laboratories, key="lab_piracy",
                       label="lab_piracies")
