"""Importing puzzles from text or files: each line checked, graded and deduplicated."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from puzzles.bank import (
    PuzzleNotUnique,
    puzzle_existing,
    puzzle_get_or_create_from_grid,
    puzzle_key,
)
from puzzles.models import Source
from solver import Grid, ParseError, parse_many
from solver.formats.fpuzzles import FPuzzle, FPuzzlesError, from_fpuzzles
from sudokusite.errors import DomainError

IMPORT_MAX_BYTES = 5 * 1024 * 1024

IMPORT_MAX_PUZZLES = 20_000


@dataclass(frozen=True)
class ImportLine:
    line: int
    status: str  # imported, duplicate, invalid, multiple_solutions
    message: str
    puzzle_id: int | None = None


@dataclass
class ImportReport:
    """What happened to each puzzle of an import, by line number."""

    lines: list[ImportLine] = field(default_factory=list)
    committed: bool = True

    def of(self, status: str) -> list[ImportLine]:
        return [line for line in self.lines if line.status == status]

    @property
    def counts(self) -> dict[str, int]:
        out = {"imported": 0, "duplicate": 0, "invalid": 0, "multiple_solutions": 0}
        for line in self.lines:
            out[line.status] += 1
        return out

    @property
    def rejected(self) -> list[ImportLine]:
        return [line for line in self.lines if line.status in ("invalid", "multiple_solutions")]


class ImportRejected(DomainError):
    """A strict import met bad lines; nothing was imported. ``report`` says which."""

    code = "import_rejected"
    message = gettext_lazy("The import has bad lines; nothing was imported.")

    def __init__(self, report: ImportReport) -> None:
        bad = report.rejected
        lines = ", ".join(str(line.line) for line in bad[:10]) + (" ..." if len(bad) > 10 else "")
        super().__init__(
            f"{len(bad)} bad line(s) ({lines}); nothing was imported.",
            extra={"report": [vars(line) for line in bad]},
        )
        self.report = report


class ImportUnreadable(DomainError):
    code = "import_unreadable"
    message = gettext_lazy("The file cannot be read.")


def import_text_decode(data: bytes) -> str:
    """The text of an uploaded file; ImportUnreadable saying why it is not text."""
    if len(data) > IMPORT_MAX_BYTES:
        raise ImportUnreadable(
            _("The file has %(count)s bytes; the limit is %(limit)s.")
            % {"count": f"{len(data):,}", "limit": f"{IMPORT_MAX_BYTES:,}"}
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportUnreadable(
            _("line %(line)s: the file is not UTF-8 text.") % {"line": line}
        ) from None


def _sdk_body(text: str) -> str:
    """Drop the ``[Puzzle]`` section header and ``#`` metadata of SadMan .sdk files,
    keeping line numbers (blank lines are skipped by the parser)."""
    lines = text.splitlines()
    return "\n".join(
        "" if line.strip().lower() in ("[puzzle]", "[state]") else line for line in lines
    )


@transaction.atomic
def puzzle_import_text(
    *,
    text: str,
    strict: bool = False,
    box_rows: int | None = None,
    box_cols: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Import puzzles from text in any format the solver parses: one per line (``.txt``,
    ``.sdm``) or one grid over several lines (``.sdk``, a pretty grid); and variant or
    classic puzzles one per line as f-puzzles JSON, its compressed text, or a SudokuPad or
    f-puzzles share link (:func:`solver.formats.fpuzzles.from_fpuzzles`).

    Every puzzle is checked (exactly one solution), graded and deduplicated against the
    bank and the file. The import is one transaction, so it is never half done. By
    default the valid lines are imported and the bad ones reported; with ``strict`` a
    single bad line imports nothing (raises ImportRejected carrying the report).
    """
    if (box_rows is None) != (box_cols is None):
        raise ImportUnreadable(_("Give both box_rows and box_cols, or neither."))
    text, shared = _shared_lines(text)
    parsed = (
        parse_many(_sdk_body(text), box_rows=box_rows, box_cols=box_cols) if text.strip() else []
    )
    parsed = sorted([*parsed, *shared], key=lambda pair: pair[0])
    if not parsed:
        raise ImportUnreadable(_("The file holds no puzzle."))
    if len(parsed) > IMPORT_MAX_PUZZLES:
        raise ImportUnreadable(
            _("The file holds %(count)s puzzles; the limit is %(limit)s.")
            % {"count": f"{len(parsed):,}", "limit": f"{IMPORT_MAX_PUZZLES:,}"}
        )
    report = ImportReport()
    seen: dict[str, int] = {}  # canonical key -> line in this file
    for index, (line, item) in enumerate(parsed):
        if progress:
            progress(index, len(parsed))
        report.lines.append(_import_one(line, item, seen))
    if strict and report.rejected:
        transaction.set_rollback(True)
        report.committed = False
        raise ImportRejected(report)
    return report


def _in_bank(pk: int) -> str:
    return _("already in the bank as #%(id)s") % {"id": pk}


_SHARED = re.compile(
    r"^\s*(\{|N4Ig|fpuz|sudokupad://|(https?://)?([\w-]+\.)*(sudokupad\.app|"
    r"f-puzzles\.com|app\.crackingthecryptic\.com))",
    re.IGNORECASE,
)


def _shared_lines(text: str) -> tuple[str, list[tuple[int, FPuzzle | ParseError]]]:
    """The lines that are f-puzzles puzzles (JSON, compressed, links), read, and the text
    with those lines blanked (so the rest keeps its line numbers)."""
    kept, shared = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not _SHARED.match(line):
            kept.append(line)
            continue
        kept.append("")
        try:
            shared.append((number, from_fpuzzles(line)))
        except FPuzzlesError as exc:
            shared.append((number, ParseError("%(why)s", line=number, why=str(exc))))
    return "\n".join(kept), shared


def _import_variant(line: int, read: FPuzzle, seen: dict[str, int]) -> ImportLine:
    """A variant puzzle from a shared line, checked unique and graded by its logic."""
    from puzzles.variant_bank import variant_puzzle_store, variant_solution_checked
    from puzzles.variants import variant_key
    from solver.logic.variant_grade import variant_grade

    grid, rules = read.puzzle, read.rules
    key = variant_key(grid, rules)
    if key in seen:
        return ImportLine(
            line, "duplicate", _("the same puzzle as line %(line)s") % {"line": seen[key]}
        )
    try:
        solution = variant_solution_checked(grid, rules)
    except PuzzleNotUnique as exc:
        status = "multiple_solutions" if exc.code == "multiple_solutions" else "invalid"
        return ImportLine(line, status, str(exc.message))
    puzzle, created = variant_puzzle_store(
        grid=grid,
        rules=rules,
        solution=solution,
        source=Source.IMPORTED,
        graded=variant_grade(rules, grid),
    )
    seen[key] = line
    if not created:
        return ImportLine(line, "duplicate", _in_bank(puzzle.pk), puzzle.pk)
    message = f"#{puzzle.pk} {puzzle.variant} {puzzle.difficulty}"
    if puzzle.constrained:
        # Staff would otherwise expect it in the level games of its variant's name.
        message += " · " + _(
            "constraints (%(kinds)s): kept out of the level games, daily puzzles, practice "
            "and boards; played by its number or link"
        ) % {"kinds": ", ".join(puzzle.constraint_kinds)}
    return ImportLine(line, "imported", message, puzzle.pk)


def _import_one(line: int, item: Grid | ParseError | FPuzzle, seen: dict[str, int]) -> ImportLine:
    if isinstance(item, FPuzzle):
        if not item.rules.is_classic:
            return _import_variant(line, item, seen)
        item = item.puzzle
    if isinstance(item, ParseError):
        if item.line == line:  # the report names the line already
            item = ParseError(item.template, **item.params)
        return ImportLine(line, "invalid", item.render(_))
    grid = item
    key = puzzle_key(grid)
    if key in seen:
        return ImportLine(
            line, "duplicate", _("the same puzzle as line %(line)s") % {"line": seen[key]}
        )
    existing = puzzle_existing(grid, key)
    if existing is not None:
        seen[key] = line
        return ImportLine(line, "duplicate", _in_bank(existing.pk), existing.pk)
    try:
        puzzle, created = puzzle_get_or_create_from_grid(grid=grid, source=Source.IMPORTED)
    except PuzzleNotUnique as exc:
        status = "multiple_solutions" if exc.code == "multiple_solutions" else "invalid"
        return ImportLine(line, status, str(exc.message))
    seen[key] = line
    if not created:
        return ImportLine(line, "duplicate", _in_bank(puzzle.pk), puzzle.pk)
    return ImportLine(
        line, "imported", f"#{puzzle.pk} {puzzle.difficulty} ({puzzle.score})", puzzle.pk
    )


def puzzle_import_file(*, data: bytes, strict: bool = False, **kwargs: Any) -> ImportReport:
    """:func:`puzzle_import_text` for the bytes of a file."""
    return puzzle_import_text(text=import_text_decode(data), strict=strict, **kwargs)
