"""The core's own receivers on its hook points (imported by `CoreConfig.ready()`); the
apps connect theirs in their own `connections.py`. See docs/ARCHITECTURE.md, "Hook
points"."""

from __future__ import annotations

from campaign.models import PHASE_ORDER, Event, Phase, PhaseChange
from campaign.pages.campaigns import dashboard_alerts
from campaign.pages.claims import claim_alerts, claim_codes_panel
from campaign.pages.umpire import console_panel
from campaign.services import absence, notifications, snapshots
from campaign.services.clock import phase_entered, phase_left
from campaign.services.imports import Table, import_tables
from campaign.services.sandbox import journal_visible, public, sandbox_rows

# The clock: the results notice and the turn's snapshot as the tactical phase closes;
# on every phase the record of deadlines met and missed, and the stand-in's seats.
phase_left.connect(notifications.results_in, key=Phase.TACTICAL, order=10)
phase_left.connect(snapshots.snapshot_turn, key=Phase.TACTICAL, order=20)
for _phase in PHASE_ORDER:
    phase_left.connect(absence.record_deadlines, key=_phase, order=50)
    phase_entered.connect(absence.stand_in_plays, key=_phase, order=90)


@import_tables.connect
def core_tables() -> list[Table]:
    """The core's tables, after the map (10-19) and the holdings (20-39)."""
    return [Table(5, "phases", PhaseChange), Table(50, "journal", Event)]


sandbox_rows.connect(public, key="phases")
sandbox_rows.connect(journal_visible, key="journal")

console_panel.connect(claim_codes_panel, order=90)  # after the apps' panels, as it was
dashboard_alerts.connect(claim_alerts, order=5)
