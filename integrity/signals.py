"""Signals of implausible play, computed from a game's move log (pure: no Django).

A game is a list of :class:`Event` (every logged write, in order, each with the game clock
in milliseconds after it) plus the puzzle. The signals, the floors and the threshold are
explained in docs/integrity.md; in short, a game is judged when it has at least
``min_placements(size)`` placements (fewer: not judged) and flagged when any of these holds:

- ``under_floor_share >= UNDER_FLOOR_SHARE``: at least half of the placements came less than
  ``HUMAN_FLOOR_MS`` after the previous event (selecting a cell and typing a digit takes a
  person more than that);
- ``ms_per_placement < placement_floor_ms(size, level)``: the whole game went faster per
  placement than the fastest people solve puzzles of its level (of its size, on 4x4 and
  6x6);
- ``blind_quick >= BLIND_MIN`` and ``blind_share >= BLIND_SHARE``: many placements of a
  cell that no technique could place at that moment, each made less than
  ``BLIND_PAUSE_MS`` after the previous event: a solution copied, not found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from solver import Shape
from solver.logic.engines import LogicEngine, engine_for

HUMAN_FLOOR_MS = 250
"""Less than this from one event to a placement is taken as no person's move."""

UNDER_FLOOR_SHARE = 0.5

LEVEL_FLOOR_MS = {"easy": 700, "medium": 900, "hard": 1200, "expert": 1500, "master": 2000}
"""The least time per placement, on average over a game, that people reach at each level
(below the fastest published speed-solving times)."""

BLIND_PAUSE_MS = 2000
"""A placement of a cell no technique could place, made sooner than this after the
previous event, is a *blind quick* placement."""

BLIND_MIN = 4
BLIND_SHARE = 0.07

MIN_PLACEMENTS = 15
"""Fewer placements are too little evidence on a 9x9 or bigger grid: such a game is not
judged (and, not judged, it does not count: integrity.gate)."""

MIN_PLACEMENTS_BY_SIZE = {4: 4, 6: 8}
"""Small grids hold few empty cells, so they are judged from fewer placements (a 4x4 of
the bank has 8 to 12 empty cells, a 6x6 about 20)."""

SIZE_FLOOR_MS = {4: 500, 6: 650}
"""On a small grid every cell is found at a glance, so the floor of time per placement is
the least it takes to pick a cell and type a digit, whatever the level: below the level
floors, well above a script (a 4x4 placed by script in 0.16 s is 16 ms a placement)."""

FASTEST_COUNT = 5
PLACEABLE_CHECKS = 120
"""Positions judged per game at most (a 9x9 has at most 64 placements; a 16x16 bot's whole
game takes about a second to judge, so the rest of a bigger game is not)."""

PLACEABLE_PASS_LIMIT = 100
"""Eliminations the engine may make looking for its next placement; a position that needs
more counts as "unknown", never as blind."""


@dataclass(frozen=True, slots=True)
class Event:
    """One logged write: its kind, the cell and value it set (0 = cleared), whether the
    value was right, the game clock after it, and whether it was a player's own placement."""

    kind: str
    cell: int | None
    value: int
    clock_ms: int
    placement: bool = False
    correct: bool | None = None
    entries: tuple[tuple[int, int], ...] = ()  # (cell, value after) of every cell it changed


@dataclass(frozen=True, slots=True)
class Signals:
    placements: int
    fastest_ms: list[int]
    under_floor: int
    under_floor_share: float
    ms_per_placement: int | None
    level_floor_ms: int
    blind_quick: int
    blind_share: float
    # Enough placements to judge (``min_placements``); a game not judged is not flagged,
    # and does not count either.
    judged: bool = True
    reasons: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def min_placements(size: int) -> int:
    """The fewest placements a game of this grid size is judged from."""
    return MIN_PLACEMENTS_BY_SIZE.get(size, MIN_PLACEMENTS)


def placement_floor_ms(size: int, level: str) -> int:
    """The least average time per placement a person reaches at this size and level."""
    if size in SIZE_FLOOR_MS:
        return SIZE_FLOOR_MS[size]
    return LEVEL_FLOOR_MS.get(level, LEVEL_FLOOR_MS["easy"])


def _singles(engine: LogicEngine, board: Any) -> set[int]:
    return {c for tech in engine.singles for step in tech.find(board) for c, _ in step.placements}


def _changes(board: Any, step: Any) -> bool:
    cand = board.cand
    return any(cand[c] >> (v - 1) & 1 for c, v in step.eliminations) or any(
        not board.values[c] for c, _ in step.placements
    )


def placeable_cells(
    shape: Shape,
    values: Sequence[int],
    engine: LogicEngine | None = None,
    *,
    want: int | None = None,
) -> set[int] | None:
    """The empty cells a person could place from this board now: the singles on it; those
    that appear once the eliminations the medium techniques (locked candidates, pairs,
    naked triples; a Killer's cage combinations and 45 rule too) find on it are made (one
    round, then the cage combinations as far as they go); and those the logic engine
    itself places next, after the harder eliminations it needs first. Not every cell a
    chain of techniques could reach (in a puzzle with one solution every cell is reachable
    so): the next placements only. None when the board clashes, when the engine passes
    ``PLACEABLE_PASS_LIMIT``, or when it is stuck and not ``complete``. ``engine``: the
    puzzle's rules' engine (:func:`solver.logic.engines.engine_for`; default the classic one of
    ``shape``). ``want``: a cell asked about; the answer may stop at the first stage that
    finds it (the cells found so far), which keeps the review of play in order cheap."""
    engine = engine or engine_for(shape)
    board = engine.board(values)
    if board is None:
        return None
    found = _singles(engine, board)
    if want in found:
        return found
    # The eliminations to be seen on this board, not those they lead to in turn.
    seen = engine.copy(board)
    for step in [step for tech in engine.at_a_glance for step in tech.find(board)]:
        found |= {c for c, _ in step.placements}  # the 45 rule may place a cell itself
        seen.apply(step)
    # Then the routine ones (a Killer's cage combinations, which may place a cell too) as
    # far as they go.
    for _ in range(PLACEABLE_PASS_LIMIT if engine.routine else 0):
        steps = [step for tech in engine.routine for step in tech.find(seen)]
        if not any(_changes(seen, step) for step in steps):
            break
        for step in steps:
            found |= {c for c, _ in step.placements if not seen.values[c]}
            seen.apply(step)
    found |= _singles(engine, seen)
    if want in found:
        return found
    ahead = engine.copy(board)
    for _ in range(PLACEABLE_PASS_LIMIT):
        if _singles(engine, ahead):
            return found | _singles(engine, ahead)
        step = next((s for tech in engine.harder for s in tech.find(ahead)), None)
        if step is None:
            # Stuck: the classic engine's chains are taken as all a person has; the
            # variant engine lacks Killer's finer techniques, so its stuck board is unknown.
            return found if engine.complete else None
        if step.placements:
            return found | {c for c, _ in step.placements}
        ahead.apply(step)
    return None


def game_signals(
    events: Iterable[Event],
    *,
    shape: Shape,
    givens: Sequence[int],
    solution: Sequence[int],
    level: str,
    elapsed_ms: int,
    blind: bool = True,
    engine: LogicEngine | None = None,
) -> Signals:
    """The signals of one completed game and the reasons it is flagged (none: not flagged).

    ``engine`` judges which cells were placeable (the puzzle's rules' logic engine; default
    the classic one of ``shape``); ``blind=False`` skips that signal: the game is judged by
    the time floors alone."""
    values = list(givens)
    gaps: list[int] = []
    blind_quick = 0
    placeable: set[int] | None = None
    placeable_for: tuple[tuple[int, ...], int] | None = None
    previous_clock = 0
    checks = 0
    for event in events:
        gap = max(0, event.clock_ms - previous_clock)
        previous_clock = max(previous_clock, event.clock_ms)
        if event.placement and event.cell is not None:
            gaps.append(gap)
            if blind and event.correct and gap < BLIND_PAUSE_MS and checks < PLACEABLE_CHECKS:
                # Reason from the right values only: a mistake on the board is not a fact.
                known = tuple(v if v == solution[c] else 0 for c, v in enumerate(values))
                if (known, event.cell) != placeable_for:
                    placeable = placeable_cells(shape, known, engine, want=event.cell)
                    placeable_for = (known, event.cell)
                    checks += 1
                if placeable is not None and event.cell not in placeable:
                    blind_quick += 1
        for cell, value in event.entries:
            values[cell] = value
    placements = len(gaps)
    under = sum(1 for g in gaps if g < HUMAN_FLOOR_MS)
    floor = placement_floor_ms(shape.size, level)
    per = elapsed_ms // placements if placements else None
    signals = Signals(
        placements=placements,
        fastest_ms=sorted(gaps)[:FASTEST_COUNT],
        under_floor=under,
        under_floor_share=round(under / placements, 3) if placements else 0.0,
        ms_per_placement=per,
        level_floor_ms=floor,
        blind_quick=blind_quick,
        blind_share=round(blind_quick / placements, 3) if placements else 0.0,
        judged=placements >= min_placements(shape.size),
    )
    if not signals.judged:
        return signals
    reasons = signals.reasons
    if signals.under_floor_share >= UNDER_FLOOR_SHARE:
        reasons.append(
            f"{under} of {placements} placements came under {HUMAN_FLOOR_MS} ms after the "
            "previous move"
        )
    if per is not None and per < floor:
        reasons.append(f"{per} ms per placement, under the {level} floor of {floor} ms")
    if blind_quick >= BLIND_MIN and signals.blind_share >= BLIND_SHARE:
        reasons.append(
            f"{blind_quick} placements of cells no technique could yet place, each within "
            f"{BLIND_PAUSE_MS} ms"
        )
    return signals
