"""Benchmark (not a test) of issue 32, target 5: the meta-map page of a 5,000-territory
league for one of its players.

    DATABASE_URL=... .venv/bin/python benchmarks/metamap_bench.py [--territories N] [--keep]

Runs on whatever database DATABASE_URL names (`make bench`'s throwaway one). A league
of 10 players on a hex map is started and advanced to its move phase (real services);
then, through Django's test client with `Accept-Encoding: gzip` (the page's middleware
compresses as a server would), the page is fetched 6 times (the first a warm-up) and
every file it references on the map (the static geometry) once, then again with the
validators a browser would send. Figures:

- `meta_map_page_cpu_ms`: the page's median time, as the CPU time the serving process
  spent (the database is in-process on SQLite; on PostgreSQL add its share): the wall
  time is printed too, but on a shared 2-core machine under load it measures the load
  (goal 300 ms);
- `meta_map_first_visit_kb`: what a first visit transfers, compressed: the page and the
  geometry files it references (goal 300 KB);
- `meta_map_repeat_visit_kb`: what a repeat visit transfers: the page, the geometry
  being cached (immutable URL: not even asked again) (goal 300 KB).

`--keep` keeps the league (a second run reuses it: the same name).
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
os.environ.setdefault("DICE_SECRETS", "campaign_seed")

#: The figures before issue 32's work: the page at 59ddd71 on this bench's league (the
#: 2-core machine, load average 9.6: CPU 326 ms, wall 1,438 ms; 3,230 KB, uncompressed).
BEFORE = {"ms": 326.0, "first_kb": 3230.0, "repeat_kb": 3230.0}


def target(name: str, figure: float, goal: float, floor: float, unit: str) -> None:
    print(f"TARGET {name}: {figure:.0f}{unit} (goal {goal:g}{unit}, floor {floor:g}{unit}): "
          f"{'ok' if figure <= goal else 'short'}", flush=True)


def _league(territories: int, name: str) -> Any:
    from django.contrib.auth import get_user_model

    from campaign.models import Campaign
    from campaign.services import clock
    from campaign.services.campaigns import campaign_create, campaign_join
    from campaign.services.setup import campaign_start

    found = Campaign.objects.filter(name=name).first()
    if found is not None:
        return found
    User = get_user_model()
    users = [User(username=f"{name}_{i}") for i in range(11)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith=f"{name}_").order_by("id"))
    campaign = campaign_create(umpire=users[0], name=name, map_spec={
        "generator": "hex", "territories": territories, "seed": 2024})
    for user in users[1:]:
        campaign_join(campaign_id=campaign.pk, user=user, invite=campaign.invite_code)
    campaign_start(campaign_id=campaign.pk)
    for _ in range(4):
        campaign.refresh_from_db()
        if campaign.phase == "move":
            break
        clock.advance(campaign_id=campaign.pk, by="umpire")
    campaign.refresh_from_db()
    return campaign


def _wire_size(response: Any) -> int:
    """Bytes on the wire: the body as sent (compressed when the response says so)."""
    body = response.content
    if response.get("Content-Encoding") != "gzip":
        print(f"  (not compressed: {response.request['PATH_INFO']}; gzip would send "
              f"{len(gzip.compress(body)) / 1024:.0f} KB)", flush=True)
    return len(body)


def main() -> None:
    import django

    parser = argparse.ArgumentParser()
    parser.add_argument("--territories", type=int, default=5000)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    from campaign.models import Player

    name = f"metamap bench {args.territories}"
    t0 = time.perf_counter()
    campaign = _league(args.territories, name)
    player = Player.objects.filter(campaign=campaign).select_related("user").order_by("pk")[0]
    print(f"database: {connection.vendor}; league on {args.territories:,} territories ready "
          f"in {time.perf_counter() - t0:.1f} s", flush=True)
    try:
        with override_settings(DEBUG=False, ALLOWED_HOSTS=["testserver"],
                               SECURE_SSL_REDIRECT=False):
            client = Client(HTTP_ACCEPT_ENCODING="gzip")
            client.force_login(player.user)
            path = f"/campaigns/{campaign.pk}/map/"
            times: list[float] = []
            cpu: list[float] = []
            for i in range(6):
                with CaptureQueriesContext(connection) as queries:
                    t, c = time.perf_counter(), time.process_time()
                    response = client.get(path)
                    body = response.content
                    elapsed, spent = time.perf_counter() - t, time.process_time() - c
                assert response.status_code == 200, response.status_code
                if i:
                    times.append(elapsed)
                    cpu.append(spent)
            page = _wire_size(response)
            raw = len(gzip.decompress(body)) if response.get("Content-Encoding") == "gzip" \
                else len(body)
            print(f"map page: {raw / 1024:.0f} KB, {page / 1024:.0f} KB on the wire, "
                  f"{len(queries)} queries, median {statistics.median(times) * 1000:.0f} ms wall, "
                  f"{statistics.median(cpu) * 1000:.0f} ms CPU (load average "
                  f"{os.getloadavg()[0]:.1f})",
                  flush=True)
            html = (gzip.decompress(body) if response.get("Content-Encoding") == "gzip"
                    else body).decode()
            geometry = sorted(set(re.findall(r'data-geometry="([^"]+)"', html)))
            first = page
            for url in geometry:
                res = client.get(url)
                assert res.status_code == 200, (url, res.status_code)
                size = _wire_size(res)
                first += size
                again = client.get(url, HTTP_IF_NONE_MATCH=res.get("ETag", ""))
                print(f"geometry {url}: {size / 1024:.0f} KB on the wire, "
                      f"{res.get('Cache-Control')}; revalidated: {again.status_code}",
                      flush=True)
            ms = statistics.median(cpu) * 1000
            target(f"meta_map_page_cpu_ms_{args.territories}", ms, 300, BEFORE["ms"], " ms")
            target(f"meta_map_first_visit_kb_{args.territories}", first / 1024, 300,
                   BEFORE["first_kb"], " KB")
            target(f"meta_map_repeat_visit_kb_{args.territories}", page / 1024, 300,
                   BEFORE["repeat_kb"], " KB")
    finally:
        if not args.keep:
            campaign.delete()
            get_user_model().objects.filter(username__startswith=f"{name}_").delete()


if __name__ == "__main__":
    main()
