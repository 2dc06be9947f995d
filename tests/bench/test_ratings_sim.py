"""The rating simulation, short: ratings recover the hidden skill and difficulty."""

from __future__ import annotations

import random

import pytest

from bench import spearman
from bench.ratings import bank_scores, simulate


def test_spearman_reads_rank_agreement():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.9487, abs=1e-3)


def test_ratings_recover_hidden_skill_and_difficulty_at_my_level():
    scores = bank_scores(160, random.Random(2))
    sim = simulate(scores=scores, games=4_000, players=60, seed=4)
    assert sim.players_counted >= 30 and sim.puzzles_counted >= 60
    assert sim.player_rho >= 0.9
    assert sim.puzzle_rho >= 0.9
    # Nobody was given a puzzle twice.
    assert all(len(p.played) == p.count for p in sim.players)


def test_without_games_the_ratings_know_nothing_of_the_players():
    scores = bank_scores(40, random.Random(2))
    sim = simulate(scores=scores, games=0, players=10, seed=4)
    assert {p.rating.rating for p in sim.players} == {1500}
