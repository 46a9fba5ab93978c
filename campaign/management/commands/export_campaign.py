"""`manage.py export_campaign CAMPAIGN [--output FILE]`: the whole campaign as one JSON
document (docs/export.schema.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.models import Campaign
from campaign.services.export import export_campaign


class Command(BaseCommand):
    help = "Export a campaign as one versioned JSON document."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", type=int)
        parser.add_argument("--output", help="a file (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(pk=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"No campaign {options['campaign']}.")
        text = json.dumps(export_campaign(campaign), indent=1, sort_keys=True)
        if options.get("output"):
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
        else:
            self.stdout.write(text)
