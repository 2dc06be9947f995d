"""Real puzzles for game tests: the solution comes from the solver, uniqueness is checked."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from puzzles.models import Puzzle
from solver import count_solutions, format_line, parse, solve

# Wikipedia's example puzzle: singles all the way.
NINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# A 4x4 with six empty cells: a whole game is a handful of moves.
FOUR = "1.3.34.22.4..3.1"
FOUR_B = ".14.3..21..4432."


def puzzle_create(givens: str = FOUR, *, difficulty: str = "easy", **extra: Any) -> Puzzle:
    """Store a puzzle with its one solution (or return the stored one)."""
    grid = parse(givens)
    assert count_solutions(grid, limit=2) == 1, "test puzzles must have one solution"
    solution = solve(grid)
    assert solution is not None
    line = format_line(grid)
    puzzle, _ = Puzzle.objects.get_or_create(
        size=grid.shape.size,
        givens=line,
        defaults={
            "box_rows": grid.shape.box_rows,
            "box_cols": grid.shape.box_cols,
            "solution": format_line(solution),
            "difficulty": difficulty,
            "score": 10,
            "clue_count": grid.clues,
            "canonical_key": hashlib.sha256(line.encode()).hexdigest(),
            "source": "imported",
            **extra,
        },
    )
    return puzzle


def play_move(game: Any, player: Any, cell: int, value: int, kind: str = "value") -> Any:
    """One move through ``play.moves.move_apply`` with a fresh client move id."""
    from play.moves import move_apply

    return move_apply(
        game_id=game.pk,
        player=player,
        client_move_id=uuid.uuid4(),
        kind=kind,
        cell=cell,
        value=value,
    )


def empty_cells(puzzle: Puzzle) -> list[int]:
    return [i for i, ch in enumerate(puzzle.givens) if ch == "."]


def logical_order(puzzle: Puzzle) -> list[int]:
    """The empty cells in the order the puzzle's logic engine places them (classic or
    the variant's), then any it leaves: a person's order, which the review calls sound."""
    from puzzles.variants import rules_of
    from solver.logic.engines import engine_for

    givens = [int(ch, 36) if ch != "." else 0 for ch in puzzle.givens]
    order = engine_for(rules_of(puzzle)).path(givens, 3000)
    placed = set(order)
    return order + [c for c in empty_cells(puzzle) if c not in placed]


def value_at(puzzle: Puzzle, cell: int) -> int:
    return int(puzzle.solution[cell], 36) if puzzle.size <= 9 else _value(puzzle.solution[cell])


def wrong_value_at(puzzle: Puzzle, cell: int) -> int:
    right = value_at(puzzle, cell)
    return 1 if right != 1 else 2


def _value(symbol: str) -> int:
    from solver import SYMBOLS

    return SYMBOLS.index(symbol) + 1
