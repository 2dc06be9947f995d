"""What the variant finders remember between passes on one board, and the generator's
search from a logic's board: both may only save work, never change an answer."""

from __future__ import annotations

import random
from functools import partial

import pytest

from solver.generation.general import generate_variant
from solver.generation.general_dig import _apply_all, logic_level, solutions_past_the_logic
from solver.grid import Grid
from solver.logic.cages import cage_combinations
from solver.logic.general import techniques_for
from solver.logic.houses import VBoard, locked
from solver.logic.innies import innies_outies
from solver.logic.killer_sums import cage_splits, hidden_cages, innies_outies_large
from solver.logic.techniques.base import Step
from solver.rules.ruleset import Rules, layout
from solver.search.exact import candidate_solutions, solutions

LIMIT = 50
REMEMBERING = {
    "cage_combination": cage_combinations,
    "innies_outies": innies_outies,
    "innies_outies_large": innies_outies_large,
    "cage_split": cage_splits,
    "hidden_cage": hidden_cages,
    "pointing": partial(locked, pointing=True),
    "claiming": partial(locked, pointing=False),
}


def _fewer_sums(rules: Rules, keep: float, seed: int) -> Rules:
    """The rules with some cage sums taken away: puzzles the logic stalls on, some with
    more than one solution."""
    rng = random.Random(seed)
    cages = [(c.cells, c.total if rng.random() < keep else None) for c in rules.cages]
    return Rules.make(rules.shape, cages=cages)


@pytest.mark.parametrize("seed", range(4))
def test_a_finder_that_remembers_finds_what_a_fresh_board_finds_at_every_step(seed):
    """Along a solve, with candidates also written directly between steps (as a hint
    applies a player's notes), every remembering finder gives the steps it gives on a
    copy of the board that remembers nothing."""
    made = generate_variant("killer", 9, level=("medium", "hard")[seed % 2], seed=seed)
    rules = made.rules
    board = VBoard.from_grid(rules, made.puzzle)
    assert board is not None
    board.explain = False
    order = techniques_for(rules)
    rng = random.Random(seed)
    compared = 0
    for _ in range(400):
        for name, finder in REMEMBERING.items():
            fresh = board.copy()
            fresh.explain = False
            assert list(finder(board)) == list(finder(fresh)), name
            compared += 1
        if rng.random() < 0.2:  # a direct write: a wrong candidate taken out
            c = rng.choice([c for c, v in enumerate(board.values) if not v] or [0])
            wrong = board.cand[c] & ~(1 << (made.solution.cells[c] - 1))
            if wrong:
                board.cand[c] &= ~(wrong & -wrong)
        step = next((s for t in order for s in t.find(board)), None)
        if step is None or board.is_solved():
            break
        assert board.apply(step)
    assert compared > 100


@pytest.mark.parametrize("variant", ["killer", "jigsaw", "diagonal"])
def test_a_logic_board_has_exactly_the_solutions_of_its_puzzle(variant):
    """The search from where the logic stalled (its candidates left out) finds the
    puzzle's own solutions: the one, or the same several."""
    seen = set()
    for seed in range(4):
        made = generate_variant(variant, 9, level=("medium", "expert")[seed % 2], seed=seed)
        rules, puzzle = made.rules, made.puzzle
        if seed % 2 == 0 and variant == "killer":
            rules = _fewer_sums(rules, keep=0.7, seed=seed)
        elif seed % 2 == 0:
            cells = [v if i % 7 else 0 for i, v in enumerate(puzzle.cells)]
            puzzle = Grid(rules.shape, tuple(cells))
        boards = []

        def keep(board: VBoard, boards: list = boards) -> bool:
            boards.append(board.copy())
            return True

        logic_level(rules, puzzle, past_hard=keep)
        every = set(solutions(puzzle, limit=LIMIT, rules=rules))
        past = solutions_past_the_logic(rules, puzzle, limit=LIMIT)
        assert set(past) == every if len(every) < LIMIT else len(past) == LIMIT
        for board in boards:
            from_board = candidate_solutions(rules, board.values, board.cand, limit=LIMIT)
            if len(every) < LIMIT:
                assert set(from_board) == every
            else:  # too many to list: as many from the board
                assert len(from_board) == LIMIT
            seen.add(min(len(from_board), 2))
    assert seen == {1, 2}


def test_stopping_past_hard_answers_master_and_going_on_changes_nothing():
    """The generator's two questions to the logic (past hard, and where it stalled) change
    no answer but the one they are asked to."""
    stopped = 0
    for seed in range(6):
        made = generate_variant("killer", 9, level="medium", seed=seed)
        rules = _fewer_sums(made.rules, keep=0.8, seed=seed)
        empty = Grid.empty(rules.shape)
        ends: list[VBoard] = []
        plain = logic_level(rules, empty, stalled=ends.append)
        assert len(ends) == (plain[0] == "master")  # the board where they stopped short
        asked: list[VBoard] = []

        def going_on(board: VBoard, asked: list[VBoard] = asked) -> bool:
            asked.append(board)
            return True

        assert logic_level(rules, empty, past_hard=going_on) == plain
        assert len(asked) <= 1
        if asked:
            assert logic_level(rules, empty, past_hard=lambda b: False)[0] == "master"
            stopped += 1
        else:  # the techniques up to hard finish it, or stall with nothing after them
            assert logic_level(rules, empty, past_hard=lambda b: False) == plain
    assert stopped


def test_a_puzzle_whose_givens_clash_has_no_solution_past_the_logic():
    made = generate_variant("jigsaw", 9, level="easy", seed=1)
    cells = list(made.puzzle.cells)
    given = next(c for c, v in enumerate(cells) if v)
    twin = next(p for p in layout(made.rules).peers[given] if not cells[p])
    cells[twin] = cells[given]  # the same value twice in a house
    clash = Grid(made.rules.shape, tuple(cells))
    assert solutions_past_the_logic(made.rules, clash) == []
    assert solutions_past_the_logic(made.rules, made.puzzle) == [made.solution]


def _cases() -> list[tuple[Rules, Grid]]:
    """Killers with all their sums and with some taken away (stalling, some with more than
    one solution), and Diagonal and Jigsaw puzzles with all their givens and a few less."""
    cases = []
    for seed in range(3):
        made = generate_variant("killer", 9, level=("medium", "hard", "expert")[seed], seed=seed)
        empty = Grid.empty(made.rules.shape)
        cases += [(made.rules, empty)]
        cases += [(_fewer_sums(made.rules, keep, seed), empty) for keep in (0.9, 0.75)]
    for variant in ("diagonal", "jigsaw"):
        for seed, level in enumerate(("hard", "expert")):
            made = generate_variant(variant, 9, level=level, seed=seed)
            cells = list(made.puzzle.cells)
            for c in random.Random(seed).sample([c for c, v in enumerate(cells) if v], 4):
                cells[c] = 0
            cases += [(made.rules, made.puzzle), (made.rules, Grid(made.rules.shape, tuple(cells)))]
    return cases


def test_taking_medium_steps_a_scan_at_a_time_changes_no_level_and_no_hard_step():
    """The generator's grading from hard up takes every step one scan of a medium technique
    finds at once: the same level, the same boards where hard stalls and where everything
    stalls, and the same hardest technique when it is past medium."""
    levels = set()
    for rules, puzzle in _cases():
        for max_level in ("hard", "expert", None):
            seen = []
            for together in (None, "medium"):
                hard_stall: list[tuple] = []
                end: list[tuple] = []
                found = logic_level(
                    rules,
                    puzzle,
                    max_level,
                    together=together,
                    past_hard=lambda b, at=hard_stall: at.append((b.values[:], b.cand[:])) or True,
                    stalled=lambda b, at=end: at.append((b.values[:], b.cand[:])),
                )
                seen.append((found, hard_stall, end))
            (plain, plain_hard, plain_end), (batched, batched_hard, batched_end) = seen
            assert batched[0] == plain[0]
            if plain[0] not in ("easy", "medium"):
                assert batched[1] == plain[1]
            assert batched_hard == plain_hard and batched_end == plain_end
            levels.add(plain[0])
    assert {"medium", "hard", "expert", "master"} <= levels


def test_steps_found_on_one_board_place_a_value_two_of_them_find_once():
    """Two 45-rule groups can each come down to the same open cell: taken a scan at a time,
    the second placement is the first's, not a clash; two values for one cell are."""
    made = generate_variant("killer", 9, level="easy", seed=0)
    board = VBoard.from_grid(made.rules, Grid.empty(made.rules.shape))
    assert board is not None
    c, v = 40, made.solution.cells[40]
    same = [Step("innies_outies", "45 Rule", "", placements=((c, v),)) for _ in range(2)]
    assert _apply_all(board, same)
    assert board.values[c] == v
    other = next(w for w in range(1, 10) if w != v)
    clash = [Step("innies_outies", "45 Rule", "", placements=((c, other),))]
    assert not _apply_all(board, clash)
