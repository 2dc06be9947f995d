"""The tables the variant generator leans on for speed: lane masks, region masks, singles,
and caches that stay bounded while new rules keep coming."""

from __future__ import annotations

import random

import pytest

from solver.grid import Shape
from solver.search import random_solution
from solver.variant import RULES_CACHED, Rules, layout
from solver.variant_generate import random_regions, singles_solve
from solver.variant_regions import GridMasks
from solver.variant_search import LANES_CACHED, variant_lanes


def _rules(kind: str, size: int, seed: int) -> Rules:
    shape = Shape.for_size(size)
    if kind == "diagonal":
        return Rules.make(shape, diagonals=True)
    if kind == "windows":
        return Rules.make(shape, regions=random_regions(shape, random.Random(seed)), windows=True)
    return Rules.make(shape, regions=random_regions(shape, random.Random(seed)))


@pytest.mark.parametrize(
    ("kind", "size"), [("diagonal", 9), ("jigsaw", 9), ("jigsaw", 6), ("windows", 9)]
)
def test_placing_a_candidate_clears_exactly_its_cells_other_values_and_its_peers_value(kind, size):
    rules = _rules(kind, size, seed=size)
    lz = variant_lanes(rules)
    nc, n = rules.shape.ncells, rules.size
    peers = layout(rules).peers
    owner = lz.owner
    for p in random.Random(1).sample(range(n * nc), 60):
        value, cell = divmod(p, nc)
        cleared = lz.full & ~lz.keep[p]
        candidates = set()
        while cleared:
            low = cleared & -cleared
            cleared ^= low
            candidates.add(owner[low.bit_length() - 1])
        expected = {v * nc + cell for v in range(n) if v != value}
        expected |= {value * nc + other for other in peers[cell]}
        assert candidates == expected
        # every bit of a candidate belongs to it, one per house and one in its cell's lane
        bits = lz.bits[p]
        assert {owner[q] for q in range(bits.bit_length()) if bits >> q & 1} == {p}
        assert bits.bit_count() == len(layout(rules).cell_houses[cell]) + 1


def test_region_masks_tell_one_piece_from_two():
    grid = GridMasks.of(9)
    row = (1 << 9) - 1
    assert grid.connected(row)
    assert grid.connected(row | 1 << 9)  # r2c1 hangs under r1c1
    assert not grid.connected(row | 1 << 18)  # r3c1 touches nothing
    assert not grid.connected(1 << 8 | 1 << 9)  # r1c9 and r2c1 are not neighbours
    assert grid.around(1 << 40) == (1 << 39) | (1 << 41) | (1 << 31) | (1 << 49)


def test_singles_put_back_a_clue_they_force_and_only_then():
    rules = Rules.make(9, diagonals=True)
    solution = random_solution(rules.shape, random.Random(2), rules=rules)
    cells = list(solution.cells)
    cells[0] = 0
    assert singles_solve(rules, cells, target=0)  # a full grid less one cell
    assert singles_solve(rules, cells)
    empty = [0] * rules.shape.ncells
    assert not singles_solve(rules, empty, target=0)
    assert not singles_solve(rules, empty)


def test_tables_are_kept_for_a_bounded_number_of_rules():
    shape = Shape.for_size(6)
    for seed in range(RULES_CACHED + 5):
        rules = Rules.make(shape, regions=random_regions(shape, random.Random(seed)))
        variant_lanes(rules)
    assert layout.cache_info().currsize <= RULES_CACHED
    assert variant_lanes.cache_info().currsize <= LANES_CACHED
