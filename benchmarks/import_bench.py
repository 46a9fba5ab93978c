"""Benchmark (not a test): export and import a 5,000-territory, 20-player campaign
through the API (issue 30.3: the import took 25.5 s of a web worker, row by row; issue
32.6 keeps the goals).

    DATABASE_URL=... .venv/bin/python benchmarks/import_bench.py [--territories N]
        [--players P] [--turns T] [--units U]

The campaign is a league in play, not a fresh start: started, advanced by the umpire
through T whole turns (the journal, phase changes, dice and production of real phases),
then given U units a player (each with its pilot and a weapon) spread over the player's
territories, so the export carries units, operatives, weapons, buildings and a journal.
It prints the number of rows of each section of the export.

    TARGET import_5000: <seconds of POST /api/campaigns/import/> (goal 5 s, floor 10 s)
    TARGET export_5000: <seconds of GET /api/campaigns/{id}/export/> (goal 2 s, floor 4 s)

It creates its own users and campaigns and deletes them afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")

IMPORT_GOAL, IMPORT_FLOOR = 5.0, 10.0
EXPORT_GOAL, EXPORT_FLOOR = 2.0, 4.0


def main() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.test import APIClient

    from campaign.models import Campaign
    from campaign.services.campaigns import campaign_create, campaign_join
    from campaign.services.setup import campaign_start

    parser = argparse.ArgumentParser()
    parser.add_argument("--territories", type=int, default=5000)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--units", type=int, default=10)
    args = parser.parse_args()
    settings.ALLOWED_HOSTS = ["*"]

    User = get_user_model()
    tag = f"ibench{int(time.time())}"
    users = [User(username=f"{tag}_{i}") for i in range(args.players + 1)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith=tag).order_by("username"))
    umpire, players = users[0], users[1:]
    campaign = campaign_create(umpire=umpire, name=tag, map_spec={
        "generator": "random", "territories": args.territories, "seed": 2024})
    for user in players:
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    t = time.perf_counter()
    _play(campaign, turns=args.turns, units=args.units)
    print(f"league played for {args.turns} turns in {time.perf_counter() - t:.1f} s")

    api = APIClient()
    api.force_authenticate(umpire)
    print(f"database: {connection.vendor}; {args.territories} territories, "
          f"{args.players} players")
    t0, c0 = time.perf_counter(), time.process_time()
    exported = api.get(f"/api/campaigns/{campaign.pk}/export/")
    t1, c1 = time.perf_counter(), time.process_time()
    assert exported.status_code == 200, exported.status_code
    body = exported.content
    t2, c2 = time.perf_counter(), time.process_time()
    made = api.generic("POST", "/api/campaigns/import/", body,
                       content_type="application/json")
    t3, c3 = time.perf_counter(), time.process_time()
    assert made.status_code == 201, made.content[:300]
    export_s, import_s = t1 - t0, t3 - t2
    document = json.loads(body)
    print("export rows: " + ", ".join(
        f"{key} {len(value)}" for key, value in sorted(document.items())
        if isinstance(value, list) and value))
    # The CPU seconds of this process (the web worker's share; the database's is not in
    # them) and the machine's load: on a loaded machine the wall figures mostly wait.
    print(f"export: {export_s:8.3f} s ({len(body) / 1e6:.2f} MB), {c1 - c0:.2f} s CPU")
    print(f"import: {import_s:8.3f} s, {c3 - c2:.2f} s CPU; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"TARGET import_{args.territories}: {import_s:.2f} s (goal {IMPORT_GOAL} s, floor "
          f"{IMPORT_FLOOR} s): {'ok' if import_s <= IMPORT_GOAL else 'short'}")
    print(f"TARGET export_{args.territories}: {export_s:.2f} s (goal {EXPORT_GOAL} s, floor "
          f"{EXPORT_FLOOR} s): {'ok' if export_s <= EXPORT_GOAL else 'short'}")
    Campaign.objects.filter(pk__in=[campaign.pk, json.loads(made.content)["id"]]).delete()
    User.objects.filter(username__startswith=tag).delete()


def _play(campaign: Any, *, turns: int, units: int) -> None:
    """Advance whole turns with the umpire's clock, then give each player `units` units
    (pilot and one weapon each) on their own territories."""
    from campaign.models import Player
    from campaign.services import clock
    from economy.models import Operative, Unit, Weapon

    campaign.refresh_from_db()
    start = campaign.turn
    for _ in range(turns * 8):  # the phases of a turn, with room to spare
        campaign.refresh_from_db()
        if campaign.turn >= start + turns and campaign.phase == "move":
            break
        clock.advance(campaign_id=campaign.pk, by="umpire")
    for player in Player.objects.filter(campaign=campaign):
        homes = list(player.territories.order_by("pk").values_list("pk", flat=True))
        if not homes:
            continue
        places = [homes[i % len(homes)] for i in range(units)]
        pilots = Operative.objects.bulk_create(
            [Operative(player=player, territory_id=place, klass="soldier")
             for place in places])
        made = Unit.objects.bulk_create(
            [Unit(player=player, territory_id=place, model="golem", pilot=pilot)
             for place, pilot in zip(places, pilots, strict=True)])
        Weapon.objects.bulk_create(
            [Weapon(player=player, territory_id=unit.territory_id, weapon="machine_gun",
                    unit=unit, slot=0) for unit in made])


if __name__ == "__main__":
    main()
