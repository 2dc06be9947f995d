"""Game endpoints: thin views over the game services (play.lifecycle, play.moves,
play.hints) and play.selectors.

Every game route looks the game up among the caller's own games only, so another
player's game is a 404 on every method.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.auth import TokenAuthentication
from puzzles.api.serializers import PuzzleExportSerializer
from ratings.selectors import (
    game_ratings_load,
)
from solving.api.throttles import AnalyseThrottle
from sudokusite.schema import error_responses
from sudokusite.serializers import NoInputSerializer

from .. import selectors
from ..errors import StaleVersion
from ..hints import hint_request
from ..lifecycle import game_abandon, game_heartbeat, game_pause, game_resume, game_start
from ..models import Game
from ..moves import game_auto_notes, game_redo, game_restart, game_undo, move_apply
from ..sharing import game_export
from .auth import GuestSessionAuthentication, IsPlayer, player_of
from .serializers.games import GameListQuerySerializer, GameListSerializer, GameSerializer
from .serializers.moves import (
    HeartbeatSerializer,
    HintInputSerializer,
    HintOutputSerializer,
    MoveInputSerializer,
    MoveOutputSerializer,
    VersionInputSerializer,
)
from .serializers.start import GameCreateInputSerializer

# What a game's write can be refused with, besides a stale version (409 with the game).
_OVER = "game_finished"
_RACED = "conflict"  # another request changed the game while this one ran: retry
_PLAYING = [_OVER, "game_paused", _RACED]


def _game_response(game: Game, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(GameSerializer(game).data, status=status_code)


def _tell_race(game: Game) -> None:
    """A race game's write reaches the race's sockets; any other game costs nothing."""
    if game.race_id is not None:
        from races.services import race_game_changed

        race_game_changed(game=game)


@extend_schema(tags=["games"])
class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = GameSerializer
    authentication_classes = [
        TokenAuthentication,
        SessionAuthentication,
        GuestSessionAuthentication,
    ]
    permission_classes = [IsPlayer]
    # Digits only, and few enough to fit a bigint: anything else is a plain 404.
    lookup_value_regex = "[0-9]{1,18}"

    def get_queryset(self) -> Any:
        status_filter = None
        if self.action == "list":
            # A plain dict: from a QueryDict DRF reads "status=" as no status at all.
            query = GameListQuerySerializer(data=self.request.query_params.dict())
            query.is_valid(raise_exception=True)
            status_filter = query.validated_data.get("status")
        return selectors.game_list(player=player_of(self.request), status=status_filter)

    def get_serializer_class(self) -> Any:
        return GameListSerializer if self.action == "list" else GameSerializer

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, StaleVersion):
            exc.extra["game"] = GameSerializer(exc.game).data
        return super().handle_exception(exc)

    def _version(self, request: Request) -> int | None:
        # An empty body is no version; null, a list or a string is a 400, not an empty body.
        return VersionInputSerializer.validated(request.data).get("version")

    @extend_schema(
        summary="Your games, newest first",
        parameters=[GameListQuerySerializer],
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One of your games")
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Start a game",
        description='Send one of `{"difficulty": "hard", "size": 9}` (a puzzle you have not '
        'played yet when there is one), `{"puzzle": 12}`, `{"grid": "53..7...."}` (your own '
        "puzzle, any format the solver parses, with exactly one solution), "
        '`{"daily": true}` (with an optional "size" and "variant": that variant\'s puzzle of '
        "the day, as GET /api/v1/puzzles/daily/ shows it; with "
        '`"constrained": true` and no size or variant: the 9x9 daily puzzle with constraints, '
        "never rated, as GET /api/v1/puzzles/daily/constrained/ shows it, 404 "
        "`no_constraint_daily` on a day it could not be made) or "
        '`{"technique": "x_wing", "size": 9}` '
        "(a practice game on a puzzle that needs the technique: one you have not played from "
        "the stock, else one made within a second, else one you have played; the stock is "
        "topped up behind it; a Killer technique such as `cage_combination` starts a Killer "
        "game, and `variant` may come with it; a constraint lesson made at levels such as "
        "`thermometer` starts a 9x9 game with its constraints, never rated, or answers 503 "
        "`practice_puzzle_not_ready` with Retry-After while its puzzles are being made) or "
        '`{"fpuzzles": {...}}` (a puzzle shared from '
        "f-puzzles or "
        "SudokuPad: its JSON object or text, its compressed text or a SudokuPad or f-puzzles "
        "link; played like a typed-in grid; `import_notes` beside the game lists what was "
        "left out, such as a cage that only carries a title). `variant` (`classic`, the "
        "default, `diagonal`, `jigsaw`, `killer`) goes with difficulty, or with "
        '`{"level": "mine"}` (a puzzle you have never played rated near your rating of that '
        "variant and size): Killer's `expert` has no givens at all. `mistake_limit` (1-99) "
        "ends the game as lost at that many mistakes. The clock starts now. A typed-in grid "
        "is checked within the solver's work budget (422 too_hard beyond it) and shares the "
        "rate of POST /api/v1/solver/analyse/. You have one unfinished game of a puzzle at most: "
        "asking for a puzzle you are playing (a retried request, today's daily started "
        "earlier) answers 200 with that game, as it is, instead of starting another.",
        request=GameCreateInputSerializer,
        responses={
            201: OpenApiResponse(GameSerializer, description="A new game."),
            200: OpenApiResponse(
                GameSerializer, description="Your unfinished game of that puzzle, as it is."
            ),
            **error_responses(
                {
                    400: [
                        "no_solution",
                        "multiple_solutions",
                        "unknown_technique",
                        "technique_not_on_size",
                        "technique_not_on_variant",
                    ],
                    404: [
                        "no_puzzle_available",
                        "bank_empty",
                        "no_practice_puzzle",
                        "no_constraint_daily",
                    ],
                    422: ["too_hard"],
                    503: ["practice_puzzle_not_ready"],
                }
            ),
        },
    )
    def create(self, request: Request) -> Response:
        data = GameCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        if "grid" in v or "fpuzzles" in v:
            throttle = AnalyseThrottle()  # a typed-in grid costs solver work
            if not throttle.allow_request(request, self):
                self.throttled(request, throttle.wait())
        if "technique" in v:
            from learn.services import practice_game_start

            # Making a puzzle here (the stock has none left for the player) costs solver
            # work: it shares the rate of a typed-in grid; past it, a fallback answers.
            make_throttle = AnalyseThrottle()
            game, created = practice_game_start(
                player=player_of(request, create=True),
                technique=v["technique"],
                size=v.get("size", 9),
                mistake_limit=v.get("mistake_limit"),
                may_make=lambda: make_throttle.allow_request(request, self),
                variant=v.get("variant"),
            )
            return _game_response(game, status.HTTP_201_CREATED if created else status.HTTP_200_OK)
        # A level run out for this player makes a puzzle here: solver work, at the rate of
        # a typed-in grid (past it, a puzzle they played before answers).
        make_throttle = AnalyseThrottle()
        game, created = game_start(
            may_make=lambda: make_throttle.allow_request(request, self),
            player=player_of(request, create=True),
            puzzle_id=v.get("puzzle"),
            difficulty=v.get("difficulty"),
            size=v.get("size", 9),
            daily=v.get("daily", False),
            constrained=v.get("constrained", False),
            mistake_limit=v.get("mistake_limit"),
            grid_text=v.get("grid"),
            fpuzzles=v.get("fpuzzles"),
            variant=v.get("variant", "classic"),
            mine=v.get("level") == "mine",
        )
        game_ratings_load(game)
        response = _game_response(game, status.HTTP_201_CREATED if created else status.HTTP_200_OK)
        if "fpuzzles" in v:  # what the import left out (decorative cages), as analyse says
            from solving.variants import fpuzzles_read

            response.data["import_notes"] = list(fpuzzles_read(v["fpuzzles"]).notes)
        return response

    @extend_schema(
        summary="Play a move: place or clear a value, or toggle a note",
        description="A wrong value counts a mistake and stays on the board until changed. "
        "Retrying with the same client_move_id returns the stored answer (replayed: true) "
        "without applying the move twice.",
        request=MoveInputSerializer,
        responses={
            200: MoveOutputSerializer,
            **error_responses(
                {
                    409: [*_PLAYING, "cell_is_given", "cell_has_value"],
                    422: ["idempotency_conflict"],
                },
                stale=True,
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def moves(self, request: Request, pk: str) -> Response:
        move = MoveInputSerializer.validated(request.data)
        result = move_apply(game_id=int(pk), player=player_of(request), **move)
        if not result.replayed:
            _tell_race(result.game)
        return Response(
            {
                "correct": result.correct,
                "conflicts": result.conflicts,
                "completed": result.completed,
                "replayed": result.replayed,
                "game": GameSerializer(result.game).data,
            }
        )

    def _simple(self, request: Request, pk: str, service: Any) -> Response:
        game = service(game_id=int(pk), player=player_of(request), version=self._version(request))
        _tell_race(game)
        return _game_response(game)

    @extend_schema(
        summary="Undo the last move (mistakes stay counted)",
        request=VersionInputSerializer,
        responses={
            200: GameSerializer,
            **error_responses({409: [*_PLAYING, "nothing_to_undo"]}, stale=True),
        },
    )
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str) -> Response:
        return self._simple(request, pk, game_undo)

    @extend_schema(
        summary="Redo the last undone move",
        request=VersionInputSerializer,
        responses={
            200: GameSerializer,
            **error_responses({409: [*_PLAYING, "nothing_to_redo"]}, stale=True),
        },
    )
    @action(detail=True, methods=["post"])
    def redo(self, request: Request, pk: str) -> Response:
        return self._simple(request, pk, game_redo)

    @extend_schema(
        summary="Pause: the clock stops and the board is hidden until resumed",
        request=VersionInputSerializer,
        responses={200: GameSerializer, **error_responses({409: [_OVER, _RACED]}, stale=True)},
    )
    @action(detail=True, methods=["post"])
    def pause(self, request: Request, pk: str) -> Response:
        return self._simple(request, pk, game_pause)

    @extend_schema(
        summary="Resume a paused game: the clock runs again",
        request=VersionInputSerializer,
        responses={200: GameSerializer, **error_responses({409: [_OVER, _RACED]}, stale=True)},
    )
    @action(detail=True, methods=["post"])
    def resume(self, request: Request, pk: str) -> Response:
        return self._simple(request, pk, game_resume)

    @extend_schema(
        summary="A sign of life: the clock counts up to now",
        description="The clock counts only while someone plays: of the time between two "
        "signs of life (any write to the game, or this), at most `clock_gap_ms` counts, so "
        "a client that vanishes stops the clock within that gap. Send one while the game is "
        "on screen, every third of the gap; no body. It changes neither the version nor "
        "the log, sooner than 5 s after the last sign of life it writes nothing, and a "
        "paused or finished game is answered as it is.",
        request=None,
        responses={200: HeartbeatSerializer},
    )
    @action(detail=True, methods=["post"])
    def heartbeat(self, request: Request, pk: str) -> Response:
        NoInputSerializer.validated(request.data)
        game = game_heartbeat(game_id=int(pk), player=player_of(request))
        return Response(HeartbeatSerializer(game).data)

    @extend_schema(
        summary="Give up the game (the solution is shown)",
        request=VersionInputSerializer,
        responses={200: GameSerializer, **error_responses({409: [_OVER, _RACED]}, stale=True)},
    )
    @action(detail=True, methods=["post"])
    def abandon(self, request: Request, pk: str) -> Response:
        return self._simple(request, pk, game_abandon)

    @extend_schema(
        summary="Auto notes: pencil every empty cell's candidates in",
        description="An aid: each use that changes the notes counts against the score "
        "(see the scoring). Undoable as one move; undo does not refund the aid.",
        request=VersionInputSerializer,
        responses={
            200: GameSerializer,
            **error_responses({409: [*_PLAYING, "aids_off_in_race"]}, stale=True),
        },
    )
    @action(detail=True, methods=["post"], url_path="auto-notes")
    def auto_notes(self, request: Request, pk: str) -> Response:
        return self._simple(request, pk, game_auto_notes)

    @extend_schema(
        summary="Restart: clear every entry and note (the clock and counts stay)",
        request=VersionInputSerializer,
        responses={200: GameSerializer, **error_responses({409: _PLAYING}, stale=True)},
    )
    @action(detail=True, methods=["post"])
    def restart(self, request: Request, pk: str) -> Response:
        return self._simple(request, pk, game_restart)

    @extend_schema(
        summary="The game's puzzle as f-puzzles JSON and SudokuPad / f-puzzles share links",
        description="As GET /api/v1/puzzles/{id}/export/ answers for the game's puzzle: the "
        "solution only once this game shows it and the puzzle is no daily or leaderboard "
        "puzzle in play.",
        responses={200: PuzzleExportSerializer},
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        return Response(PuzzleExportSerializer(game_export(game)).data)

    @extend_schema(
        summary="A hint, in stages: 1 where to look, 2 the technique, 3 apply it",
        description="Each stage not yet revealed for this position costs score; asking for "
        "level 2 first pays for 1 and 2. If a value on the board is wrong, the hint says so "
        "first.",
        request=HintInputSerializer,
        responses={
            200: HintOutputSerializer,
            **error_responses(
                {409: [*_PLAYING, "hint_unavailable", "hints_off_in_race"]}, stale=True
            ),
        },
    )
    @action(detail=True, methods=["post"])
    def hint(self, request: Request, pk: str) -> Response:
        data = HintInputSerializer.validated(request.data)
        result = hint_request(game_id=int(pk), player=player_of(request), **data)
        return Response({"hint": result.hint, "game": GameSerializer(result.game).data})
