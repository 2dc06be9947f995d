"""Evidence across games: a player's recent game traces, judged together (pure: no Django).

One game proves little: a script placing values in the engine's order at a steady 1.2 s
passes every per-game signal (``integrity.signals``). Over a player's recent games
(``integrity.trace`` for each) four signals separate it from people; docs/integrity.md
explains them and how the thresholds were measured (``python -m bench.players``):

- ``engine_share``: of the placements where a single could place two cells or more, the
  share that took the engine's next cell. People pick among what they see;
- ``pause_cv``: the median over games of the pauses' coefficient of variation. People's
  pauses vary several-fold;
- ``difficulty_corr``: the correlation of log pause with log effort within each game,
  pooled over games (Fisher's z, weighted by placements). People pause longer before
  harder steps;
- ``speed_ratio``: the median over games of time per placement, over the typical time of
  people at the puzzle's level (``TYPICAL_MS``).

The verdict is *flagged* when the pauses are steady (``pause_cv < STEADY_CV``), when
the engine's cell was taken almost always (``engine_share >= ENGINE_ALONE`` over
``MIN_CHOICES_ALONE`` choices), or when
at least two of these hold: ``engine_share >= ENGINE_SHARE``, ``difficulty_corr <
BLIND_CORR``, ``speed_ratio < FAST_RATIO``. Nothing is judged before ``MIN_GAMES`` games
with ``MIN_PLACEMENTS`` placements each; shorter games (every 4x4, most 6x6) are pooled
into runs of that many placements, each run judged as one game.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

WINDOW = 20
"""The player's most recent reviewed games that are judged together."""

MIN_GAMES = 5
MIN_PLACEMENTS = 15
MIN_CHOICES = 40
"""Fewer choice placements (two cells or more placeable) over the window: the order is
not judged."""

STEADY_CV = 0.2
ENGINE_SHARE = 0.8
ENGINE_ALONE = 0.9
MIN_CHOICES_ALONE = 150
"""The engine's order on its own: ``engine_share >= ENGINE_ALONE`` over at least
``MIN_CHOICES_ALONE`` choices flags a player without a second signal. Simulated people
reach 0.75 at most (0.74 at the 99th percentile), the engine's next cell with a person's
pauses 0.96 at least (docs/integrity.md)."""
BLIND_CORR = 0.1
FAST_RATIO = 0.2

TYPICAL_MS = {"easy": 6000, "medium": 9000, "hard": 12000, "expert": 18000, "master": 25000}
"""Typical time per placement of people at each level (ms): a 9x9 with about 55 empty
cells in roughly 5, 8, 11, 16 and 23 minutes."""

TYPICAL_MS_BY_SIZE = {4: 3000, 6: 4500}
"""On the small grids, whatever the level: a 4x4's 8-12 cells in about half a minute, a
6x6's 20-25 in under two minutes (each cell found at a glance, as ``SIZE_FLOOR_MS``)."""


@dataclass(frozen=True, slots=True)
class PlayerSignals:
    games: int
    placements: int
    choices: int
    engine_share: float | None
    pause_cv: float | None
    difficulty_corr: float | None
    speed_ratio: float | None
    reasons: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _cv(values: Sequence[float]) -> float | None:
    mean = statistics.fmean(values)
    if mean <= 0:
        return None
    return statistics.pstdev(values) / mean


def _corr(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r; None when either side does not vary."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sxy / math.sqrt(sxx * syy)


def _pooled_corr(pairs: list[tuple[float, int]]) -> float | None:
    """Correlations of several games as one: the mean of Fisher's z weighted by n - 3."""
    weights = [(math.atanh(max(-0.999, min(0.999, r))), n - 3) for r, n in pairs if n > 3]
    total = sum(w for _, w in weights)
    if not total:
        return None
    return math.tanh(sum(z * w for z, w in weights) / total)


def game_figures(trace: Mapping[str, Any]) -> dict[str, Any]:
    """One game's own figures: placements, choices and engine matches, pause CV, the
    correlation of log pause with log effort (and how many pairs it rests on)."""
    gaps = trace.get("gaps") or []
    efforts = trace.get("efforts") or []
    options = trace.get("options") or []
    engine = trace.get("engine") or []
    choices = [e for e, k in zip(engine, options, strict=True) if k >= 2]
    pairs = [
        (math.log(max(g, 1)), math.log(e))
        for g, e in zip(gaps, efforts, strict=True)
        if e is not None and e > 0
    ]
    corr = _corr([p[0] for p in pairs], [p[1] for p in pairs]) if len(pairs) > 3 else None
    return {
        "placements": len(gaps),
        "choices": len(choices),
        "engine": sum(choices),
        "cv": _cv(gaps) if gaps else None,
        "corr": corr,
        "pairs": len(pairs),
    }


def _typical_ms(trace: Mapping[str, Any]) -> int:
    size = trace.get("size")
    if size in TYPICAL_MS_BY_SIZE:
        return TYPICAL_MS_BY_SIZE[size]
    return TYPICAL_MS.get(trace.get("level") or "", TYPICAL_MS["easy"])


def _pooled(traces: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The games to judge, most recent first: each game with ``MIN_PLACEMENTS`` traced
    placements on its own; shorter ones (a 4x4 has 8-12 cells, a 6x6 about 20, a nearly
    full 9x9 a few) pooled, in order, into runs of at least ``MIN_PLACEMENTS``, each run
    judged as one game (a run still short at the end of the window is left out). Each
    comes with its ``speed``: time per placement over the typical time, weighted by
    placements over a run."""
    out: list[dict[str, Any]] = []
    run: dict[str, list] = {"gaps": [], "efforts": [], "options": [], "engine": [], "ms": []}
    for trace in traces:
        if not trace:
            continue
        gaps = list(trace.get("gaps") or [])
        per = trace.get("ms_per_placement")
        speed = [per / _typical_ms(trace)] * len(gaps) if per else []
        if len(gaps) >= MIN_PLACEMENTS:
            figures = game_figures(trace)
            figures["speed"] = speed[0] if speed else None
            out.append(figures)
            continue
        for key in ("gaps", "efforts", "options", "engine"):
            run[key].extend(trace.get(key) or [])
        run["ms"].extend(speed)
        if len(run["gaps"]) >= MIN_PLACEMENTS:
            figures = game_figures(run)
            figures["speed"] = statistics.fmean(run["ms"]) if run["ms"] else None
            out.append(figures)
            run = {key: [] for key in run}
    return out


def player_signals(
    traces: Sequence[Mapping[str, Any]], *, min_games: int = MIN_GAMES
) -> PlayerSignals:
    """Judge a player's recent games, most recent first (at most ``WINDOW`` are read).
    Each is a ``game_trace`` with the puzzle's ``level``, ``size`` and the game's
    ``ms_per_placement`` added (``GameReview.trace``); short games are pooled
    (``_pooled``), so every size is judged. ``min_games``: judged games needed before any
    verdict (the server's ``MIN_GAMES``; the bench tries others)."""
    judged = _pooled(traces[:WINDOW])
    choices = sum(f["choices"] for f in judged)
    cvs = [f["cv"] for f in judged if f["cv"] is not None]
    speeds = [f["speed"] for f in judged if f["speed"] is not None]
    signals = PlayerSignals(
        games=len(judged),
        placements=sum(f["placements"] for f in judged),
        choices=choices,
        engine_share=round(sum(f["engine"] for f in judged) / choices, 3) if choices else None,
        pause_cv=round(statistics.median(cvs), 3) if cvs else None,
        difficulty_corr=_round(
            _pooled_corr([(f["corr"], f["pairs"]) for f in judged if f["corr"] is not None])
        ),
        speed_ratio=round(statistics.median(speeds), 3) if speeds else None,
    )
    if signals.games < min_games:
        return signals
    reasons = signals.reasons
    if signals.pause_cv is not None and signals.pause_cv < STEADY_CV:
        reasons.append(
            f"steady pauses: their variation is {signals.pause_cv:.2f} of their mean "
            f"(people: {STEADY_CV} or more)"
        )
    found = []
    share = signals.engine_share
    if choices >= MIN_CHOICES_ALONE and share is not None and share >= ENGINE_ALONE:
        reasons.append(
            f"the engine's next cell on its own: {share:.0%} of {choices} placements with a "
            f"choice (people: under {ENGINE_ALONE:.0%})"
        )
    elif choices >= MIN_CHOICES and share is not None and share >= ENGINE_SHARE:
        found.append(
            f"{share:.0%} of {choices} placements with a choice took the engine's next cell"
        )
    if signals.difficulty_corr is not None and signals.difficulty_corr < BLIND_CORR:
        found.append(
            f"pauses blind to the difficulty of the step (correlation "
            f"{signals.difficulty_corr:.2f})"
        )
    if signals.speed_ratio is not None and signals.speed_ratio < FAST_RATIO:
        found.append(f"{signals.speed_ratio:.2f} of the typical time per placement")
    if len(found) >= 2:
        reasons.extend(found)
    return signals


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
