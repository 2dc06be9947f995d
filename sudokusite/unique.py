"""Inserting a row that another request may be inserting at the same moment."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, models, transaction

M = TypeVar("M", bound=models.Model)


def insert_or_existing(row: M, existing: Callable[[], M | None]) -> tuple[M, bool]:
    """Save the new ``row`` and return ``(row, True)``; if a unique constraint refuses it
    (another request stored its twin between the caller's look and this insert), return
    ``(existing(), False)``, the row that got there first. The insert runs in a savepoint,
    so the caller's transaction goes on either way; when ``existing()`` finds nothing the
    constraint was another one, and the error is raised."""
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        found = existing()
        if found is None:
            raise
        return found, False
    return row, True
