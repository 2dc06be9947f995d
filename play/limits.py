"""How much work one player may ask of the server.

- **Game starts** (every way in: the API, the lobby, practice): ``GAME_STARTS_PER_MINUTE``
  and ``GAME_STARTS_PER_DAY`` per signed-in user; a guest is counted by their session's
  guest key and by their client address, so a fresh session does not reset the count.
  Only starts that make a game count (asking again for the game one is playing does not).
  Beyond either, 429 ``too_many_games`` with ``Retry-After``.
- **Writes per game**: ``GAME_MOVES_PER_CELL`` per cell of the grid (play.steps.log_entry,
  409 ``too_many_moves``; giving up is always allowed).
- **Analyses**: ``ANALYSES_PER_HOUR`` per player (replays.services.analysis_enqueue);
  a game that ends beyond it is stored as not analysed instead of queued.

Counts live in the cache (sudokusite.throttling.window_count, fixed windows); when the
cache is unreachable the limits let the work through, as the API's throttles do. The
moves bound reads the game row and needs no cache.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from sudokusite.errors import TooManyRequests
from sudokusite.throttling import window_count


class Player(Protocol):
    """play.steps.Player as this module reads it (play.steps imports play.ending, which
    imports this module: no import back)."""

    user: Any
    guest_key: str
    address: str


MINUTE = 60
DAY = 24 * 60 * 60


class TooManyGames(TooManyRequests):
    code = "too_many_games"
    message = _("You have started too many games: try again later.")


def player_keys(player: Player) -> list[str]:
    """Who a limit counts: the user, or a guest's session key and client address."""
    if player.user is not None:
        return [f"user:{player.user.pk}"]
    keys = [f"guest:{player.guest_key}"] if player.guest_key else []
    if player.address:
        keys.append(f"address:{player.address}")
    return keys


def game_start_allow(*, player: Player) -> None:
    """Count a game start; TooManyGames when it is over a rate (the game is not made)."""
    rates = (
        (MINUTE, settings.GAME_STARTS_PER_MINUTE, gettext("a minute")),
        (DAY, settings.GAME_STARTS_PER_DAY, gettext("a day")),
    )
    for period, limit, per in rates:
        for key in player_keys(player):
            counted = window_count(f"game_start:{key}", period=period)
            if counted is not None and counted[0] > limit:
                raise TooManyGames(
                    gettext(
                        "Too many games started: at most %(limit)s in %(period)s. Finish one "
                        "of them, or try again in %(seconds)s seconds."
                    )
                    % {"limit": limit, "period": per, "seconds": counted[1]},
                    retry_after=counted[1],
                )


def analysis_allow(*, user_id: int | None, guest_key: str) -> bool:
    """Count an analysis for this player: False when it is over ``ANALYSES_PER_HOUR``."""
    key = f"user:{user_id}" if user_id is not None else f"guest:{guest_key}"
    counted = window_count(f"analysis:{key}", period=60 * 60)
    return counted is None or counted[0] <= settings.ANALYSES_PER_HOUR
