"""A game's position at every moment, rebuilt from its event log.

Every event of the log (``play.models.Move``) carries exactly the changes it made:
``{"entries": [[cell, before, after], ...], "notes": [[cell, [before], [after]], ...]}``
(entries as symbols, ``.`` empty). Applying them in ``seq`` order from the givens gives the
board and the notes after each event; this module does that on plain data, so the replay
page (static/js/replay.js does the same in the browser), the analysis and the tests share
one definition.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

EMPTY = "."


@dataclass
class Position:
    """Entries (a list of symbols) and notes (``{"cell": [values]}``, no empty lists)."""

    entries: list[str]
    notes: dict[str, list[int]] = field(default_factory=dict)
    corners: dict[str, list[int]] = field(default_factory=dict)
    colours: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def start(cls, givens: str) -> Position:
        return cls(list(givens), {})

    @property
    def line(self) -> str:
        return "".join(self.entries)

    def apply(self, changes: Mapping[str, Any]) -> None:
        """Apply one event's changes (forward)."""
        for cell, _before, after in changes.get("entries", ()):
            self.entries[cell] = after
        for key, marks in (
            ("notes", self.notes),
            ("corners", self.corners),
            ("colours", self.colours),
        ):
            for cell, _before, after in changes.get(key, ()):
                if after:
                    marks[str(cell)] = sorted(after)
                else:
                    marks.pop(str(cell), None)


def positions(givens: str, events: Iterable[Mapping[str, Any]]) -> Iterator[Position]:
    """The position after each event, in order (one Position object, updated in place)."""
    position = Position.start(givens)
    for event in events:
        position.apply(event.get("changes") or {})
        yield position


def final_position(givens: str, events: Iterable[Mapping[str, Any]]) -> Position:
    """The position after the last event (the givens when there is none)."""
    position = Position.start(givens)
    for event in events:
        position.apply(event.get("changes") or {})
    return position
