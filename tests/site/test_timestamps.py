"""PostgreSQL timestamps read by the fast loader (sudokusite.timestamps) come back as
Django's own loader reads them, the rare forms too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from sudokusite.timestamps import _loader_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

TEXTS = [
    "2026-11-28 21:09:28.123456+00",
    "2026-11-28 21:09:28+00",
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
    "2026-03-29 01:00:00.5+00",
]


def _read(text: str) -> datetime:
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz", [text])
        return cursor.fetchone()[0]


def test_the_connection_reads_timestamps_with_the_fast_loader():
    from psycopg.pq import Format

    connection.ensure_connection()
    adapters = connection.connection.adapters
    loader = adapters.get_loader(adapters.types["timestamptz"].oid, Format.TEXT)
    assert loader is _loader_for(connection.timezone)


@pytest.mark.parametrize("text", TEXTS)
def test_a_timestamp_reads_as_djangos_loader_reads_it(text):
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader

    class DjangosLoader(BaseTzLoader):
        timezone = connection.timezone

    value = _read(text)
    assert value == DjangosLoader(0).load(text.encode())
    assert value.tzinfo is connection.timezone


def test_a_date_before_the_common_era_falls_back_to_djangos_loader():
    from django.db.utils import DataError

    # psycopg refuses BC dates (Python has no year 0): the same error as before.
    with pytest.raises(DataError):
        _read("0044-03-15 12:00:00+00 BC")


def test_a_written_datetime_reads_back_to_the_microsecond():
    moment = datetime(2026, 11, 28, 21, 9, 28, 654321, tzinfo=UTC) + timedelta(hours=5)
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s", [moment])
        assert cursor.fetchone()[0] == moment
