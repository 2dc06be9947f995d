"""Grids, box shapes, lookup tables, parsing and formatting.

Glossary (after Norvig):
- a *shape* is the box shape r x c; the grid is N x N with N = r * c (N <= 25);
- a *cell* is an index 0 .. N*N-1, row by row; its name is ``r<row>c<col>`` counted from 1;
- a *value* is 1 .. N, and 0 means empty; *symbols* are ``1``-``9`` then ``A``-``P``;
- a *unit* is a row, a column or a box; units are numbered rows 0..N-1, columns N..2N-1,
  boxes 2N..3N-1 (the variants' extra houses follow: see :data:`UNIT_KINDS`);
- the *peers* of a cell are the other cells that share a unit with it;
- a *mask* is an int whose bit v-1 stands for value v.

The tables are computed once per shape and cached, so every engine reads plain lists of
ints and never builds per-cell objects.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
MAX_SIZE = 25
EMPTY_CHARS = frozenset("._0")
DECORATION_CHARS = frozenset("|-+=")
UNIT_KINDS = ("row", "column", "box", "diagonal", "window")
"""Unit kinds by ``unit // N``: the classic's three, then the variants' extra houses
(diagonal 1 and 2 are units 3N and 3N+1, Windoku's windows 4N to 4N+3)."""


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the site's translation catalog; return it unchanged."""
    return message


LINE = gettext_noop("line %(line)s: %(message)s")


class ParseError(ValueError):
    """A puzzle text that cannot be read; the message says what is wrong and where.

    Kept as an English template and its parameters (plus the line it is on, if any), so
    the site can say the same in another language: :meth:`render` with its gettext.
    """

    def __init__(self, template: str, *, line: int | None = None, **params: object) -> None:
        self.template = template
        self.line = line
        self.params = params
        super().__init__(self.render())

    def render(self, translate: Callable[[str], str] = lambda message: message) -> str:
        text = translate(self.template) % self.params
        if self.line is not None:
            text = translate(LINE) % {"line": self.line, "message": text}
        return text


class BudgetExceeded(Exception):
    """An engine used up the work budget (search nodes or logic steps) it was given."""


def _shape_problem(box_rows: int, box_cols: int) -> ParseError | None:
    """Why ``box_rows`` x ``box_cols`` boxes make no grid, or None if they make one."""
    size = box_rows * box_cols
    if box_rows < 1 or box_cols < 1 or size > MAX_SIZE or size < 4:
        return ParseError(
            gettext_noop(
                "box shape %(rows)sx%(cols)s is not supported: "
                "the grid side must be 4 to %(maximum)s"
            ),
            rows=box_rows,
            cols=box_cols,
            maximum=MAX_SIZE,
        )
    if box_rows == 1 or box_cols == 1:
        return ParseError(
            gettext_noop("box shape %(rows)sx%(cols)s has no real boxes"),
            rows=box_rows,
            cols=box_cols,
        )
    return None


@dataclass(frozen=True, slots=True)
class Shape:
    """The box shape: ``box_rows`` x ``box_cols`` boxes in an N x N grid."""

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1 or self.size > MAX_SIZE or self.size < 4:
            raise ValueError(str(_shape_problem(self.box_rows, self.box_cols)))
        if self.box_rows == 1 or self.box_cols == 1:
            raise ValueError(str(_shape_problem(self.box_rows, self.box_cols)))

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols

    @property
    def ncells(self) -> int:
        return self.size * self.size

    @property
    def label(self) -> str:
        """``9x9`` for the grid (not the box)."""
        return f"{self.size}x{self.size}"

    @classmethod
    def for_size(cls, size: int) -> Shape:
        """The default box shape for an N x N grid: the squarest r x c with r <= c."""
        shape = default_shape(size)
        if shape is None:
            raise ValueError(f"a {size}x{size} grid has no box shape")
        return shape


def default_shape(size: int) -> Shape | None:
    """The squarest box shape r x c (r <= c, r >= 2) for side ``size``, or None."""
    if size < 4 or size > MAX_SIZE:
        return None
    for rows in range(math.isqrt(size), 1, -1):
        if size % rows == 0:
            return Shape(rows, size // rows)
    return None


VALID_SIZES = tuple(n for n in range(4, MAX_SIZE + 1) if default_shape(n) is not None)
VALID_CELL_COUNTS = {n * n: n for n in VALID_SIZES}


@dataclass(frozen=True, slots=True)
class Tables:
    """Lookup tables for one shape, computed once (see :func:`tables`)."""

    shape: Shape
    n: int
    ncells: int
    all_mask: int
    units: tuple[tuple[int, ...], ...]  # 3N units: rows, columns, boxes
    cell_units: tuple[tuple[int, int, int], ...]  # per cell: (row unit, column unit, box unit)
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    box_of: tuple[int, ...]
    peers: tuple[tuple[int, ...], ...]
    peer_sets: tuple[frozenset[int], ...]


@cache
def tables(shape: Shape) -> Tables:
    """The lookup tables for ``shape``; cached, so call it freely."""
    n = shape.size
    br, bc = shape.box_rows, shape.box_cols
    ncells = n * n
    row_of = tuple(i // n for i in range(ncells))
    col_of = tuple(i % n for i in range(ncells))
    box_of = tuple((r // br) * br + (c // bc) for r, c in zip(row_of, col_of, strict=True))
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    boxes: list[list[int]] = [[] for _ in range(n)]
    for i in range(ncells):
        boxes[box_of[i]].append(i)
    units = tuple(rows) + tuple(cols) + tuple(tuple(b) for b in boxes)
    cell_units = tuple((row_of[i], n + col_of[i], 2 * n + box_of[i]) for i in range(ncells))
    peer_sets = tuple(
        frozenset(c for u in cell_units[i] for c in units[u]) - {i} for i in range(ncells)
    )
    peers = tuple(tuple(sorted(p)) for p in peer_sets)
    return Tables(
        shape=shape,
        n=n,
        ncells=ncells,
        all_mask=(1 << n) - 1,
        units=units,
        cell_units=cell_units,
        row_of=row_of,
        col_of=col_of,
        box_of=box_of,
        peers=peers,
        peer_sets=peer_sets,
    )


def cell_name(shape: Shape, cell: int) -> str:
    """``r2c5`` for the cell in row 2, column 5 (counted from 1)."""
    n = shape.size
    return f"r{cell // n + 1}c{cell % n + 1}"


def unit_name(shape: Shape, unit: int) -> str:
    """``row 3``, ``column 5`` or ``box 7`` (counted from 1) for a unit index."""
    kind, index = divmod(unit, shape.size)
    return f"{UNIT_KINDS[kind]} {index + 1}"


def symbol(value: int) -> str:
    """The symbol for a value: 1-9 then A-P; ``.`` for 0."""
    return SYMBOLS[value - 1] if value else "."


@dataclass(frozen=True, slots=True)
class Grid:
    """A grid of values (0 = empty) in a box shape. Immutable; engines copy ``cells``."""

    shape: Shape
    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.cells) != self.shape.ncells:
            raise ValueError(f"{len(self.cells)} cells, expected {self.shape.ncells}")
        n = self.shape.size
        for i, v in enumerate(self.cells):
            if not 0 <= v <= n:
                name = cell_name(self.shape, i)
                raise ValueError(f"cell {name}: {v} is not a value of a {n}x{n} grid")

    @property
    def size(self) -> int:
        return self.shape.size

    @property
    def clues(self) -> int:
        """How many cells hold a value."""
        return sum(1 for v in self.cells if v)

    def is_complete(self) -> bool:
        return all(self.cells)

    @classmethod
    def empty(cls, shape: Shape) -> Grid:
        return cls(shape, (0,) * shape.ncells)

    @classmethod
    def from_string(
        cls, text: str, box_rows: int | None = None, box_cols: int | None = None
    ) -> Grid:
        """Shorthand for :func:`parse`."""
        return parse(text, box_rows=box_rows, box_cols=box_cols)

    def with_cells(self, cells: list[int] | tuple[int, ...]) -> Grid:
        return Grid(self.shape, tuple(cells))

    def __str__(self) -> str:
        return format_line(self)


# ---------------------------------------------------------------------------------------
# Parsing

_TOKEN_SPLIT = re.compile(r"[\s|+=]+")


def _resolve_shape(
    ncells: int, box_rows: int | None, box_cols: int | None, where: int | None
) -> Shape:
    """The shape for a grid of ``ncells`` cells, or a ParseError saying what was expected."""
    if box_rows is not None or box_cols is not None:
        if box_rows is None or box_cols is None:
            raise ParseError(gettext_noop("give both box_rows and box_cols, or neither"))
        problem = _shape_problem(box_rows, box_cols)
        if problem is not None:
            raise problem
        shape = Shape(box_rows, box_cols)
        if shape.ncells != ncells:
            raise ParseError(
                gettext_noop(
                    "%(count)s cells, expected %(expected)s for a %(label)s grid "
                    "with %(rows)sx%(cols)s boxes"
                ),
                line=where,
                count=ncells,
                expected=shape.ncells,
                label=shape.label,
                rows=box_rows,
                cols=box_cols,
            )
        return shape
    if ncells == 0:
        raise ParseError(gettext_noop("no cells: the puzzle is empty"), line=where)
    size = VALID_CELL_COUNTS.get(ncells)
    if size is None:
        if ncells > MAX_SIZE * MAX_SIZE:
            raise ParseError(
                gettext_noop("%(count)s cells, expected %(maximum)s at most"),
                line=where,
                count=ncells,
                maximum=MAX_SIZE * MAX_SIZE,
            )
        expected = min(VALID_CELL_COUNTS, key=lambda c: (abs(c - ncells), c))
        # Named with its grid, so "expected 16" is not read as a 16x16 grid.
        label = Shape.for_size(VALID_CELL_COUNTS[expected]).label
        raise ParseError(
            gettext_noop("%(count)s cells, expected %(expected)s (a %(label)s grid)"),
            line=where,
            count=ncells,
            expected=expected,
            label=label,
        )
    return Shape.for_size(size)


def _cells_from_chars(chars: list[str], shape: Shape, where: int | None) -> tuple[int, ...]:
    n = shape.size
    values = []
    for i, ch in enumerate(chars):
        if ch in EMPTY_CHARS:
            values.append(0)
            continue
        v = SYMBOLS.find(ch.upper()) + 1 if len(ch) == 1 else 0
        if not 1 <= v <= n:
            raise ParseError(
                gettext_noop("cell %(cell)s: %(symbol)s is not a symbol of a %(label)s grid"),
                line=where,
                cell=cell_name(shape, i),
                symbol=repr(ch),
                label=shape.label,
            )
        values.append(v)
    return tuple(values)


def _cells_from_numbers(tokens: list[str], shape: Shape, where: int | None) -> tuple[int, ...]:
    n = shape.size
    values = []
    for i, tok in enumerate(tokens):
        if tok in EMPTY_CHARS:
            values.append(0)
            continue
        # The length check keeps int() from refusing a number of thousands of digits.
        if (
            not (tok.isascii() and tok.isdigit())
            or len(tok.lstrip("0")) > 2
            or not 1 <= int(tok) <= n
        ):
            raise ParseError(
                gettext_noop("cell %(cell)s: %(symbol)s is not a value of a %(label)s grid"),
                line=where,
                cell=cell_name(shape, i),
                symbol=repr(tok),
                label=shape.label,
            )
        values.append(int(tok))
    return tuple(values)


def _grid_from_text(
    text: str, box_rows: int | None, box_cols: int | None, where: int | None
) -> Grid:
    """One grid from text that holds exactly one puzzle (single or several lines)."""
    tokens = _tokens(text)
    if _is_numeric(tokens):
        shape = _resolve_shape(len(tokens), box_rows, box_cols, where)
        return Grid(shape, _cells_from_numbers(tokens, shape, where))
    chars = [ch for ch in text if not ch.isspace() and ch not in DECORATION_CHARS]
    shape = _resolve_shape(len(chars), box_rows, box_cols, where)
    return Grid(shape, _cells_from_chars(chars, shape, where))


def _content_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) for the lines that are neither blank nor ``#`` comments."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            out.append((number, stripped))
    return out


def _count_cells(line: str) -> int:
    return sum(1 for ch in line if not ch.isspace() and ch not in DECORATION_CHARS)


def _is_collection(lines: list[tuple[int, str]]) -> bool:
    """True when the text is one puzzle per line (``.sdm``), not one grid over many lines."""
    counts = [c for c in (_count_cells(line) for _, line in lines) if c]
    if len(counts) < 2:
        return False
    first = counts[0]
    if first in VALID_SIZES and len(counts) == first and all(c == first for c in counts):
        return False  # one grid written a row per line
    return first in VALID_CELL_COUNTS or first > 2 * MAX_SIZE


def parse(text: str, *, box_rows: int | None = None, box_cols: int | None = None) -> Grid:
    """Read one puzzle from any supported text: one line, several lines, a pretty grid, .sdk.

    The shape comes from the cell count unless ``box_rows`` and ``box_cols`` are given.
    Raises :class:`ParseError` with a message that says what is wrong and where.
    """
    if not isinstance(text, str):
        raise ParseError(gettext_noop("the puzzle must be text"))
    lines = _content_lines(text)
    if not lines:
        raise ParseError(gettext_noop("no cells: the puzzle is empty"))
    if _is_collection(lines):
        raise ParseError(
            gettext_noop(
                "the text holds %(count)s lines that each look like a whole puzzle; send one puzzle"
            ),
            count=len(lines),
        )
    if len(lines) == 1:
        number, line = lines[0]
        return _grid_from_text(line, box_rows, box_cols, number if number != 1 else None)
    _check_rows(lines, box_rows, box_cols)
    return _grid_from_text("\n".join(line for _, line in lines), box_rows, box_cols, None)


def _tokens(text: str) -> list[str]:
    return [t for t in _TOKEN_SPLIT.split(text) if t and not set(t) <= DECORATION_CHARS]


def _is_numeric(tokens: list[str]) -> bool:
    """True for numbers written with spaces between them ("16 . 3 ...")."""
    return (
        len(tokens) > 1
        and any(len(t) > 1 and t.isascii() and t.isdigit() for t in tokens)
        and all((t.isascii() and t.isdigit()) or t in EMPTY_CHARS for t in tokens)
    )


def _check_rows(lines: list[tuple[int, str]], box_rows: int | None, box_cols: int | None) -> None:
    """A grid written a row per line must have a full row on every line.

    Without this a cell dropped from one row and one added to another would still add up
    to a whole grid and be read shifted.
    """
    numeric = _is_numeric(_tokens("\n".join(line for _, line in lines)))
    rows = []
    for number, line in lines:
        count = len(_tokens(line)) if numeric else _count_cells(line)
        if count:
            rows.append((number, count))
    side = box_rows * box_cols if box_rows and box_cols else len(rows)
    if len(rows) != side or side not in VALID_SIZES:
        return  # not a row per line: the total cell count decides
    if sum(1 for _, count in rows if count == side) * 2 <= len(rows):
        return
    for number, count in rows:
        if count != side:
            raise ParseError(
                gettext_noop("%(count)s cells, expected %(expected)s in a row"),
                line=number,
                count=count,
                expected=side,
            )


def parse_many(
    text: str, *, box_rows: int | None = None, box_cols: int | None = None
) -> list[tuple[int, Grid | ParseError]]:
    """Read a collection: one puzzle per line (``.sdm``), or one grid over many lines.

    Returns ``(line number, grid or error)`` for each puzzle, so a caller can report every
    bad line and keep the good ones. A single multi-line grid (pretty or ``.sdk``) comes
    back as one entry numbered by its first line.
    """
    lines = _content_lines(text)
    if not lines:
        return []
    if len(lines) > 1 and not _is_collection(lines):
        first = lines[0][0]
        try:
            return [(first, parse(text, box_rows=box_rows, box_cols=box_cols))]
        except ParseError as exc:
            return [(first, exc)]
    out: list[tuple[int, Grid | ParseError]] = []
    for number, line in lines:
        try:
            out.append((number, _grid_from_text(line, box_rows, box_cols, number)))
        except ParseError as exc:
            out.append((number, exc))
    return out


# ---------------------------------------------------------------------------------------
# Formatting


def format_line(grid: Grid, empty: str = ".") -> str:
    """The grid as one line of symbols, row by row, ``empty`` for empty cells."""
    return "".join(SYMBOLS[v - 1] if v else empty for v in grid.cells)


def format_pretty(grid: Grid) -> str:
    """The grid as rows of symbols with ``|`` between boxes and ``-+-`` rules between bands."""
    shape = grid.shape
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    rule = "-+-".join("-" * (2 * bc - 1) for _ in range(n // bc))
    lines = []
    for r in range(n):
        if r and r % br == 0:
            lines.append(rule)
        row = grid.cells[r * n : (r + 1) * n]
        boxes = [" ".join(symbol(v) for v in row[c : c + bc]) for c in range(0, n, bc)]
        lines.append(" | ".join(boxes))
    return "\n".join(lines)
