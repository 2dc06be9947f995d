"""Hints: the next logical step of the player's position, revealed in stages (1 where to
look, 2 the technique and why, 3 the step applied as an undoable move).

A hint is worked out from the values on the board and the eliminations earlier hints of
the game applied, never from the player's notes. A hint that judged the notes would be an
oracle: notes written to leave out one candidate at a time, and a one-stage hint answering
which notes are wrong, read out a whole puzzle for a few stages; and even a warning priced
as a full hint leaks, by its absence, that every note is right. Values are another matter:
the move that placed one already said whether it was right (and counted the mistake), so a
hint that names wrong values first tells nothing new. The eliminations of applied hints
are facts the player paid for (they hold in the solution), so the next hint starts from
them rather than finding them again. So a hint tells no more than its stage pays for:
learning a value through hints costs a stage-three hint, as placing it would. The price:
a hint does not know the eliminations a player made in their own notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from learn.constraint_lessons import constraint_lesson_of_step
from solver.generation.general_practice import technique_variant
from solver.logic.techniques import BY_SLUG
from solving.steps import hint_where, step_localized

from .board import Board, position_key
from .errors import HintUnavailable, MoveRejected
from .models import Game, Move, MoveKind
from .steps import (
    Player,
    board_entry,
    board_of,
    check_playable,
    check_version,
    complete_if_solved,
    game_locked,
    log_entry,
    save_locked,
    seen_of,
)

HINT_LEVELS = (1, 2, 3)
# Search nodes and technique passes one hint may use before it gives up.
HINT_BUDGET = 200_000


@dataclass(frozen=True)
class HintResult:
    level: int
    hint: dict[str, Any]
    game: Game


def _hint_eliminations(game: Game, board: Board) -> dict[int, set[int]]:
    """The values applied hints of this game eliminated from each empty cell: facts true
    in the solution whatever the board (a hint's eliminations never touch its value)."""
    out: dict[int, set[int]] = {}
    if game.hints_used < len(HINT_LEVELS):  # no hint can have been applied yet
        return out
    applied = Move.objects.filter(game=game, kind=MoveKind.HINT).values_list("response", flat=True)
    for response in applied:
        for pair in (response or {}).get("hint", {}).get("eliminations", []):
            cell = pair["cell"]
            if not board.value(cell):
                out.setdefault(cell, set()).add(pair["value"])
    return out


def _candidates_left(board: Board, eliminations: dict[int, set[int]]) -> dict[int, set[int]]:
    """Each cell's candidates from the board less ``eliminations``: the classic engine
    takes narrowed candidates where the variant engine takes the eliminations."""
    return {cell: board.candidates(cell) - values for cell, values in eliminations.items()}


def _practised(game: Game) -> str | None:
    """The engine's technique a practice game is for: a constraint lesson's is the one
    technique of them all, ``constraint`` (learn.constraint_lessons)."""
    from learn.constraint_lessons import constraint_lesson

    lesson = constraint_lesson(game.practice_technique)
    if lesson is not None:
        return "constraint" if lesson.steps else None
    return game.practice_technique or None


def _next_step(game: Game, board: Board) -> dict[str, Any]:
    from solver import BudgetExceeded
    from solver.logic.classic import next_step

    if game.puzzle.rules:
        from .variant_hints import variant_hint_step

        found = variant_hint_step(
            puzzle=game.puzzle,
            entries=board.grid(),
            eliminations=_hint_eliminations(game, board),
            prefer=_practised(game),  # a practice game's technique first
        )
        if found is None:
            raise HintUnavailable(_("The board is solved: there is nothing to hint."))
        return found
    try:
        puzzle = game.puzzle
        step = next_step(
            puzzle.grid(),
            board.grid(),
            # Never the player's notes: see the module docstring.
            _candidates_left(board, _hint_eliminations(game, board)),
            budget=HINT_BUDGET,
            solution=puzzle.solution_grid(),  # checked unique when stored: no search per hint
            # A practice game's technique first, when the board has one: what it is for.
            prefer=game.practice_technique or None,
        )
    except BudgetExceeded as exc:
        raise HintUnavailable(_("This position is too hard for a hint: try a move.")) from exc
    except ValueError as exc:
        raise HintUnavailable(_("No hint can be given for this puzzle.")) from exc
    if step is None:
        raise HintUnavailable(_("The board is solved: there is nothing to hint."))
    return step.to_dict()


def hint_reveal(step: dict[str, Any], level: int) -> dict[str, Any]:
    """What a hint shows at ``level``: 1 where to look, 2 the technique and why, 3 the move.

    Rendered in the active language from the step's parameters (solving.steps), so a hint
    stored while the player read English shows in Chinese once they switch."""
    technique = step["technique"]
    where = hint_where(step)
    step = step_localized(step)
    out: dict[str, Any] = {"level": level, "message": where}
    if technique in ("incorrect_entry", "incorrect_note") or not step["unit_names"]:
        out.update(cells=step["cells"], cell_names=step["cell_names"], units=[], unit_names=[])
    else:
        out.update(units=step["units"], unit_names=step["unit_names"], cells=[], cell_names=[])
    if level >= 2:
        out.update(
            technique=technique,
            lesson_url=_lesson_url(step),
            name=step["name"],
            message=step["sentence"],
            units=step["units"],
            unit_names=step["unit_names"],
            cells=step["cells"],
            cell_names=step["cell_names"],
        )
    if level >= 3:
        out.update(placements=step["placements"], eliminations=step["eliminations"])
    return out


def _lesson_url(step: dict[str, Any]) -> str | None:
    """The lesson page of a step's engine technique, a Killer one's too, and a constraint
    step's lesson (None for incorrect entries, search...)."""
    technique = step["technique"]
    lesson = constraint_lesson_of_step(step)
    if lesson is not None:
        return reverse("learn:lesson", args=[lesson.slug])
    has_lesson = technique in BY_SLUG or technique_variant(technique) is not None
    return reverse("learn:lesson", args=[technique]) if has_lesson else None


def _apply_step(board: Board, step: dict[str, Any]) -> None:
    technique = step["technique"]
    if technique == "incorrect_entry":
        for cell in step["cells"]:
            board.set_value(cell, 0)
        return
    if technique == "incorrect_note":
        for cell in step["cells"]:
            board.set_notes(cell, [])
        return
    for pair in step["placements"]:
        board.set_value(pair["cell"], pair["value"])
        board.set_notes(pair["cell"], [])
        board.clear_from_peer_notes(pair["cell"], pair["value"])
    for pair in step["eliminations"]:
        cell, value = pair["cell"], pair["value"]
        if board.value(cell):
            continue
        # A cell without notes gets its candidates written in, less the eliminated value,
        # so the elimination shows on the board and the next hint starts from it.
        notes = set(board.cell_notes(cell)) or board.candidates(cell)
        board.set_notes(cell, notes - {value})


@transaction.atomic
def hint_request(
    *, game_id: int, player: Player, level: int, version: int | None = None
) -> HintResult:
    """Reveal the next logical step in stages; each stage not yet paid for costs score.

    The step is worked out by ``solver.logic.classic.next_step`` from the values on the board (not
    the notes: see the module docstring) and kept only for that position: after any
    change it is worked out afresh.
    Asking for level 2 first pays for levels 1 and 2. Level 3 applies the step (placing
    the value or making the eliminations) as an undoable move.
    """
    if level not in HINT_LEVELS:
        raise ValidationError({"level": [_("Choose level 1, 2 or 3.")]})
    game = game_locked(game_id, player)
    check_playable(game)
    check_version(game, version)
    if game.race_id is not None:
        raise MoveRejected(_("Hints are off in a race."), code="hints_off_in_race")
    seen = seen_of(game)
    board = board_of(game)
    key = position_key(game.entries, game.notes)
    if game.hint and game.hint_key == key:
        step, stage = game.hint, game.hint_stage
    else:
        step, stage = _next_step(game, board), 0
    revealed = hint_reveal(step, level)
    charge = max(0, level - stage)
    if level < 3 and charge == 0:
        return HintResult(level, revealed, game)
    now = timezone.now()
    game.hints_used += charge
    if level < 3:
        game.hint, game.hint_stage, game.hint_key = step, level, key
        entry = log_entry(game, now, kind=MoveKind.HINT_REVEAL, value=level)
    else:
        game.hint, game.hint_stage, game.hint_key = None, 0, ""
        _apply_step(board, step)
        complete_if_solved(game, board, now)
        entry = board_entry(
            game,
            board,
            now,
            kind=MoveKind.HINT,
            cell=step["cells"][0] if step["cells"] else None,
            value=step["placements"][0]["value"] if step["placements"] else 0,
            response={"hint": revealed},
        )
    save_locked(game, entry, seen=seen)
    return HintResult(level, revealed, game)


def pending_hint(game: Game) -> dict[str, Any] | None:
    """The hint revealed so far for the current position, if any (shown with the game)."""
    if not game.hint or not game.hint_stage:
        return None
    if game.hint_key != position_key(game.entries, game.notes):
        return None
    return hint_reveal(game.hint, game.hint_stage)
