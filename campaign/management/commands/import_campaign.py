"""`manage.py import_campaign FILE --umpire USERNAME`: recreate an exported campaign under
new ids (docs/export.schema.json); prints the new campaign's id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.errors import GameError
from campaign.services.imports import import_campaign


class Command(BaseCommand):
    help = "Import a campaign export document under new ids."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--umpire", required=True, help="the username of the copy's umpire")

    def handle(self, *args: Any, **options: Any) -> None:
        umpire = get_user_model().objects.filter(username=options["umpire"]).first()
        if umpire is None:
            raise CommandError(f"No user {options['umpire']!r}.")
        try:
            document = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
            campaign = import_campaign(document=document, umpire=umpire)
        except (OSError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        except GameError as exc:
            raise CommandError(str(exc.detail)) from exc
        self.stdout.write(str(campaign.pk))
