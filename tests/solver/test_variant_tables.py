"""The tables the variant generator leans on for speed: lane masks, region masks, singles,
and caches that stay bounded while new rules keep coming."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solver.generation.classic import generate
from solver.generation.general import (
    generate_variant,
    random_regions,
    singles_solve,
    supported_variant_levels,
)
from solver.generation.general_dig import logic_level, rectangles
from solver.generation.jigsaw_regions import GridMasks
from solver.grid import Grid, Shape
from solver.logic.cages import _cage_support_sets, cage_support
from solver.logic.general import LEVELS, ORDER, variant_logic_solve
from solver.logic.house_masks import CELL_BITS, value_cells
from solver.rules.checks import is_variant_solution
from solver.rules.ruleset import RULES_CACHED, Cage, Rules, layout
from solver.search.dlx import dlx_count
from solver.search.exact import count_solutions, has_other_solution, random_solution
from solver.search.house_lanes import LANES_CACHED, variant_lanes


def _rules(kind: str, size: int, seed: int) -> Rules:
    shape = Shape.for_size(size)
    if kind == "diagonal":
        return Rules.make(shape, diagonals=True)
    if kind == "caged jigsaw":  # cage mates in no common house are peers too
        regions = random_regions(shape, random.Random(seed))
        return Rules.make(shape, regions=regions, cages=[((8, 9), None), ((0, 40, 80), 12)])
    if kind == "windows":
        return Rules.make(shape, regions=random_regions(shape, random.Random(seed)), windows=True)
    return Rules.make(shape, regions=random_regions(shape, random.Random(seed)))


@pytest.mark.parametrize(
    ("kind", "size"),
    [("diagonal", 9), ("jigsaw", 9), ("jigsaw", 6), ("windows", 9), ("caged jigsaw", 9)],
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


def _dug(variant: str, size: int, seed: int) -> tuple[Rules, Grid]:
    """A generated puzzle with a few more givens taken out at random: some stay within the
    logic, some need more than it has, some have several solutions."""
    levels = supported_variant_levels(variant, size)
    if variant == "killer":  # expert and master Killers take seconds to make: the digging
        levels = levels[:3]  # and the caps below reach past them as well
    made = generate_variant(variant, size, level=levels[seed % len(levels)], seed=seed)
    rng = random.Random(seed)
    cells = list(made.puzzle.cells)
    for c in rng.sample([c for c, v in enumerate(cells) if v], min(made.puzzle.clues, seed % 3)):
        cells[c] = 0
    return made.rules, Grid(made.rules.shape, tuple(cells))


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw", "killer"])
def test_the_generators_logic_level_is_the_logic_solves_level_and_hardest_technique(variant):
    levels = set()
    for seed in range(16):
        rules, puzzle = _dug(variant, 9 if seed % 3 else 6, seed)
        for cap in (None, "easy", "medium", "hard"):
            solved = variant_logic_solve(rules, puzzle, max_level=cap, explain=False)
            level = solved.level if solved.solved else "master"
            assert logic_level(rules, puzzle, cap) == (level, solved.hardest)
            levels.add(level)
    assert {"easy", "medium", "master"} <= levels
    assert variant == "killer" or "hard" in levels  # a Killer with givens rarely needs hard


def test_the_techniques_are_in_level_order():
    """The digger and the generator's first rating take the techniques up to a level as
    the steps the full order takes while it needs nothing harder."""
    ranks = [LEVELS.index(t.level) for t in ORDER]
    assert ranks == sorted(ranks)


def test_cage_support_by_bitsets_is_the_search_over_sets():
    rng = random.Random(5)
    for _ in range(2000):
        n = rng.choice([4, 6, 8, 9])
        k = rng.randint(1, n)
        masks = tuple(rng.randrange(1, 1 << n) for _ in range(k))
        total = rng.randint(k * (k + 1) // 2 - 1, k * (2 * n - k + 1) // 2 + 1)
        assert cage_support.__wrapped__(masks, total) == _cage_support_sets(masks, total)
    support, sets = cage_support((0b011, 0b110), 4)  # {1, 2} and {2, 3} adding up to 4
    assert support == (0b001, 0b100)
    assert sets == {0b101}


def test_a_cage_search_remembers_what_each_state_of_a_cage_takes_out():
    made = generate_variant("killer", 6, level="medium", seed=2)
    lz = variant_lanes(made.rules)
    for cage in lz.cages:
        cage.memo.clear()
    assert count_solutions(made.puzzle, limit=2, rules=made.rules) == 1
    assert any(cage.memo for cage in lz.cages)
    assert count_solutions(made.puzzle, limit=2, rules=made.rules) == 1  # from the memo
    assert dlx_count(made.puzzle, limit=2, rules=made.rules) == 1


@pytest.mark.parametrize("size", [4, 9, 16, 25])
def test_value_cells_put_each_cells_candidates_at_its_own_bits(size):
    rng = random.Random(size)
    cand = [rng.randrange(1 << size) for _ in range(size * size)]
    width = CELL_BITS
    for v, mask in enumerate(value_cells(cand, size)):
        assert mask == sum(1 << (c * width) for c, m in enumerate(cand) if m >> v & 1)


@pytest.mark.parametrize("variant", ["classic", "diagonal", "jigsaw", "killer"])
def test_another_solution_exists_exactly_when_a_removed_clue_leaves_two(variant):
    shape = Shape.for_size(9)
    seen = set()
    for seed in range(3):
        if variant == "classic":
            made = generate(shape, level="hard", seed=seed)
            rules, solution, puzzle = Rules.classic(shape), made.solution, made.puzzle
        else:
            got = generate_variant(variant, 9, level="medium", seed=seed)
            rules, solution, puzzle = got.rules, got.solution, got.puzzle
        if variant == "killer":
            # A Killer's cages alone fix its solution, so no clue matters: take half of
            # the sums away, then keep only the clues the rest needs.
            rules = replace(rules, cages=_half_the_sums(rules.cages))
            puzzle = _minimal(solution, rules)
        for start in (puzzle, solution):
            for c in [c for c, v in enumerate(start.cells) if v][:30]:
                cells = list(start.cells)
                cells[c] = 0
                fewer = Grid(shape, tuple(cells))
                other = has_other_solution(fewer, c, solution.cells[c], rules=rules)
                assert other == (count_solutions(fewer, limit=2, rules=rules) == 2)
                seen.add(other)
    assert seen == {True, False}


def test_the_logic_asked_for_one_cell_stops_once_it_is_placed():
    for seed in range(20):
        rules, puzzle = _dug("jigsaw", 9, seed)
        solved = variant_logic_solve(rules, puzzle, explain=False)
        placed = [c for step in solved.steps for c, _ in step.placements]
        if solved.solved or not placed:
            continue
        assert logic_level(rules, puzzle)[0] == "master"
        assert logic_level(rules, puzzle, until=placed[-1])[0] != "master"
        never = next(c for c, v in enumerate(solved.grid.cells) if not v)
        assert logic_level(rules, puzzle, until=never)[0] == "master"
        return
    pytest.fail("no puzzle the logic could start but not finish")


@pytest.mark.parametrize("variant", ["diagonal", "jigsaw"])
def test_a_swappable_rectangle_gives_a_second_solution_when_it_has_no_given(variant):
    found = 0
    for seed in range(12):
        made = generate_variant(variant, 9, level="easy", seed=seed)
        rules, solution = made.rules, made.solution
        by_cell = rectangles(rules, solution)
        for corners in {corners for through in by_cell for corners in through}:
            found += 1
            a, b, c, d = corners
            assert a // 9 == b // 9 and c // 9 == d // 9 and a % 9 == c % 9 and b % 9 == d % 9
            swapped = list(solution.cells)
            for x, y in ((a, b), (c, d)):
                swapped[x], swapped[y] = swapped[y], swapped[x]
            assert is_variant_solution(
                rules, Grid.empty(rules.shape), Grid(rules.shape, tuple(swapped))
            )
            cells = list(solution.cells)
            for q in corners:
                cells[q] = 0
            assert count_solutions(Grid(rules.shape, tuple(cells)), limit=2, rules=rules) == 2
    assert found


def _half_the_sums(cages: tuple[Cage, ...]) -> tuple[Cage, ...]:
    return tuple(replace(cage, total=None) if i % 2 else cage for i, cage in enumerate(cages))


def _minimal(solution: Grid, rules: Rules) -> Grid:
    """``solution`` with every clue taken out that the rules and the other clues fix."""
    cells = list(solution.cells)
    for c in range(len(cells)):
        value, cells[c] = cells[c], 0
        if count_solutions(Grid(solution.shape, tuple(cells)), limit=2, rules=rules) != 1:
            cells[c] = value
    return Grid(solution.shape, tuple(cells))
