"""Steps rated on Sukaku Explainer's scale, and the engine taking the easiest chain."""

from __future__ import annotations

from solver.grid import parse
from solver.logic.classic import harder_step
from solver.logic.rating import CHOSEN, RATINGS, step_rating, trial_rating
from solver.logic.techniques import BY_SLUG, ORDER, SINGLES
from solver.logic.techniques.als import als_xz
from solver.logic.techniques.base import Board, Step

from .datasets import load
from .test_new_techniques import eliminated, names_cells, open_board, set_cells


def chain_step(technique: str, **params: object) -> Step:
    return Step(technique, "", "", params=tuple((k, v) for k, v in params.items()))


def test_x_chain_rates_by_its_strong_links_as_se_does():
    ratings = [step_rating(chain_step("x_chain", path=tuple(range(2 * k)))) for k in (2, 3, 4, 5)]
    assert ratings == [4.0, 5.4, 5.8, 6.2]
    # past that, SE's forcing X-chain (6.6 and the length bonus) is lower
    assert step_rating(chain_step("x_chain", path=tuple(range(16)))) == 7.0


def test_longer_chains_rate_higher():
    short = step_rating(chain_step("xy_chain", path=(0, 1, 2, 3)))
    long = step_rating(chain_step("xy_chain", path=tuple(range(9))))
    assert long > short >= RATINGS["xy_chain"]
    # strong links in a cell, a unit, a cell (a W-Wing): SE's forcing chain, 7.0 + 0.1
    mixed = ((0, 1), (0, 2), (9, 2), (18, 2), (27, 2), (27, 1))
    assert step_rating(chain_step("alternating_chain", chain=mixed)) == 7.1
    # strong links in cells only: SE's forcing Y-chain, 6.6 + 0.1
    cells_only = ((0, 1), (0, 2), (9, 2), (9, 3), (18, 3), (18, 1))
    assert step_rating(chain_step("alternating_chain", chain=cells_only)) == 6.7
    assert trial_rating(8) > trial_rating(2) == RATINGS["search"]


def test_als_xz_with_a_bivalue_cell_and_three_cells_is_a_wxyz_wing():
    # three cells of row 1 hold 1-4; r5c3 holds 4 (seen by r1c3's 4) and 1
    board = set_cells(open_board(), r1c1="12", r1c2="23", r1c3="34", r5c3="14")
    step = next(als_xz(board))
    assert dict(step.params)["value"] == 4
    assert eliminated(step) == {(n, 1) for n in ("r2c3", "r3c3", "r4c1", "r5c1", "r6c1")}
    assert names_cells(step, "r1c1", "r1c2", "r1c3", "r5c3")
    assert step_rating(step) == 5.5


def test_als_xz_with_a_bivalue_cell_and_four_cells_is_a_vwxyz_wing():
    board = set_cells(open_board(), r1c1="12", r1c2="23", r1c3="34", r1c4="45", r5c4="15")
    step = next(als_xz(board))
    assert sorted(len(dict(step.params)[k]) for k in ("first_cells", "second_cells")) == [1, 4]
    assert eliminated(step) == {("r5c1", 1)}
    assert names_cells(step, "r1c1", "r1c4", "r5c4")
    assert step_rating(step) == 6.3


def test_the_engine_takes_the_lowest_rated_chain_step_at_each_position():
    """Where a chain is needed, no chain technique's first step rates lower than the one
    the engine takes; and the one it takes is often not the first technique's."""
    singles = [t for t in ORDER if t.slug in SINGLES]
    chains = [BY_SLUG[slug] for slug in CHOSEN]
    checked = not_first = 0
    for text in load("se_rated_diabolical_b")[::80]:
        board = Board.from_grid(parse(text))
        assert board is not None
        while 0 in board.values:
            single = next((s for t in singles for s in t.find(board)), None)
            step = single or harder_step(board)
            if step is None:
                break
            if step.technique in CHOSEN:
                firsts = [s for t in chains if (s := next(t.find(board), None))]
                assert step_rating(step) <= min(step_rating(s) for s in firsts)
                first = next(s for t in ORDER if (s := next(t.find(board), None)))
                not_first += first.technique != step.technique
                checked += 1
            board.apply(step)
    assert checked > 20
    assert not_first > 0
