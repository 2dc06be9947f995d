"""The logic engine of a puzzle's rules, behind one face: classic or variant.

What judges a player's moves (the replay's analysis, the integrity review) asks the same
questions of any puzzle: the candidates of a board, the techniques in the engine's order
with their levels, which single places a value in a cell, the engine's own path through
the puzzle, the step it would take next. :func:`engine_for` answers with the classic
engine (:mod:`solver.logic.classic`, its board and techniques) for boxes and nothing else, so a
classic puzzle is judged exactly as before, and with the variant engine
(:mod:`solver.logic.general`, :class:`~solver.logic.houses.VBoard`) for any other rules:
its techniques read the houses and cages, never the variant's name.

The variant engine knows fewer techniques than the classic one (no uniqueness patterns, and
Killer reasoning past its sums and cage sets: docs/solver.md): a placement only those would
find counts as not deducible under it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from functools import cache, cached_property, lru_cache
from typing import Any, Protocol

from solver.grid import BudgetExceeded, Grid, Shape, tables
from solver.logic.general import BY_SLUG as VARIANT_BY_SLUG
from solver.logic.general import LEVELS as VARIANT_LEVELS
from solver.logic.general import techniques_for, variant_logic_solve, variant_next_step
from solver.logic.houses import VBoard
from solver.logic.techniques import BY_SLUG as CLASSIC_BY_SLUG
from solver.logic.techniques import LEVELS as CLASSIC_LEVELS
from solver.logic.techniques import ORDER as CLASSIC_ORDER
from solver.logic.techniques import SINGLES
from solver.logic.techniques.base import Board, Step
from solver.logic.variant_grade import KILLER_TECHNIQUES
from solver.rules.ruleset import RULES_CACHED, Rules, layout

__all__ = ["ClassicEngine", "LogicEngine", "TechniqueLike", "VariantEngine", "engine_for"]

SEARCH = "search"
"""The slug of a trial, the classic hint's step when no technique applies."""

VARIANT_SCORES = {slug: effort for slug, (_, effort) in KILLER_TECHNIQUES.items()}
"""The effort of Killer's own techniques, on the classic's score scale
(:data:`solver.logic.variant_grade.KILLER_TECHNIQUES`)."""


class TechniqueLike(Protocol):
    @property
    def slug(self) -> str: ...

    @property
    def level(self) -> str: ...

    @property
    def find(self) -> Callable[[Any], Iterator[Step]]: ...


class LogicEngine(ABC):
    """One engine's answers; :class:`ClassicEngine` and :class:`VariantEngine` fill them in."""

    shape: Shape
    levels: tuple[str, ...]
    techniques: tuple[TechniqueLike, ...]
    complete = True
    """Whether a board the techniques cannot advance is beyond what people find: true of
    the classic engine (chains, loops and ALS); not of the variant one, which lacks the
    uniqueness patterns, sums past eight open cells and chains through cage combinations
    (docs/solver.md, what is left)."""

    @abstractmethod
    def board(self, values: Sequence[int]) -> Any:
        """The board with candidates from the placed values; None if they clash."""
        raise NotImplementedError

    @abstractmethod
    def copy(self, board: Any) -> Any:
        raise NotImplementedError

    @abstractmethod
    def houses_of(self, cell: int) -> tuple[tuple[int, ...], ...]:
        """The cells of each house ``cell`` is in."""
        raise NotImplementedError

    @abstractmethod
    def score(self, slug: str) -> int:
        """The effort one use of a technique stands for (0 for an unknown one)."""
        raise NotImplementedError

    @abstractmethod
    def info(self, slug: str) -> dict[str, Any]:
        """Slug, name and level of a technique (level None for one outside the table)."""
        raise NotImplementedError

    @abstractmethod
    def rank(self, slug: str) -> tuple[int, int]:
        """The order of difficulty of a known technique: its level first."""
        raise NotImplementedError

    @abstractmethod
    def known(self, slug: str) -> bool:
        """Whether ``slug`` is one of the engine's techniques (a trial is not)."""
        raise NotImplementedError

    @abstractmethod
    def path(self, givens: Sequence[int], budget: int) -> list[int]:
        """The cells in the order the engine places them from the givens."""
        raise NotImplementedError

    @abstractmethod
    def next_technique(
        self, givens: Sequence[int], values: Sequence[int], solution: Grid
    ) -> str | None:
        """The technique the engine would use first from ``values`` (right values only):
        None when the board is solved, ``search`` when no technique applies."""
        raise NotImplementedError

    @abstractmethod
    def easiest_placement(self, values: Sequence[int], cell: int, value: int) -> str | None:
        """The easiest technique that places ``value`` in ``cell`` (solver.logic.placement)."""
        raise NotImplementedError

    # -- derived from the techniques ------------------------------------------------------

    @cached_property
    def singles(self) -> tuple[TechniqueLike, ...]:
        return tuple(t for t in self.techniques if t.slug in SINGLES)

    @cached_property
    def harder(self) -> tuple[TechniqueLike, ...]:
        """Every technique but the singles, in the engine's order."""
        return tuple(t for t in self.techniques if t.slug not in SINGLES)

    @cached_property
    def routine(self) -> tuple[TechniqueLike, ...]:
        """The easy techniques that are not singles (a Killer's cage combinations): players
        repeat them as a matter of course, as they fill in notes; the classic has none."""
        return tuple(t for t in self.harder if t.level == "easy")

    @cached_property
    def at_a_glance(self) -> tuple[TechniqueLike, ...]:
        """The eliminations a person sees on the board as it is: the easy and medium
        techniques that are not singles (locked candidates, pairs, a cage's combinations)."""
        return tuple(t for t in self.harder if t.level in ("easy", "medium"))


class ClassicEngine(LogicEngine):
    """Rows, columns and boxes: :mod:`solver.logic.classic` and its techniques."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.levels = CLASSIC_LEVELS
        self.techniques = CLASSIC_ORDER

    def board(self, values: Sequence[int]) -> Board | None:
        return Board.from_values(self.shape, values)

    def copy(self, board: Board) -> Board:
        return board.copy()

    def houses_of(self, cell: int) -> tuple[tuple[int, ...], ...]:
        t = tables(self.shape)
        return tuple(t.units[u] for u in t.cell_units[cell])

    def score(self, slug: str) -> int:
        t = CLASSIC_BY_SLUG.get(slug)
        return t.score if t is not None else 0

    def info(self, slug: str) -> dict[str, Any]:
        t = CLASSIC_BY_SLUG.get(slug)
        if t is None:
            return {"slug": slug, "name": slug.replace("_", " ").capitalize(), "level": None}
        return {"slug": t.slug, "name": t.name, "level": t.level}

    def rank(self, slug: str) -> tuple[int, int]:
        t = CLASSIC_BY_SLUG[slug]
        return CLASSIC_LEVELS.index(t.level), t.score

    def known(self, slug: str) -> bool:
        return slug in CLASSIC_BY_SLUG

    def path(self, givens: Sequence[int], budget: int) -> list[int]:
        from solver.logic.classic import logic_solve

        try:
            steps = logic_solve(Grid(self.shape, tuple(givens)), budget=budget).steps
        except (BudgetExceeded, ValueError):
            return []
        return [cell for step in steps for cell, _ in step.placements]

    def next_technique(
        self, givens: Sequence[int], values: Sequence[int], solution: Grid
    ) -> str | None:
        from solver.logic.classic import next_step

        shape = self.shape
        try:
            step = next_step(
                Grid(shape, tuple(givens)), Grid(shape, tuple(values)), solution=solution
            )
        except ValueError:
            return None
        return None if step is None else step.technique

    def easiest_placement(self, values: Sequence[int], cell: int, value: int) -> str | None:
        from solver.logic.placement import easiest_placement

        return easiest_placement(Grid(self.shape, tuple(values)), cell, value)


class VariantEngine(LogicEngine):
    """Any rules: :mod:`solver.logic.general` on a :class:`VBoard`."""

    complete = False

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.shape = rules.shape
        self.levels = VARIANT_LEVELS
        self.techniques = techniques_for(rules)
        self._order = {t.slug: i for i, t in enumerate(self.techniques)}

    def board(self, values: Sequence[int]) -> VBoard | None:
        board = VBoard.from_grid(self.rules, Grid(self.shape, tuple(values)))
        if board is not None:
            board.explain = False  # the judges read placements and eliminations only
        return board

    def copy(self, board: VBoard) -> VBoard:
        copied = VBoard(self.rules, board.values[:], board.cand[:])
        copied.explain = board.explain
        return copied

    def houses_of(self, cell: int) -> tuple[tuple[int, ...], ...]:
        lay = layout(self.rules)
        return tuple(lay.houses[h] for h in lay.cell_houses[cell])

    def score(self, slug: str) -> int:
        if slug in VARIANT_SCORES:
            return VARIANT_SCORES[slug]
        t = CLASSIC_BY_SLUG.get(slug)
        return t.score if t is not None else 0

    def info(self, slug: str) -> dict[str, Any]:
        t = VARIANT_BY_SLUG.get(slug)
        if t is None:
            return {"slug": slug, "name": slug.replace("_", " ").capitalize(), "level": None}
        return {"slug": t.slug, "name": t.name, "level": t.level}

    def rank(self, slug: str) -> tuple[int, int]:
        t = VARIANT_BY_SLUG[slug]
        return VARIANT_LEVELS.index(t.level), self._order.get(slug, len(self._order))

    def known(self, slug: str) -> bool:
        return slug in VARIANT_BY_SLUG

    def path(self, givens: Sequence[int], budget: int) -> list[int]:
        grid = Grid(self.shape, tuple(givens))
        steps = variant_logic_solve(self.rules, grid, max_steps=budget, explain=False).steps
        return [cell for step in steps for cell, _ in step.placements]

    def next_technique(
        self, givens: Sequence[int], values: Sequence[int], solution: Grid
    ) -> str | None:
        grid = Grid(self.shape, tuple(values))
        if grid.is_complete():
            return None
        step = variant_next_step(self.rules, grid)
        return SEARCH if step is None else step.technique

    def easiest_placement(self, values: Sequence[int], cell: int, value: int) -> str | None:
        from solver.logic.placement import placement_technique

        board = self.board(values)
        if board is None or not 0 <= cell < self.shape.ncells or values[cell]:
            return None
        return placement_technique(
            board,
            cell,
            value,
            houses=self.houses_of(cell),
            singles=self.singles,
            harder=self.harder,
        )


@cache
def _classic(shape: Shape) -> ClassicEngine:
    return ClassicEngine(shape)


@lru_cache(maxsize=RULES_CACHED)  # bounded: every Jigsaw and Killer has rules of its own
def _variant(rules: Rules) -> VariantEngine:
    return VariantEngine(rules)


def engine_for(rules: Rules | Shape) -> LogicEngine:
    """The engine that judges play under ``rules`` (a shape: its classic rules)."""
    if isinstance(rules, Shape):
        return _classic(rules)
    return _classic(rules.shape) if rules.is_classic else _variant(rules)
