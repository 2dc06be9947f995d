"""Model instances from hand-written SQL, for the statements every move makes.

Compiling a queryset costs more CPU than running it: for a move, the ORM's compiler was
half of the web process's time. The hot statements (a move's read and write, a token's
lookup) are therefore written as SQL once, with their column lists and value conversions
taken from the models, so a field added to a model still flows through them.

Functions here take the connection itself (``db()``), not Django's ``connection`` proxy:
every attribute read through the proxy is a thread-local lookup, and a move makes hundreds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init


def db() -> BaseDatabaseWrapper:
    """This thread's connection to the default database."""
    return connections[DEFAULT_DB_ALIAS]


class ModelColumns:
    """The concrete columns of ``model`` under a table alias, and how to read them back.

    ``select_list(db)`` is the SQL (``g."id", g."user_id", ...``); ``load(db, row, start)``
    turns that many values of a fetched row into an instance, applying the same converters
    the ORM would (JSON decoding, SQLite's datetimes and booleans). Fields named in
    ``deferred`` are left out, as ``QuerySet.defer`` leaves them: read on first use.
    """

    def __init__(self, model: type[Model], alias: str, *, deferred: Sequence[str] = ()) -> None:
        self.model = model
        self.alias = alias
        self.fields: list[Field] = [
            f for f in model._meta.concrete_fields if f.name not in deferred
        ]
        self.attnames = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self._converters: list[tuple[int, list[Any], Any]] | None = None

    def select_list(self, db: BaseDatabaseWrapper) -> str:
        return ", ".join(f"{self.alias}.{db.ops.quote_name(f.column)}" for f in self.fields)

    def _converters_for(self, db: BaseDatabaseWrapper) -> list[tuple[int, list[Any], Any]]:
        # One database per process: the converters are the same on every connection.
        if self._converters is None:
            converters = []
            for i, f in enumerate(self.fields):
                col = f.get_col(self.alias)
                found = db.ops.get_db_converters(col) + f.get_db_converters(db)
                if found:
                    converters.append((i, found, col))
            self._converters = converters
        return self._converters

    def load(self, db: BaseDatabaseWrapper, row: Sequence[Any], start: int = 0) -> Model:
        values = list(row[start : start + self.width])
        for i, converters, col in self._converters_for(db):
            value = values[i]
            for convert in converters:
                value = convert(value, col, db)
            values[i] = value
        model = self.model
        if pre_init.has_listeners(model) or post_init.has_listeners(model):
            return model.from_db(db.alias, self.attnames, values)
        # What from_db makes of a whole row, without Model.__init__'s walk over the fields
        # (a fifth of a move's ORM time, four instances a move): the values set as loaded.
        instance = model.__new__(model)
        instance.__dict__.update(zip(self.attnames, values, strict=True))
        instance._state = ModelState()
        instance._state.adding = False
        instance._state.db = db.alias
        return instance


# Fields whose value, when it is already of this Python type (or None), is what the
# database takes: Django's preparation would hand it back unchanged (str() of a str, int()
# of an int). Everything else goes through ``get_db_prep_save``.
_PASS_THROUGH: tuple[tuple[type[Field], type], ...] = (
    (models.CharField, str),
    (models.TextField, str),
    (models.IntegerField, int),  # and its Small, Big and Positive kinds
    (models.BooleanField, bool),
)


def _plain_type(field: Field) -> type | None:
    if field.is_relation:
        return None
    for field_class, python_type in _PASS_THROUGH:
        if isinstance(field, field_class):
            return python_type
    return None


class FieldValues:
    """How to take ``fields`` off an instance as the database takes them, as ``save()``
    would prepare them; worked out once per list of fields."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        # (field, attribute, plain type or None, fills itself on INSERT: auto_now and kin)
        self._plan = [
            (f, f.attname, _plain_type(f), type(f).pre_save is not Field.pre_save)
            for f in self.fields
        ]

    def of(self, db: BaseDatabaseWrapper, instance: Model, *, add: bool = False) -> list[Any]:
        """The values of ``instance``; ``add`` for an INSERT, where ``auto_now_add`` and the
        like fill themselves in."""
        values = []
        for f, attname, plain, fills_itself in self._plan:
            value = (
                f.pre_save(instance, True) if add and fills_itself else getattr(instance, attname)
            )
            if plain is None or (value is not None and type(value) is not plain):
                value = f.get_db_prep_save(value, db)
            values.append(value)
        return values


class NewInstances:
    """Instances of ``model`` made as ``model(**values)`` would make them (every field's
    default, ``values`` over them), without ``Model.__init__``'s walk over the fields and
    its signals: a move makes its log entry this way. Falls back to the model's own
    constructor while anything listens to ``pre_init`` or ``post_init``."""

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        fields = model._meta.concrete_fields
        # (attribute, default, whether to call it): a callable default (dict, uuid4) is
        # called for each instance, as the model's constructor calls it.
        self._defaults: list[tuple[str, Any, bool]] = [
            (f.attname, f.default, True)
            if f.has_default() and callable(f.default)
            else (f.attname, f.get_default(), False)
            for f in fields
        ]
        self._relations = {f.name for f in fields if f.is_relation}
        self._names = {f.name for f in fields} | {f.attname for f in fields}

    def make(self, **values: Any) -> Model:
        model = self.model
        if pre_init.has_listeners(model) or post_init.has_listeners(model):
            return model(**values)
        instance = model.__new__(model)
        state = {name: default() if call else default for name, default, call in self._defaults}
        related = []
        for name, value in values.items():
            if name not in self._names:
                raise TypeError(f"{model.__name__} has no field {name!r}")
            if name in self._relations:
                related.append((name, value))
            else:
                state[name] = value
        instance.__dict__.update(state)
        instance._state = ModelState()
        for name, value in related:  # the descriptor sets the column and caches the object
            setattr(instance, name, value)
        return instance
