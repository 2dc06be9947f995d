"""SQLite, the default database: threads that read and then write in one transaction (the
game actions: select_for_update, which SQLite ignores, then save) wait for each other
instead of failing with "database is locked", and no update is lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings

RACE = r"""
import json, os, threading
import django
django.setup()
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE counter (id integer PRIMARY KEY, n integer NOT NULL)")
    cursor.execute("INSERT INTO counter VALUES (1, 0)")
connection.close()
errors = []

def bump():
    try:
        for _ in range(40):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT n FROM counter WHERE id = 1")
                n = cursor.fetchone()[0]
                cursor.execute("UPDATE counter SET n = %s WHERE id = 1", [n + 1])
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()

threads = [threading.Thread(target=bump) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT n FROM counter WHERE id = 1")
    print(json.dumps({"errors": errors[:3], "n": cursor.fetchone()[0]}))
"""


def test_threads_writing_after_reading_wait_for_each_other_and_lose_nothing(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sudokusite.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'race.sqlite3'}",
        "DEBUG": "1",
        "CELERY_DATA_DIR": str(tmp_path / "celery"),
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", RACE], cwd=settings.BASE_DIR, env=env,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result == {"errors": [], "n": 4 * 40}
