"""`manage.py demo`: load a demo league of four bot players who have played a few turns."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from battles.demo import DEMO_PASSWORD, PLAYERS, UMPIRE, play_demo_league
from campaign.models import Campaign


class Command(BaseCommand):
    help = "Create a demo league (umpire + four players) and let bots play N turns."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--turns", type=int, default=3)
        parser.add_argument("--seed", type=int, default=8)
        parser.add_argument("--territories", type=int, default=24)
        parser.add_argument("--if-empty", action="store_true",
                            help="Do nothing if the database already holds a campaign.")

    def handle(self, *args, turns: int, seed: int, territories: int, if_empty: bool,
               **options) -> None:
        if if_empty and Campaign.objects.exists():
            self.stdout.write("The database already holds campaigns; no demo loaded.")
        else:
            report = play_demo_league(turns=turns, seed=seed, territories=territories)
            campaign = report.campaign
            self.stdout.write(self.style.SUCCESS(
                f"Demo league '{campaign.name}' (id {campaign.pk}) is at turn {campaign.turn}, "
                f"{campaign.phase} phase; {campaign.battles.count()} battle(s) fought."
            ))
        self.stdout.write(
            f"Demo logins (password '{DEMO_PASSWORD}'): umpire '{UMPIRE}', "
            f"players {', '.join(repr(p) for p in PLAYERS)}. Open http://127.0.0.1:8000/"
        )
