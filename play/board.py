"""A game's board as the services edit it: entries as a list of symbols, notes as sets.

Entries are stored as one line of symbols (``.`` empty, ``1``-``9`` then ``A``-``P``) and
notes as ``{"cell": [values]}``; this module converts between those and the solver's
grids, and records every change so a move can be undone and redone.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from solver import SYMBOLS, Grid, Shape, parse, tables

EMPTY = "."


def symbol(value: int) -> str:
    return SYMBOLS[value - 1] if value else EMPTY


def value_of(sym: str) -> int:
    return 0 if sym == EMPTY else SYMBOLS.index(sym) + 1


def position_key(entries: str, notes: dict[str, list[int]]) -> str:
    """A short digest of a position (board and notes): a hint is valid for one position."""
    raw = entries + json.dumps(notes, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(raw.encode(), usedforsecurity=False).hexdigest()


@dataclass
class Board:
    """A mutable copy of a game's entries and notes that records what changed."""

    shape: Shape
    cells: list[str]
    notes: dict[str, list[int]]
    entry_changes: list[list[Any]] = field(default_factory=list)
    note_changes: list[list[Any]] = field(default_factory=list)
    # Corner marks, kept and changed as the notes are (a separate set per cell).
    corners: dict[str, list[int]] = field(default_factory=dict)
    corner_changes: list[list[Any]] = field(default_factory=list)
    # Cell colours (1 to 9, several to a cell), on any cell, givens too.
    colours: dict[str, list[int]] = field(default_factory=dict)
    colour_changes: list[list[Any]] = field(default_factory=list)
    # Each cell's peers under the puzzle's rules (houses and cage mates); None: the boxes'.
    rule_peers: tuple[tuple[int, ...], ...] | None = None

    @classmethod
    def of(
        cls,
        shape: Shape,
        entries: str,
        notes: dict[str, list[int]],
        peers: tuple[tuple[int, ...], ...] | None = None,
        *,
        corners: dict[str, list[int]] | None = None,
        colours: dict[str, list[int]] | None = None,
    ) -> Board:
        return cls(
            shape,
            list(entries),
            {k: list(v) for k, v in notes.items()},
            rule_peers=peers,
            corners={k: list(v) for k, v in (corners or {}).items()},
            colours={k: list(v) for k, v in (colours or {}).items()},
        )

    @property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        return self.rule_peers if self.rule_peers is not None else tables(self.shape).peers

    @property
    def entries(self) -> str:
        return "".join(self.cells)

    def value(self, cell: int) -> int:
        return value_of(self.cells[cell])

    def cell_notes(self, cell: int) -> list[int]:
        return self.notes.get(str(cell), [])

    def set_value(self, cell: int, value: int) -> None:
        before = self.cells[cell]
        after = symbol(value)
        if before != after:
            self.cells[cell] = after
            self.entry_changes.append([cell, before, after])

    def cell_corners(self, cell: int) -> list[int]:
        return self.corners.get(str(cell), [])

    def set_notes(self, cell: int, values: list[int] | set[int]) -> None:
        _set_marks(self.notes, self.note_changes, cell, values)

    def set_corners(self, cell: int, values: list[int] | set[int]) -> None:
        _set_marks(self.corners, self.corner_changes, cell, values)

    def set_colours(self, cell: int, values: list[int] | set[int]) -> None:
        _set_marks(self.colours, self.colour_changes, cell, values)

    def clear_from_peer_notes(self, cell: int, value: int) -> None:
        """Placing ``value`` in ``cell`` rules it out of every peer's notes and corner marks."""
        for peer in self.peers[cell]:
            notes = self.notes.get(str(peer))
            if notes and value in notes:
                self.set_notes(peer, [v for v in notes if v != value])
            corners = self.corners.get(str(peer))
            if corners and value in corners:
                self.set_corners(peer, [v for v in corners if v != value])

    def peers_holding(self, cell: int, value: int) -> list[int]:
        """The peers of ``cell`` (same house or cage) that hold ``value``."""
        sym = symbol(value)
        return [p for p in self.peers[cell] if self.cells[p] == sym]

    def candidates(self, cell: int) -> set[int]:
        """Values no peer holds."""
        taken = {self.cells[p] for p in self.peers[cell]}
        return {v for v in range(1, self.shape.size + 1) if symbol(v) not in taken}

    @property
    def changes(self) -> dict[str, list[list[Any]]]:
        out: dict[str, list[list[Any]]] = {}
        if self.entry_changes:
            out["entries"] = self.entry_changes
        if self.note_changes:
            out["notes"] = self.note_changes
        if self.corner_changes:
            out["corners"] = self.corner_changes
        if self.colour_changes:
            out["colours"] = self.colour_changes
        return out

    def replay(self, changes: dict[str, list[list[Any]]], *, forward: bool) -> None:
        """Apply a recorded move again (redo) or take it back (undo)."""
        for cell, before, after in changes.get("entries", []):
            self.set_value(cell, value_of(after if forward else before))
        for cell, before, after in changes.get("notes", []):
            self.set_notes(cell, after if forward else before)
        for cell, before, after in changes.get("corners", []):
            self.set_corners(cell, after if forward else before)
        for cell, before, after in changes.get("colours", []):
            self.set_colours(cell, after if forward else before)

    def grid(self) -> Grid:
        return parse(self.entries, box_rows=self.shape.box_rows, box_cols=self.shape.box_cols)

    def notes_for_solver(self) -> dict[int, set[int]]:
        return {int(c): set(v) for c, v in self.notes.items() if v}


def _set_marks(
    marks: dict[str, list[int]], log: list[list[Any]], cell: int, values: list[int] | set[int]
) -> None:
    """Set one cell's marks (notes or corner marks), logging the change if there is one."""
    before = marks.get(str(cell), [])
    after = sorted(set(values))
    if before == after:
        return
    if after:
        marks[str(cell)] = after
    else:
        marks.pop(str(cell), None)
    log.append([cell, before, after])
