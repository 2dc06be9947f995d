import pytest

from ratings.glicko2 import Rating, expected_score, idle, update, update_one


def test_paper_example_is_reproduced():
    player = Rating(1500, 200, 0.06)
    opponents = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, opponents, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_and_a_loss_lowers_the_rating():
    player, opponent = Rating(1500, 200), Rating(1500, 100)
    assert update_one(player, opponent, 1.0).rating > 1500
    assert update_one(player, opponent, 0.0).rating < 1500


def test_an_outcome_above_expectation_raises_the_rating():
    player, opponent = Rating(1700, 100), Rating(1500, 100)
    expected = expected_score(player, opponent)
    assert update_one(player, opponent, expected + 0.1).rating > 1700
    assert update_one(player, opponent, expected - 0.1).rating < 1700


def test_deviation_shrinks_with_games():
    rating = Rating()
    deviations = [rating.deviation]
    for score in (1.0, 0.0, 0.5, 1.0, 0.0):
        rating = update_one(rating, Rating(1500, 80), score)
        deviations.append(rating.deviation)
    assert deviations == sorted(deviations, reverse=True)
    assert deviations[-1] < 200


def test_deviation_grows_with_idle_periods_up_to_a_newcomers():
    rating = Rating(1600, 60, 0.06)
    assert idle(rating, 1).deviation > 60
    assert idle(rating, 30).deviation > idle(rating, 1).deviation
    assert idle(rating, 10_000).deviation == 350
    assert idle(rating, 30).rating == 1600
    assert idle(rating, 0) == rating
