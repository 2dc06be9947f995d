"""PostgreSQL timestamps read with the C parser of ``datetime.fromisoformat``.

Django reads ``timestamptz`` with a subclass of psycopg's pure-Python loader (to attach its
own time zone), so psycopg's C loader is never used: a move reads seven timestamps and
that loader's regular expression and integer conversions were a measurable share of its
CPU. This loader does what Django's does (the value, then Django's time zone attached) and
hands anything ``fromisoformat`` does not read (BC dates, infinity) to Django's.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from functools import cache
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper


@cache
def _loader_for(zone: tzinfo | None) -> type:
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader

    class IsoTimestamptzLoader(BaseTzLoader):
        timezone = zone

        def load(self, data: Any) -> datetime:
            try:
                value = datetime.fromisoformat(bytes(data).decode())
            except ValueError:
                return super().load(data)
            return value.replace(tzinfo=zone)

    return IsoTimestamptzLoader


def use_iso_timestamps(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    """``connection_created``: read this connection's timestamps with the fast loader (once
    per connection; a pooled connection keeps it)."""
    if connection.vendor != "postgresql":
        return
    from psycopg.pq import Format

    loader = _loader_for(connection.timezone)
    adapters = connection.connection.adapters
    oid = adapters.types["timestamptz"].oid
    if adapters.get_loader(oid, Format.TEXT) is not loader:
        adapters.register_loader("timestamptz", loader)
