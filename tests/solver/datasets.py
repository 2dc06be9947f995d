"""The puzzle data sets kept in the repository (data/puzzles), for tests."""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "puzzles"


def names() -> list[str]:
    """The file names of every data set, sorted."""
    return sorted(p.name for p in DATA_DIR.glob("*.txt"))


def _lines(name: str) -> list[str]:
    path = DATA_DIR / (name if name.endswith(".txt") else f"{name}.txt")
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def load(name: str) -> list[str]:
    """The puzzles of one data set (``norvig_top95`` or ``norvig_top95.txt``), one per line.

    Only the puzzle is returned: a rating after it (``se_rated_diabolical``) is dropped.
    """
    return [line.split()[0] for line in _lines(name)]


def load_rated(name: str) -> list[tuple[str, float]]:
    """(puzzle, rating) for a rated data set such as ``se_rated_diabolical``."""
    return [(line.split()[0], float(line.split()[1])) for line in _lines(name)]
