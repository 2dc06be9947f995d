"""Puzzles shared from f-puzzles and SudokuPad: their JSON object read into a grid and rules.

The object (what f-puzzles exports, and SudokuPad opens) holds ``size``, ``grid`` (rows of
cells, each ``{"value": n, "given": true, "region": r}``; ``region`` only where the regions
are not the boxes), ``diagonal+`` / ``diagonal-``, and ``killercage`` / ``cage`` lists of
``{"cells": ["R1C1", ...], "value": "15"}``. Anything else that sets a rule we do not play
(thermometers, arrows...) is refused by name rather than dropped, so a puzzle never changes
its meaning on the way in. The rules themselves are checked by ``solver.variant.Rules``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from solver import Grid, Shape
from solver.grid import default_shape
from solver.variant import Cage, Rules, RulesError

MAX_FPUZZLES_SIZE = 16
"""The largest grid side accepted from f-puzzles."""

# Keys that describe the puzzle without adding a rule.
_HARMLESS = {"size", "grid", "title", "author", "ruleset", "solution", "highlightConflicts"}
_CAGE_KEYS = ("killercage", "cage")
_CELL = re.compile(r"^R(\d{1,2})C(\d{1,2})$", re.IGNORECASE)


class FpuzzlesError(ValueError):
    """An f-puzzles object we cannot play; the message says what is wrong."""


def _int(value: Any) -> int | None:
    """A whole number from an int or a digit string (f-puzzles writes sums as strings)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 4:
        return int(value.strip())
    return None


def _shape(data: Mapping[str, Any]) -> Shape:
    size = _int(data.get("size"))
    shape = default_shape(size) if size is not None and size <= MAX_FPUZZLES_SIZE else None
    if shape is None:
        raise FpuzzlesError(
            _("size must be a grid side from 4 to %(max)s with boxes (not a prime).")
            % {"max": MAX_FPUZZLES_SIZE}
        )
    return shape


def _cells(data: Mapping[str, Any], shape: Shape) -> tuple[list[int], list[int] | None]:
    """The givens and (when any cell names one) the regions, row by row."""
    n = shape.size
    rows = data.get("grid")
    if (
        not isinstance(rows, list)
        or len(rows) != n
        or not all(isinstance(r, list) and len(r) == n for r in rows)
    ):
        raise FpuzzlesError(_("grid must be %(n)s rows of %(n)s cells.") % {"n": n})
    givens: list[int] = []
    regions: list[int | None] = []
    for r, row in enumerate(rows, start=1):
        for c, cell in enumerate(row, start=1):
            if not isinstance(cell, Mapping):
                raise FpuzzlesError(_("Cell r%(r)sc%(c)s must be an object.") % {"r": r, "c": c})
            value = cell.get("value")
            given = cell.get("given", False)
            number = _int(value) if value not in (None, "") else 0
            if number is None or not 0 <= number <= n:
                raise FpuzzlesError(
                    _("Cell r%(r)sc%(c)s: value must be 1 to %(n)s.") % {"r": r, "c": c, "n": n}
                )
            givens.append(number if given is True else 0)
            region = cell.get("region")
            if region is not None and (_int(region) is None or not 0 <= _int(region) < n):  # type: ignore[operator]
                raise FpuzzlesError(
                    _("Cell r%(r)sc%(c)s: region must be 0 to %(last)s.")
                    % {"r": r, "c": c, "last": n - 1}
                )
            regions.append(_int(region) if region is not None else None)
    if all(r is None for r in regions):
        return givens, None
    from solver.grid import tables

    box_of = tables(shape).box_of
    return givens, [box_of[i] if r is None else r for i, r in enumerate(regions)]


def _cage_cell(name: Any, shape: Shape, number: int) -> int:
    match = _CELL.match(name) if isinstance(name, str) else None
    n = shape.size
    if match is None or not (1 <= int(match[1]) <= n and 1 <= int(match[2]) <= n):
        raise FpuzzlesError(
            _("Cage %(i)s: cells must be named R1C1 to R%(n)sC%(n)s.") % {"i": number, "n": n}
        )
    return (int(match[1]) - 1) * n + int(match[2]) - 1


def _cages(data: Mapping[str, Any], shape: Shape) -> list[Cage]:
    cages: list[Cage] = []
    for key in _CAGE_KEYS:
        raw = data.get(key) or []
        if not isinstance(raw, list):
            raise FpuzzlesError(_("%(key)s must be a list of cages.") % {"key": key})
        for item in raw:
            number = len(cages) + 1
            if not isinstance(item, Mapping) or not isinstance(item.get("cells"), list):
                raise FpuzzlesError(
                    _('Cage %(i)s: give its cells as a list like ["R1C1", "R1C2"].') % {"i": number}
                )
            if len(item["cells"]) > shape.ncells:
                raise FpuzzlesError(_("Cage %(i)s has too many cells.") % {"i": number})
            cells = [_cage_cell(name, shape, number) for name in item["cells"]]
            value = item.get("value")
            total = None if value in (None, "") else _int(value)
            if value not in (None, "") and total is None:
                raise FpuzzlesError(_("Cage %(i)s: its sum must be a number.") % {"i": number})
            cages.append(Cage(tuple(sorted(cells)), total))
    return cages


def _unsupported(data: Mapping[str, Any]) -> list[str]:
    known = _HARMLESS | set(_CAGE_KEYS) | {"diagonal+", "diagonal-"}
    return sorted(k for k, v in data.items() if k not in known and v not in (None, False, [], {}))


def fpuzzles_read(data: Any) -> tuple[Grid, Rules]:
    """The givens and rules of an f-puzzles object; FpuzzlesError says what is wrong."""
    if not isinstance(data, Mapping):
        raise FpuzzlesError(_("fpuzzles must be the f-puzzles JSON object."))
    extra = _unsupported(data)
    if extra:
        raise FpuzzlesError(
            _("These rules cannot be played here: %(rules)s.") % {"rules": ", ".join(extra[:5])}
        )
    shape = _shape(data)
    givens, regions = _cells(data, shape)
    plus, minus = data.get("diagonal+", False), data.get("diagonal-", False)
    if not isinstance(plus, bool) or not isinstance(minus, bool):
        raise FpuzzlesError(_("diagonal+ and diagonal- must be true or false."))
    if plus != minus:
        raise FpuzzlesError(_("Only both diagonals together can be played, not one."))
    try:
        rules = Rules.make(shape, regions=regions, diagonals=plus, cages=_cages(data, shape))
        grid = Grid(shape, tuple(givens))
    except (RulesError, ValueError) as exc:
        raise FpuzzlesError(str(exc)) from None
    return grid, rules
