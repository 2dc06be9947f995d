"""Import and export in f-puzzles JSON, the format SudokuPad opens, and its share links.

What a reader expects (and what is written here):

- ``size``: N; ``grid``: N rows of N cell objects, ``{}`` for an empty cell and
  ``{"value": 5, "given": true}`` for a given;
- ``region`` (0-based) on the cells whose region differs from their default box, so a
  reader fills the rest with boxes;
- ``killercage``: ``[{"cells": ["R6C3", "R7C3"], "value": "23"}]``, the sum as a string
  (it may be missing: a cage without a sum); ``cage`` (SudokuPad's own cages) is read
  the same way when a cage has cells and a sum. A cage with no cells, a ``cage`` whose
  value is text (a title, rules, SudokuPad's ``customstyle:``) and a ``cage`` without a sum
  are decorations: they are left out, each with a note in :attr:`FPuzzle.notes`; a
  ``killercage`` whose value is text (``"?"``) is kept as a cage without a sum, with a note;
- ``"diagonal-": true`` for r1c1 to rNcN, ``"diagonal+": true`` for rNc1 to r1cN;
- the constraints of :mod:`solver.rules.constraints`, each module naming its keys and
  shapes (``thermometer``, ``arrow``, ``difference``, ``ratio``, ``xv``, ``negative``,
  ``antiknight``, ``antiking``, ``nonconsecutive``, ``odd``, ``even``,
  ``littlekillersum``, ``sandwichsum``, ``palindrome``, ``renban``, ``whispers``,
  ``regionsumline``, ``betweenline``, ``extraregion``); a ``line`` that only draws one of
  them (``fromConstraint``, as SudokuPad's export adds) is left out with a note, any other
  ``line`` is refused;
- optional ``title``, ``author``, ``ruleset`` and ``solution`` (N*N values, row-major).

A share link is the JSON compressed with lz-string's ``compressToBase64``
(:mod:`solver.lzstring`) after ``https://sudokupad.app/fpuzzles`` (SudokuPad) or
``https://www.f-puzzles.com/?load=`` (f-puzzles), URL-encoded (a raw ``+`` would read as a
space). :func:`read_fpuzzles` takes any of the forms people paste: the object, its JSON
text, the bare compressed text, and whole links: ``sudokupad.app/<id>``, with or without
``/sudoku`` or ``/sudoku.html``, ``?puzzleid=<id>``, any subdomain (beta., alpha.),
``app.crackingthecryptic.com``, ``sudokupad://puzzle/<id>``, ``f-puzzles.com/?load=``;
where ``<id>`` is ``fpuzzles`` or ``fpuz`` then the data, percent-encoded or not, with
SudokuPad's settings after it (``?setting-...``), and with the doubled slashes of the
Base64 text collapsed by a browser restored as SudokuPad does. SudokuPad's own formats
(``scl``, ``ctc``, ``scf``) and short ids stored on its server are refused by name. Bad
input raises :class:`FPuzzlesError` (a ValueError) with a message saying what is wrong;
constraints this site cannot play are refused by name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from solver.formats.lzstring import LZStringError, compress_to_base64, decompress_from_base64
from solver.grid import VALID_SIZES, Grid, Shape
from solver.rules.checks import is_variant_solution
from solver.rules.constraints import FPUZZLES_KEYS, ConstraintError, read_fpuzzles, write_fpuzzles
from solver.rules.ruleset import Cage, Rules, RulesError, check_puzzle

SHARE_PREFIX = "https://sudokupad.app/fpuzzles"
FPUZZLES_PREFIX = "https://www.f-puzzles.com/?load="
MAX_JSON = 200_000  # characters: a 25x25 puzzle with every cell caged stays well below
MAX_SIZE = 16  # SudokuPad's largest grid
_CELL = re.compile(r"^[Rr](\d{1,2})[Cc](\d{1,2})$")
KNOWN = {
    "size", "grid", "region", "killercage", "cage", "diagonal-", "diagonal+", "title",
    "author", "ruleset", "solution", "highlightConflicts", "disabledlogic",
    "truecandidatesoptions", "line", *FPUZZLES_KEYS,
}  # fmt: skip
_SUDOKUPAD = re.compile(
    r"^(?:https?://)?(?:app\.crackingthecryptic\.com|(?:[a-z0-9-]+\.)*sudokupad\.app)"
    r"(?:/sudoku(?:\.html)?)?/?(?:\?puzzleid=)?(?P<id>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_SUDOKUPAD_APP = re.compile(r"^sudokupad://puzzle/(?P<id>.*)$", re.IGNORECASE | re.DOTALL)
_FPUZZLES_SITE = re.compile(
    r"^(?:https?://)?(?:[a-z0-9-]+\.)*f-puzzles\.com(?P<rest>[/?].*)?$", re.IGNORECASE | re.DOTALL
)
_LOAD = re.compile(r"[?&]load=(?P<data>[^&#]*)")
SLASH_CHECKS = 400  # collapsed slashes tried back, at most (SudokuPad's own bound)


class FPuzzlesError(ValueError):
    """f-puzzles input that cannot be read; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class FPuzzle:
    """A puzzle read from f-puzzles: its rules, givens, and what else came with it."""

    rules: Rules
    puzzle: Grid
    solution: Grid | None = None
    title: str = ""
    author: str = ""
    ruleset: str = ""
    notes: tuple[str, ...] = ()  # what was read but left out (decorative cages)


def cell_ref(n: int, cell: int) -> str:
    """``R6C3`` for a cell index."""
    return f"R{cell // n + 1}C{cell % n + 1}"


def to_fpuzzles(
    rules: Rules,
    puzzle: Grid,
    *,
    solution: Grid | None = None,
    title: str = "",
    author: str = "",
    ruleset: str = "",
) -> dict[str, Any]:
    """The f-puzzles object for ``puzzle`` under ``rules``."""
    if rules.windows:
        raise FPuzzlesError("f-puzzles has no windows (Windoku) constraint")
    check_puzzle(rules, puzzle)
    n = rules.size
    boxes = Rules.classic(rules.shape).regions
    grid = []
    for r in range(n):
        row = []
        for k in range(n):
            c = r * n + k
            cell: dict[str, Any] = {}
            if puzzle.cells[c]:
                cell = {"value": puzzle.cells[c], "given": True}
            if rules.regions[c] != boxes[c]:
                cell["region"] = rules.regions[c]
            row.append(cell)
        grid.append(row)
    out: dict[str, Any] = {"size": n, "grid": grid}
    if rules.diagonals:
        out["diagonal-"] = True
        out["diagonal+"] = True
    if rules.cages:
        out["killercage"] = [
            {"cells": [cell_ref(n, c) for c in cage.cells]}
            | ({"value": str(cage.total)} if cage.total is not None else {})
            for cage in rules.cages
        ]
    for key, value in (("title", title), ("author", author), ("ruleset", ruleset)):
        if value:
            out[key] = value
    write_fpuzzles(rules.constraints, out, n)
    if solution is not None:
        out["solution"] = list(solution.cells)
    return out


def from_fpuzzles(data: Any) -> FPuzzle:
    """Read an f-puzzles object, its JSON text, its compressed text or a share link (see
    the module docstring); FPuzzlesError on anything wrong."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise FPuzzlesError("the puzzle is not UTF-8 text") from None
    if isinstance(data, str):
        if len(data) > MAX_JSON:
            raise FPuzzlesError(f"the puzzle is {len(data)} characters; at most {MAX_JSON}")
        text = data.strip()
        if not text.startswith(("{", "[", '"')):
            text = _unpack(text)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise FPuzzlesError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise FPuzzlesError("an f-puzzles puzzle is a JSON object")
    size = data.get("size")
    if not isinstance(size, int) or isinstance(size, bool):
        raise FPuzzlesError("size must be a whole number")
    if size not in VALID_SIZES or size > MAX_SIZE:
        raise FPuzzlesError(f"size {size} is not offered: 4 to {MAX_SIZE}, with boxes")
    _refuse_unknown(data)
    shape = Shape.for_size(size)
    n = size
    grid = data.get("grid")
    if not isinstance(grid, list) or len(grid) != n:
        raise FPuzzlesError(f"grid must be a list of {n} rows")
    values = [0] * (n * n)
    regions = list(Rules.classic(shape).regions)
    for r, row in enumerate(grid):
        if not isinstance(row, list) or len(row) != n:
            raise FPuzzlesError(f"grid row {r + 1} must be a list of {n} cells")
        for k, cell in enumerate(row):
            where = f"cell R{r + 1}C{k + 1}"
            if not isinstance(cell, dict):
                raise FPuzzlesError(f"{where} must be an object")
            value = cell.get("value")
            if value is not None and cell.get("given"):
                if not _is_int(value) or not 1 <= value <= n:
                    raise FPuzzlesError(f"{where}: {value!r} is not a value of a {n}x{n} grid")
                values[r * n + k] = value
            if "region" in cell:
                region = cell["region"]
                if not _is_int(region) or not 0 <= region < n:
                    raise FPuzzlesError(f"{where}: region {region!r} is not 0 to {n - 1}")
                regions[r * n + k] = region
    notes: list[str] = []
    cages = _cages(data.get("killercage"), n, "killercage", notes)
    cages += _cages(data.get("cage"), n, "cage", notes)
    diagonals = _flag(data, "diagonal-")
    if diagonals != _flag(data, "diagonal+"):
        raise FPuzzlesError("only both diagonals together are offered (Diagonal Sudoku)")
    _drawn_lines(data.get("line"), notes)
    try:
        constraints = read_fpuzzles(data, n)
    except ConstraintError as exc:
        raise FPuzzlesError(str(exc)) from None
    try:
        rules = Rules.make(
            shape, regions=regions, diagonals=diagonals, cages=cages, constraints=constraints
        )
        puzzle = Grid(shape, tuple(values))
        check_puzzle(rules, puzzle)
    except RulesError as exc:
        raise FPuzzlesError(str(exc)) from None
    solution = _solution(data.get("solution"), rules, puzzle)
    texts = {key: data.get(key, "") for key in ("title", "author", "ruleset")}
    for key, text in texts.items():
        if not isinstance(text, str) or len(text) > 10_000:
            raise FPuzzlesError(f"{key} must be text (at most 10,000 characters)")
    return FPuzzle(rules, puzzle, solution, **texts, notes=tuple(notes))


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise FPuzzlesError(f"{key} must be true or false")
    return value


def _refuse_unknown(data: dict[str, Any]) -> None:
    """Refuse constraints the site cannot play (a thermometer, an arrow...), by name."""
    for key, value in data.items():
        if key not in KNOWN and value not in (None, False, [], {}, ""):
            raise FPuzzlesError(f"the {key!r} constraint is not offered here")


def _drawn_lines(raw: Any, notes: list[str]) -> None:
    """Accept ``line`` entries that only draw a constraint read elsewhere; refuse others."""
    if raw in (None, [], ""):
        return
    if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
        raise FPuzzlesError("line must be a list of objects")
    for i, item in enumerate(raw, start=1):
        if not item.get("fromConstraint"):
            raise FPuzzlesError(
                f"line {i} is a line without a rule this site knows: the 'line' constraint "
                "is not offered here"
            )
        notes.append(f"line {i} draws a {item['fromConstraint']} read from its own key: left out")


def _cell(ref: Any, n: int, where: str) -> int:
    match = _CELL.match(ref) if isinstance(ref, str) else None
    if match is None:
        raise FPuzzlesError(f"{where}: {ref!r} is not a cell like R6C3")
    r, k = int(match[1]), int(match[2])
    if not (1 <= r <= n and 1 <= k <= n):
        raise FPuzzlesError(f"{where}: {ref} is outside a {n}x{n} grid")
    return (r - 1) * n + k - 1


def _cages(raw: Any, n: int, key: str, notes: list[str]) -> list[Cage]:
    """The sum cages under ``key``; decorations are left out with a note (see the module
    docstring)."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > n * n:
        raise FPuzzlesError(f"{key} must be a list of at most {n * n} cages")
    cages = []
    for i, cage in enumerate(raw, start=1):
        where = f"{key} {i}"
        if not isinstance(cage, dict) or not isinstance(cage.get("cells", []), list):
            raise FPuzzlesError(f"{where} must be an object with a list of cells")
        refs = cage.get("cells", [])
        value = cage.get("value")
        if isinstance(value, str):
            value = value.strip()
        if not refs:
            notes.append(f"{where} has no cells (a title or rules text): left out")
            continue
        if len(refs) > n:
            raise FPuzzlesError(f"{where} must have 1 to {n} cells")
        cells = [_cell(ref, n, where) for ref in refs]
        if len(set(cells)) != len(cells):
            raise FPuzzlesError(f"{where} names a cell twice")
        total = None
        if value not in (None, ""):
            text = str(value) if _is_int(value) or isinstance(value, str) else None
            if text is None:
                raise FPuzzlesError(f"{where}: its value {value!r} is neither a sum nor text")
            if not (text.isascii() and text.isdigit()) and key == "killercage":
                # An f-puzzles killer cage with "?" or text still forbids repeats.
                notes.append(
                    f"{where} carries text, not a sum ({text[:40]!r}): kept as a cage without a sum"
                )
                cages.append(Cage(tuple(sorted(cells)), None))
                continue
            if not (text.isascii() and text.isdigit()):
                notes.append(f"{where} carries text, not a sum ({text[:40]!r}): left out")
                continue
            if len(text) > 4:
                raise FPuzzlesError(f"{where}: its sum {text} is too large")
            total = int(text)
        elif key == "cage":
            notes.append(f"{where} has no sum (a decoration): left out")
            continue
        cages.append(Cage(tuple(sorted(cells)), total))
    return cages


def _solution(raw: Any, rules: Rules, puzzle: Grid) -> Grid | None:
    if raw is None:
        return None
    n = rules.size
    if isinstance(raw, list) and len(raw) == n and all(isinstance(r, list) for r in raw):
        raw = [v for row in raw for v in row]
    if not isinstance(raw, list) or len(raw) != n * n:
        raise FPuzzlesError(f"solution must be a list of {n * n} values")
    if not all(_is_int(v) and 1 <= v <= n for v in raw):
        raise FPuzzlesError(f"solution values must be 1 to {n}")
    solution = Grid(rules.shape, tuple(raw))
    if not is_variant_solution(rules, puzzle, solution):
        raise FPuzzlesError("the solution does not solve the puzzle under its rules")
    return solution


def share_link(data: dict[str, Any]) -> str:
    """The SudokuPad link that opens ``data`` (an f-puzzles object)."""
    return SHARE_PREFIX + quote(compress(data), safe="")


def fpuzzles_link(data: dict[str, Any]) -> str:
    """The f-puzzles link that opens ``data`` in the f-puzzles editor."""
    return FPUZZLES_PREFIX + quote(compress(data), safe="")


def compress(data: dict[str, Any]) -> str:
    """``data``'s JSON compressed as both sites share it (lz-string Base64)."""
    return compress_to_base64(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def read_share_link(link: str) -> FPuzzle:
    """The puzzle of a share link, or of its compressed text (see :func:`from_fpuzzles`)."""
    if not isinstance(link, str):
        raise FPuzzlesError(f"a share link is text of at most {MAX_JSON} characters")
    return from_fpuzzles(link)


def _unpack(text: str) -> str:
    """The JSON text of a share link or of lz-string Base64 text."""
    data = _link_data(text)
    if "%" in data:
        decoded = unquote(data)
        data = decoded if len(decoded) < len(data) else data  # as SudokuPad decodes
    # A link pasted unencoded has spaces where its + were; a wrapped one has line breaks.
    data = re.sub(r"[\t\r\n]", "", data).replace(" ", "+")
    if not data:
        raise FPuzzlesError("the link carries no puzzle")
    bad = sorted({ch for ch in data if ch not in _BASE64})
    if bad:
        raise FPuzzlesError(
            "not an f-puzzles object, its JSON text, its compressed text or a SudokuPad or "
            f"f-puzzles link (it has {''.join(bad[:5])!r})"
        )
    found = _decompressed(data)
    if found is None:
        found = _with_slashes_back(data)
    if found is None:
        raise FPuzzlesError("not a share link: the compressed puzzle cannot be read")
    return found


_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def _link_data(text: str) -> str:
    """The compressed data of a link (or ``text`` itself when it is no link)."""
    match = _FPUZZLES_SITE.match(text)
    if match is not None:
        load = _LOAD.search(match["rest"] or "")
        if load is None:
            if re.search(r"[?&]id=", match["rest"] or ""):
                raise FPuzzlesError(
                    "an f-puzzles short link is stored on f-puzzles' server, which this site "
                    "does not reach: open it there and share its long link (?load=...)"
                )
            raise FPuzzlesError("an f-puzzles link carries its puzzle after ?load=")
        return load["data"]
    match = _SUDOKUPAD.match(text) or _SUDOKUPAD_APP.match(text)
    if match is None:
        return text
    puzzle_id = re.split(r"[?&#]", match["id"].lstrip("/?"), maxsplit=1)[0]
    for prefix in ("fpuzzles", "fpuz"):
        if puzzle_id.startswith(prefix):
            return puzzle_id[len(prefix) :]
    for prefix in ("scl", "ctc", "scf"):
        if puzzle_id.startswith(prefix):
            raise FPuzzlesError(
                f"this SudokuPad link is in SudokuPad's own format ({prefix}), not f-puzzles: "
                "open it in f-puzzles (or SudokuPad's f-puzzles export) and share that link"
            )
    raise FPuzzlesError(
        "this SudokuPad link names a puzzle stored on SudokuPad's server, which this site "
        "does not reach: share its f-puzzles link (sudokupad.app/fpuzzles...) instead"
    )


def _decompressed(data: str) -> str | None:
    """The JSON text compressed in ``data``, or None when it is not that."""
    try:
        text = decompress_from_base64(data, max_length=MAX_JSON)
    except LZStringError as exc:
        if "expands beyond" in str(exc):
            raise FPuzzlesError(f"not a share link: {exc}") from None
        return None
    return text if text.lstrip().startswith("{") else None


def _with_slashes_back(data: str) -> str | None:
    """``data`` decompressed with one collapsed ``//`` restored (a browser or a chat app
    folds them in a URL's path), trying each single slash in turn, as SudokuPad does."""
    singles = [m.start() for m in re.finditer(r"(?<!/)/(?!/)", data)]
    for index in singles[:SLASH_CHECKS]:
        found = _decompressed(data[:index] + "/" + data[index:])
        if found is not None:
            return found
    return None
