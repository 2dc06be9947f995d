"""Changing a Killer's cages: refining to one solution, merging, and the value swaps that
show a second solution without a search."""

import random

from solver.generation.general import draw_cages
from solver.generation.killer_cages import (
    _connected,
    line_swaps,
    merges,
    open_swap,
    refine_cages,
    shifts,
    swapped,
    value_swaps,
)
from solver.grid import Grid, Shape
from solver.rules.checks import is_variant_solution
from solver.rules.ruleset import Cage, Rules, layout
from solver.search.exact import random_solution, solutions

SHAPE = Shape.for_size(9)


def _drawn(seed: int) -> tuple[Grid, tuple[Cage, ...]]:
    rng = random.Random(seed)
    solution = random_solution(SHAPE, rng)
    cages = draw_cages(solution, rng, (2, 3, 3, 4))
    assert cages is not None
    return solution, cages


def test_every_value_swap_leaves_a_grid_whose_houses_are_whole():
    solution, _ = _drawn(1)
    classic = Rules.make(SHAPE)
    empty = Grid.empty(SHAPE)
    houses = layout(classic).houses
    two_values = value_swaps(solution, houses)
    swaps = two_values + line_swaps(solution, houses)
    assert set(two_values) < set(swaps)  # the trades of two lines come on top
    sizes = set()
    for swap in swaps:
        other = swapped(solution, swap)
        assert all(other.cells[c] != solution.cells[c] for c, _ in swap)
        assert is_variant_solution(classic, empty, other)
        sizes.add(len({solution.cells[c] for c, _ in swap}))
    assert {2, 3} <= sizes  # deadly rectangles and the six cells of a three-cycle at least
    for swap in two_values:
        assert len({solution.cells[c] for c, _ in swap}) == 2


def test_a_merge_that_opens_a_swap_has_the_swapped_grid_for_a_second_solution():
    opened = 0
    for seed in range(12):
        solution, cages = _drawn(seed)
        houses = layout(Rules.make(SHAPE)).houses
        swaps = value_swaps(solution, houses) + line_swaps(solution, houses)
        rng = random.Random(seed)
        for merge, merged in merges(cages, solution, rng):
            near = {c for cells in merge for c in cells}
            rules = Rules.make(SHAPE, cages=merged)
            empty = Grid.empty(SHAPE)
            for swap in swaps:
                if open_swap(merged, solution, [swap], near) == swap:
                    opened += 1
                    assert is_variant_solution(rules, empty, swapped(solution, swap))
                    break
    assert opened  # the class is common: a few in every dozen cage sets


def test_cages_whose_sums_a_swap_changes_keep_it_closed():
    solution, _ = _drawn(3)
    swaps = value_swaps(solution, layout(Rules.make(SHAPE)).houses)
    swap = min(swaps, key=len)  # a deadly rectangle or the smallest piece
    cells = [c for c, _ in swap]
    # each swapped cell a cage of its own: its sum changes with its value
    lone = tuple(Cage((c,), solution.cells[c]) for c in cells)
    rest = tuple(Cage((c,), solution.cells[c]) for c in range(SHAPE.ncells) if c not in set(cells))
    assert open_swap(lone + rest, solution, [swap], set(cells)) is None
    # each of its cells in a cage with one that takes its value: every sum stays, open
    low, high = sorted({solution.cells[c] for c in cells})
    highs = [c for c in cells if solution.cells[c] == high]
    lows = [c for c in cells if solution.cells[c] == low]
    pairs = tuple(
        Cage(tuple(sorted(p)), sum(solution.cells[c] for c in p))
        for p in zip(highs, lows, strict=True)
    )
    assert open_swap(pairs + rest, solution, [swap], set(cells)) == swap
    assert open_swap(pairs + rest, solution, swaps) is not None  # without ``near``
    # the same cells in cages of the wrong pairs (two cells of one value): closed
    same = tuple(Cage(tuple(sorted(p)), sum(solution.cells[c] for c in p)) for p in (highs, lows))
    assert open_swap(same + rest, solution, [swap], set(cells)) is None


def test_merges_leave_out_the_skipped_and_name_the_two_cages():
    solution, cages = _drawn(5)
    first = list(merges(cages, solution, random.Random(0)))
    assert first
    for merge, merged in first:
        a, b = sorted(merge)
        assert Cage(a, sum(solution.cells[c] for c in a)) in cages
        assert tuple(sorted(a + b)) in {cage.cells for cage in merged}
        assert len(merged) == len(cages) - 1
    skip = {merge for merge, _ in first[:3]}
    again = [merge for merge, _ in merges(cages, solution, random.Random(0), skip=skip)]
    assert again == [merge for merge, _ in first[3:]]


def test_refining_leaves_cages_whose_second_solution_breaks_a_sum():
    solution, cages = _drawn(7)
    rules = Rules.make(SHAPE, cages=cages)
    found = solutions(Grid.empty(SHAPE), limit=2, rules=rules)
    other = found[0] if found[0] != solution else found[1]
    refined = refine_cages(cages, solution, other, random.Random(7))
    assert refined is not None
    new_rules = Rules.make(SHAPE, cages=refined)
    empty = Grid.empty(SHAPE)
    assert is_variant_solution(new_rules, empty, solution)
    assert not is_variant_solution(new_rules, empty, other)
    ones = sum(len(cage.cells) == 1 for cage in cages)
    assert sum(len(cage.cells) == 1 for cage in refined) == ones  # none made


def test_a_shift_moves_one_cell_to_a_neighbouring_cage_and_keeps_every_rule_of_a_cage():
    solution, cages = _drawn(9)
    before = {cage.cells for cage in cages}
    seen = 0
    for move, moved in shifts(cages, solution, random.Random(9)):
        seen += 1
        assert len(moved) == len(cages)
        assert sorted(c for cage in moved for c in cage.cells) == list(range(SHAPE.ncells))
        changed = {cage.cells for cage in moved} - before
        assert len(changed) == 2  # the cage that gave the cell and the one that took it
        (cell,) = [cells for cells in move if len(cells) == 1]
        assert any(cell[0] in cells for cells in changed)
        for cage in moved:
            values = [solution.cells[c] for c in cage.cells]
            assert len(set(values)) == len(values) and cage.total == sum(values)
            assert _connected(cage.cells, SHAPE.size)
        assert all(len(cells) >= 2 for cells in changed)  # none left of one cell
    assert seen > 10
