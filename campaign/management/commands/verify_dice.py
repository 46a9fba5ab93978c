"""`manage.py verify_dice CAMPAIGN [--turn N --phase P]`: recompute every roll of every
finished phase (or one) from its revealed seed; exits 1 on any mismatch."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.models import Campaign, PhaseSeed
from campaign.services.commitments import verify_phase


class Command(BaseCommand):
    help = "Recompute the dice of a campaign's finished phases from their revealed seeds."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", type=int)
        parser.add_argument("--turn", type=int)
        parser.add_argument("--phase")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(pk=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"No campaign {options['campaign']}.")
        seeds = PhaseSeed.objects.filter(campaign=campaign, revealed_at__isnull=False)
        if options.get("turn") is not None:
            seeds = seeds.filter(turn=options["turn"])
        if options.get("phase"):
            seeds = seeds.filter(phase=options["phase"])
        bad = 0
        for seed in seeds:
            report = verify_phase(campaign, seed.turn, seed.phase)
            status = "verified" if report["verified"] else "MISMATCH"
            self.stdout.write(f"turn {seed.turn} {seed.phase}: {status}, "
                              f"{report['rolls']} dice")
            for m in report["mismatches"]:
                self.stdout.write(f"  {m}")
            bad += not report["verified"]
        if bad:
            raise CommandError(f"{bad} phase(s) do not verify.")
