"""The outage drill (issue 19.1): Redis and PostgreSQL made unreachable through proxies
the test starts, around real `celery worker` and `celery beat` processes.

1. Redis is gone while the umpire advances into the tactical phase: the advance commits
   and says its jobs are waiting (no 500, no battle stuck `queued` forever).
2. Redis comes back; the beat's outbox sweeper sends the waiting jobs.
3. PostgreSQL is gone for a few seconds while a battle job runs: the worker retries the
   database instead of acknowledging a job it could not finish, and the retried job takes
   its own claim back at once (issue 30.7): the battle lease is the production one
   (120 s), so nothing here waits for it to run out.
4. Within 30 s of recovery every battle is recorded, each exactly once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from django.conf import settings

from battles.models import Battle, BattleRecord
from campaign.models import Event, OutboxMessage
from tests.integration.conftest import ROOT, wait_for
from tests.integration.proxy import TcpProxy
from tests.integration.test_battle_jobs import build_turn

pytestmark = pytest.mark.django_db(transaction=True)

ADVANCE = """
import django, os
django.setup()
from campaign.services import clock, outbox
result = clock.advance(campaign_id=int(os.environ["CAMPAIGN"]), by="umpire",
                       expected=(1, "move"))
print("changed", result.changed, "waiting", outbox.unsent_in_this_request())
"""


def test_no_battle_is_lost_when_redis_and_postgresql_blink(celery_process):
    campaign, _players, _territories = build_turn(seed=23)
    db = settings.DATABASES["default"]
    user, host = db.get("USER") or "postgres", db.get("HOST") or "127.0.0.1"
    direct_db = f"postgres://{user}@{host}:{db.get('PORT') or 5432}/{db['NAME']}"
    redis = TcpProxy(("127.0.0.1", 6379))
    postgres = TcpProxy((host, int(db.get("PORT") or 5432)))
    broker = f"redis://127.0.0.1:{redis.port}/{settings.CELERY_BROKER_URL.rsplit('/', 1)[1]}"
    env = {"CELERY_BROKER_URL": broker,
           "DATABASE_URL": f"postgres://{user}@127.0.0.1:{postgres.port}/{db['NAME']}",
           "DATABASE_CONN_MAX_AGE": "0", "BATTLE_LEASE_SECONDS": "120",
           "OUTBOX_SWEEP_SECONDS": "1", "CLOCK_SWEEP_SECONDS": "3600",
           "BATTLE_TEST_DELAY_SECONDS": "2"}
    try:
        celery_process("worker", extra_env=env)
        celery_process("beat", extra_env=env)

        # 1. The broker is unreachable during the advance.
        redis.cut()
        advanced = subprocess.run(
            [sys.executable, "-c", ADVANCE], cwd=ROOT, capture_output=True, text=True,
            timeout=60, env={**os.environ, "DATABASE_URL": direct_db,
                             "CELERY_BROKER_URL": broker, "CAMPAIGN": str(campaign.pk)})
        assert advanced.returncode == 0, advanced.stderr[-3000:]
        changed, waiting = advanced.stdout.split()[1], int(advanced.stdout.split()[3])
        assert changed == "True" and waiting >= 1
        battles = list(Battle.objects.filter(campaign=campaign))
        assert len(battles) == 2 and {b.status for b in battles} == {"queued"}
        waiting_jobs = OutboxMessage.objects.filter(task="battles.tasks.run_battle",
                                                    sent_at__isnull=True)
        assert waiting_jobs.count() == 2
        errors = {m.last_error.split(":")[0] for m in OutboxMessage.objects.exclude(
            last_error="")}
        assert errors and "NotRegistered" not in errors  # the broker was away, nothing else

        # 2. The broker is back: the outbox sweeper sends the waiting jobs.
        redis.restore()
        wait_for(lambda: Battle.objects.filter(campaign=campaign, status="running").exists(),
                 timeout=30, what="a waiting battle job to reach a worker")

        # 3. PostgreSQL goes away while that job runs, for five seconds.
        postgres.cut()
        time.sleep(5)
        postgres.restore()
        recovered = time.monotonic()

        # 4. Everything is recorded, once, within 30 s of recovery.
        wait_for(lambda: Battle.objects.filter(campaign=campaign,
                                               status="finished").count() == 2,
                 timeout=30, what="every battle to be recorded after the outages")
        assert time.monotonic() - recovered <= 30
        assert BattleRecord.objects.filter(battle__campaign=campaign).count() == 2
        for battle in battles:
            assert Event.objects.filter(campaign=campaign, kind="battle_result",
                                        data__battle=battle.pk).count() == 1
        assert not OutboxMessage.objects.filter(task="battles.tasks.run_battle",
                                                sent_at__isnull=True).exists()
    finally:
        redis.close()
        postgres.close()
