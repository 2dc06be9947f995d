"""Model instances from hand-written SQL, for the two requests every move makes.

Compiling a queryset costs more CPU than running it: for a move, the ORM's compiler was
half of the web process's time. The hot statements (a move's read and write, a token's
lookup) are therefore written as SQL once, with their column lists and value conversions
taken from the models, so a field added to a model still flows through them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Field, Model


class ModelColumns:
    """The concrete columns of ``model`` under a table alias, and how to read them back.

    ``sql`` is the select list (``g."id", g."user_id", ...``); ``load(row, start)`` turns
    that many values of a fetched row into an instance, applying the same converters the
    ORM would (JSON decoding, SQLite's datetimes and booleans).
    """

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields: list[Field] = list(model._meta.concrete_fields)
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)
        self._converters: list[tuple[int, list[Any], Field]] | None = None

    def _converters_for_connection(self) -> list[tuple[int, list[Any], Field]]:
        if self._converters is None:
            converters = []
            for i, f in enumerate(self.fields):
                col = f.get_col(self.alias)
                found = connection.ops.get_db_converters(col) + f.get_db_converters(connection)
                if found:
                    converters.append((i, found, col))
            self._converters = converters
        return self._converters

    def load(self, row: Sequence[Any], start: int = 0) -> Model:
        values = list(row[start : start + self.width])
        for i, converters, col in self._converters_for_connection():
            value = values[i]
            for convert in converters:
                value = convert(value, col, connection)
            values[i] = value
        return self.model.from_db(connection.alias, self.attnames, values)


def db_values(instance: Model, fields: Sequence[Field], *, add: bool = False) -> list[Any]:
    """``fields`` of ``instance`` as the database takes them; ``add`` for an INSERT, where
    ``auto_now_add`` and the like fill themselves in as ``save()`` would make them."""
    if add:
        return [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    return [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
