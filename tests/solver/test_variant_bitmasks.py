"""The variant logic's bitmask techniques find the same steps, in the same order, as the
same techniques written plainly with sets (tests/solver/variant_plain.py)."""

from __future__ import annotations

from functools import partial

import pytest

from solver.generation.general import generate_variant, supported_variant_levels
from solver.logic.general import variant_logic_solve
from solver.logic.houses import VBoard, hidden_subsets, locked, x_wings
from tests.solver.variant_plain import plain_hidden_subsets, plain_locked, plain_x_wings

PAIRS = [
    (partial(locked, pointing=True), partial(plain_locked, pointing=True)),
    (partial(locked, pointing=False), partial(plain_locked, pointing=False)),
    *((partial(hidden_subsets, k=k), partial(plain_hidden_subsets, k=k)) for k in (2, 3, 4)),
    *((partial(x_wings, k=k), partial(plain_x_wings, k=k)) for k in (2, 3)),
]


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_bitmask_techniques_find_the_plain_ones_steps_all_along_a_solve(variant):
    compared = found = 0
    for seed in range(4 if variant == "killer" else 8):  # a hard 9x9 Killer: seconds
        size = 9 if seed % 4 else 6
        levels = supported_variant_levels(variant, size)
        if variant == "killer":
            # Expert Killers are not made from every seed yet (docs/solver.md); master and
            # hard carry the same techniques.
            levels = tuple(level for level in levels if level != "expert")
        made = generate_variant(variant, size, level=levels[-1 - seed % 2], seed=seed)
        solved = variant_logic_solve(made.rules, made.puzzle)
        board = VBoard.from_grid(made.rules, made.puzzle)
        assert board is not None
        for step in [None, *solved.steps]:
            if step is not None:
                assert board.apply(step)
            if step is None or step.technique not in ("naked_single", "hidden_single"):
                for fast, plain in PAIRS:
                    steps = list(fast(board))
                    assert steps == list(plain(board))
                    compared += 1
                    found += len(steps)
    assert compared > 100 and found > 20
