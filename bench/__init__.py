"""The benchmarks of ``make bench`` (``python -m bench``): a module per section, each with
``run(quick: bool = False) -> list[str]`` returning Markdown lines. How to read the
figures: docs/performance.md."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "puzzles"


def load(name: str, limit: int | None = None) -> list[tuple[Any, list[str]]]:
    """(grid, the rest of the line) for the first ``limit`` puzzles of a data set (data/puzzles)."""
    from solver.grid import parse

    lines = (DATA / f"{name}.txt").read_text().splitlines()
    rows = [row for row in map(str.split, lines) if row][:limit]
    return [(parse(row[0]), row[1:]) for row in rows]


def cpu(work: Callable[..., object], *args: Any) -> float:
    """CPU seconds of this process spent on ``work(*args)``."""
    started = time.process_time()
    work(*args)
    return max(time.process_time() - started, 1e-9)


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation: Pearson's on the ranks, tied values sharing their mean."""
    return statistics.correlation(_ranks(a), _ranks(b))


def _ranks(xs: list[float]) -> list[float]:
    first: dict[float, int] = {}
    last: dict[float, int] = {}
    for i, x in enumerate(sorted(xs)):
        first.setdefault(x, i)
        last[x] = i
    return [(first[x] + last[x]) / 2 for x in xs]
