"""Glicko-2, as in Mark Glickman's "Example of the Glicko-2 system" (2013).

Pure: no Django, no I/O. A rating is (rating, deviation, volatility) on the Glicko scale
(1500 / 350 / 0.06 for a newcomer); the steps below work on the Glicko-2 scale
(mu, phi) = ((r - 1500) / 173.7178, RD / 173.7178) and convert back at the end.

Glossary (the paper's names):
    g(phi)     how much an opponent's uncertainty damps the result
    E          the expected score against an opponent
    v          the estimated variance of the rating from the game outcomes
    delta      the estimated improvement from the outcomes
    sigma      volatility: how erratic the player's form is
    tau        the system constant limiting how fast volatility moves (0.3 to 1.2)

A player who plays no game in a rating period keeps mu and sigma, and phi grows to
sqrt(phi^2 + sigma^2) (step 6 alone); ``idle`` applies that for any number of periods,
fractions included.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
BASE_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
# The system constant; the paper's example uses 0.5.
TAU = 0.5
# Convergence tolerance of the volatility iteration (the paper's epsilon).
EPSILON = 0.000001
MAX_DEVIATION = START_DEVIATION


@dataclass(frozen=True)
class Rating:
    rating: float = BASE_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - BASE_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against ``opponent`` (step 3's E)."""
    return _e(player.mu, opponent.mu, _g(opponent.phi))


def idle(rating: Rating, periods: float) -> Rating:
    """The rating after ``periods`` rating periods without a game: the deviation grows
    (capped at a newcomer's), nothing else moves."""
    if periods <= 0:
        return rating
    phi = math.sqrt(rating.phi**2 + periods * rating.volatility**2)
    return Rating(rating.rating, min(phi * SCALE, MAX_DEVIATION), rating.volatility)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    *,
    tau: float = TAU,
) -> Rating:
    """The player's rating after one rating period of ``results`` ((opponent, score)
    pairs, score in [0, 1]); the opponents are taken as they were before the period."""
    if not results:
        return idle(player, 1)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    v_inv = 0.0
    gain = 0.0
    for opponent, score in results:
        g_j = _g(opponent.phi)
        e_j = _e(mu, opponent.mu, g_j)
        v_inv += g_j * g_j * e_j * (1.0 - e_j)
        gain += g_j * (score - e_j)
    v = 1.0 / v_inv
    delta = v * gain
    sigma_new = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(mu_new * SCALE + BASE_RATING, min(phi_new * SCALE, MAX_DEVIATION), sigma_new)


def update_one(player: Rating, opponent: Rating, score: float, *, tau: float = TAU) -> Rating:
    """The player's rating after one game against ``opponent`` (a period of one game, as
    Lichess rates each puzzle attempt)."""
    return update(player, [(opponent, score)], tau=tau)
