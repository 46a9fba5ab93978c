"""Benchmark (not a test): create and start a 2,000-territory, 50-player campaign.

    DATABASE_URL=... .venv/bin/python benchmarks/map_bench.py [--territories N]
        [--players P] [--generator hex|random]

Runs on whatever database DATABASE_URL names (the embedded SQLite file by default;
migrate it first). It creates its own users and campaign and deletes them afterwards.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")


def main() -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from campaign.services.campaigns import campaign_create, campaign_join
    from campaign.services.setup import campaign_start
    from territories.models import Territory
    from territories.services.starts import min_pairwise_distance

    parser = argparse.ArgumentParser()
    parser.add_argument("--territories", type=int, default=2000)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--generator", default="random", choices=["hex", "random"])
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    User = get_user_model()
    tag = f"bench{int(time.time())}"
    users = [User(username=f"{tag}_{i}") for i in range(args.players + 1)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith=tag).order_by("username"))
    umpire, players = users[0], users[1:]

    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    t0 = time.perf_counter()
    campaign = campaign_create(umpire=umpire, name=tag, map_spec={
        "generator": args.generator, "territories": args.territories, "seed": args.seed})
    t1 = time.perf_counter()
    for user in players:
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    t2 = time.perf_counter()
    campaign_start(campaign_id=campaign.pk)
    t3 = time.perf_counter()

    starts = list(Territory.objects.filter(campaign=campaign, owner__isnull=False)
                  .values_list("pk", flat=True))
    ids = list(Territory.objects.filter(campaign=campaign).order_by("pk")
               .values_list("pk", flat=True))
    index = {pk: i for i, pk in enumerate(ids)}
    adjacency: list[list[int]] = [[] for _ in ids]
    for a, b in campaign.adjacencies.values_list("a_id", "b_id"):
        adjacency[index[a]].append(index[b])
        adjacency[index[b]].append(index[a])
    spread = min_pairwise_distance(adjacency, [index[s] for s in starts])

    print(f"{args.generator} map, {args.territories} territories, {args.players} players")
    print(f"create campaign + map: {t1 - t0:8.3f} s")
    print(f"{args.players} joins:          {t2 - t1:8.3f} s")
    print(f"start:                 {t3 - t2:8.3f} s")
    print(f"total:                 {t3 - t0:8.3f} s")
    print(f"smallest distance between two starts: {spread} hops")
    campaign.delete()
    User.objects.filter(username__startswith=tag).delete()


if __name__ == "__main__":
    main()
