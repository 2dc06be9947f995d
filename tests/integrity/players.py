"""Scripted players: the same puzzle played by a bot and by a person, through the API, with
the server's clock moved between moves the way each would."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta

import time_machine

from solver import logic_solve, parse
from tests.play.factories import NINE, empty_cells, value_at, wrong_value_at
from tests.play.helpers import action, move, start

START = datetime.fromisoformat("2026-11-24 09:00:00+00:00")


def logical_order(givens: str = NINE) -> list[int]:
    """The cells in the order the logic engine places them: each a single when placed."""
    steps = logic_solve(parse(givens)).steps
    return [cell for step in steps for cell, _ in step.placements]


def play_as_bot(client, puzzle, *, every_ms: int = 50) -> tuple[int, dict]:
    """Start a game and fill every empty cell in reading order, one placement every
    ``every_ms``; the game's id and the last move's answer."""
    with time_machine.travel(START, tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        last: dict = {}
        for cell in empty_cells(puzzle):
            clock.shift(timedelta(milliseconds=every_ms))
            last = move(client, game_id, cell, value_at(puzzle, cell)).json()
    return game_id, last


def _human_gaps(count: int, rng: random.Random) -> Iterator[int]:
    """Seconds of thought then a quick run of singles, like a person who sees a few at once."""
    for i in range(count):
        yield rng.randint(4000, 15000) if i % 4 == 0 else rng.randint(900, 3500)


def play_as_person(client, puzzle, *, seed: int = 7) -> tuple[int, dict]:
    """Start a game and play it in the logical order with pauses for thought, notes first,
    one mistake put right, and a break with the game paused."""
    rng = random.Random(seed)
    order = logical_order(puzzle.givens)
    with time_machine.travel(START, tick=False) as clock:
        game_id = start(client, puzzle)["id"]
        clock.shift(timedelta(seconds=20))  # reading the grid
        for cell in order[:3]:  # pencil marks first
            clock.shift(timedelta(milliseconds=rng.randint(700, 1500)))
            move(client, game_id, cell, value_at(puzzle, cell), kind="note")
        last: dict = {}
        for i, (cell, gap) in enumerate(zip(order, _human_gaps(len(order), rng), strict=True)):
            clock.shift(timedelta(milliseconds=gap))
            if i == 10:  # a slip, seen and put right
                move(client, game_id, cell, wrong_value_at(puzzle, cell))
                clock.shift(timedelta(milliseconds=2500))
            if i == 20:  # a coffee
                action(client, game_id, "pause")
                clock.shift(timedelta(minutes=5))
                action(client, game_id, "resume")
                clock.shift(timedelta(milliseconds=3000))
            last = move(client, game_id, cell, value_at(puzzle, cell)).json()
    return game_id, last
