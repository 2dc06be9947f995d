"""Puzzle bank endpoints: thin views over puzzles.selectors (reads) and puzzles.packs and
puzzles.daily (writes).

Players read puzzles (never a solution); staff ask for packs, follow, cancel and
export them.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from puzzles import constraint_daily, daily, packs, selectors
from puzzles.exports import pack_export
from puzzles.models import CONSTRAINED_DAILY_SIZE, DailyPuzzle, Puzzle, PuzzlePack
from sudokusite.schema import error_responses
from sudokusite.serializers import NoInputSerializer

from . import schema  # noqa: F401 - registers the pack request's schema
from .serializers import (
    ConstraintDailyScheduleSerializer,
    DailiesQuerySerializer,
    DailyPuzzleSerializer,
    DailyQuerySerializer,
    DailyScheduleSerializer,
    ExportQuerySerializer,
    PackCreateSerializer,
    PackSerializer,
    PuzzleExportSerializer,
    PuzzleQuerySerializer,
    PuzzleSerializer,
)


class PuzzleViewSet(viewsets.GenericViewSet):
    """Stored puzzles, for any signed-in player. Never the solution."""

    permission_classes = [IsAuthenticated]
    serializer_class = PuzzleSerializer
    queryset = Puzzle.objects.none()

    def get_queryset(self):
        return selectors.puzzle_list()

    @extend_schema(
        summary="List puzzles",
        parameters=[PuzzleQuerySerializer],
        responses={200: PuzzleSerializer(many=True)},
        tags=["puzzles"],
    )
    def list(self, request: Request) -> Response:
        query = PuzzleQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        puzzles = selectors.puzzle_list(
            size=query.validated_data.get("size"),
            difficulty=query.validated_data.get("difficulty"),
            pack_id=query.validated_data.get("pack"),
            bank_only=True,  # a puzzle typed in is its player's, not for browsing
        )
        page = self.paginate_queryset(puzzles)
        return self.get_paginated_response(PuzzleSerializer(page, many=True).data)

    @extend_schema(summary="One puzzle", responses={200: PuzzleSerializer}, tags=["puzzles"])
    def retrieve(self, request: Request, pk: str) -> Response:
        puzzle = self.get_object()
        return Response(PuzzleSerializer(puzzle).data)

    @extend_schema(
        summary="A puzzle as f-puzzles JSON and SudokuPad / f-puzzles share links",
        description="Any puzzle you may open (a bank puzzle, a daily, one you imported). "
        "The solution is included only when a finished game of yours shows it and the "
        "puzzle is no daily or leaderboard puzzle in play. Import it back through "
        '`POST /api/v1/games/ {"fpuzzles": ...}` or `POST /api/v1/solver/analyse/`, which '
        "take the object, its JSON text, the compressed text or either link.",
        responses={200: PuzzleExportSerializer},
        tags=["puzzles"],
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str) -> Response:
        from play.disclosure import export_solution_visible
        from play.models import Game
        from play.steps import Player
        from puzzles.sharing import puzzle_export

        puzzle = self.get_object()
        games = Game.objects.filter(Player(user=request.user).owns(), puzzle=puzzle)
        shown = export_solution_visible(puzzle, games=games)
        return Response(
            PuzzleExportSerializer(puzzle_export(puzzle=puzzle, with_solution=shown)).data
        )

    @extend_schema(
        summary="Today's daily puzzle",
        description="The puzzle of the day (UTC) for a variant and size, the same for every "
        "player. Classic 9x9 unless `variant` and `size` say otherwise; every variant's "
        "puzzles of the day are listed by /api/v1/puzzles/daily/all/. Its leaderboard is "
        "/api/v1/puzzles/{id}/leaderboard/; play it with "
        '`POST /api/v1/games/ {"daily": true, "variant": ..., "size": ...}`.',
        parameters=[DailyQuerySerializer],
        responses={200: DailyPuzzleSerializer, **error_responses({404: ["bank_empty"]})},
        tags=["puzzles"],
    )
    @action(detail=False, methods=["get"])
    def daily(self, request: Request) -> Response:
        query = DailyQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        v = query.validated_data
        today = timezone.now().date()
        chosen = daily.daily_puzzle_pick(day=today, size=v["size"], variant=v["variant"])
        return Response(DailyPuzzleSerializer(_dated(chosen)).data)

    @extend_schema(
        summary="Today's daily puzzle with constraints",
        description="The 9x9 puzzle with constraints of the day (UTC), the same for every "
        "player: its kind of constraint turns with the date "
        "(/api/v1/puzzles/daily/constrained/schedule/), its `label` names it and its level. "
        "Its games are never rated or ranked (`rated` is false). Made ahead of the day; "
        "when it is missing it is made now within seconds, and a day it cannot be made has "
        "none: `404 no_constraint_daily`. Play it with "
        '`POST /api/v1/games/ {"daily": true, "constrained": true}`.',
        responses={
            200: DailyPuzzleSerializer,
            **error_responses({404: ["no_constraint_daily"]}),
        },
        tags=["puzzles"],
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="daily/constrained",
        url_name="daily-constrained",
    )
    def daily_constrained(self, request: Request) -> Response:
        today = timezone.now().date()
        chosen = constraint_daily.constraint_daily_pick(day=today)
        if chosen is None:
            raise constraint_daily.ConstraintDailyAbsent()
        return Response(DailyPuzzleSerializer(_dated(chosen)).data)

    @extend_schema(
        summary="The daily puzzle with constraints: its kind and level, day by day",
        description="From today (UTC), one turn of the kinds: each day's constraint type, "
        "its name and the level its puzzle is made at (the level the generator reaches "
        "reliably for that kind). The daily's own `difficulty` is its puzzle's measured "
        "level.",
        responses={200: ConstraintDailyScheduleSerializer(many=True)},
        tags=["puzzles"],
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="daily/constrained/schedule",
        url_name="daily-constrained-schedule",
        pagination_class=None,
    )
    def daily_constrained_schedule(self, request: Request) -> Response:
        days = constraint_daily.constraint_daily_schedule(start=timezone.now().date())
        return Response(ConstraintDailyScheduleSerializer(days, many=True).data)

    @extend_schema(
        summary="Today's daily puzzles, every variant",
        description="The puzzles of the day (UTC) of every variant and size the bank has "
        "(classic first), or of one `size`: one entry per variant and size, each as "
        "/api/v1/puzzles/daily/ answers it, then (at 9x9) the daily puzzle with "
        "constraints (`constrained`: true, `rated`: false). A variant the bank has no "
        "puzzle of yet is left out, and the puzzle with constraints on a day it could not "
        "be made, so the list may be empty.",
        parameters=[DailiesQuerySerializer],
        responses={200: DailyPuzzleSerializer(many=True)},
        tags=["puzzles"],
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="daily/all",
        url_name="daily-all",
        pagination_class=None,
    )
    def dailies(self, request: Request) -> Response:
        query = DailiesQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        today = timezone.now().date()
        size = query.validated_data.get("size")
        chosen = daily.daily_puzzles_of_day(day=today, size=size)
        if size in (None, CONSTRAINED_DAILY_SIZE):
            constrained = constraint_daily.constraint_daily_pick(day=today)
            if constrained is not None:  # absent on a day it could not be made
                chosen.append(constrained)
        return Response(DailyPuzzleSerializer([_dated(d) for d in chosen], many=True).data)

    @extend_schema(
        summary="The daily puzzles' week of levels, per variant",
        description="The level each variant's daily puzzle has on each day of the week at "
        "`size` (9 by default): easy early in the week, the hardest at its end; Killer's "
        "week tops out at hard. A level a size does not offer falls to the nearest easier "
        "one. The daily's own `difficulty` is its puzzle's measured level.",
        parameters=[DailiesQuerySerializer],
        responses={200: DailyScheduleSerializer(many=True)},
        tags=["puzzles"],
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="daily/schedule",
        url_name="daily-schedule",
        pagination_class=None,
    )
    def daily_schedule(self, request: Request) -> Response:
        query = DailiesQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        weeks = daily.daily_schedule(size=query.validated_data.get("size") or 9)
        return Response(DailyScheduleSerializer(weeks, many=True).data)


def _dated(chosen: DailyPuzzle) -> Puzzle:
    """The daily's puzzle, carrying its ``date`` and scheduled level for
    DailyPuzzleSerializer."""
    puzzle = chosen.puzzle
    puzzle.date = chosen.date  # type: ignore[attr-defined]
    if chosen.constrained:
        scheduled = constraint_daily.constraint_daily_level(chosen.date)
    else:
        scheduled = daily.daily_level(chosen.date, chosen.size, chosen.variant)
    puzzle.scheduled_level = scheduled  # type: ignore[attr-defined]
    return puzzle


class _NoFormatNegotiation(DefaultContentNegotiation):
    """``?format=`` names the export's file format here, not an API renderer."""

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        return (JSONRenderer(), JSONRenderer.media_type)


class PackViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):
    """Puzzle packs: staff only."""

    permission_classes = [IsAdminUser]
    serializer_class = PackSerializer
    queryset = PuzzlePack.objects.none()

    def get_queryset(self):
        return selectors.pack_list()

    @extend_schema(summary="List packs", tags=["packs"])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One pack, with its progress", tags=["packs"])
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Ask for a new pack",
        description="Records the pack and queues its generation; answers at once with "
        f"202. At most {packs.PACK_MAX_COUNT:,} puzzles per pack; the level must be "
        "one the size is made at (4x4: easy; 6x6: easy, medium; ...).",
        request=PackCreateSerializer,
        responses={
            202: PackSerializer,
            **error_responses(
                {
                    400: [
                        f"invalid_{field}"
                        for field in (
                            "name",
                            "size",
                            "difficulty",
                            "count",
                            "symmetry",
                            "technique",
                            "variant",
                        )
                    ],
                    409: ["pack_name_taken"],
                }
            ),
        },
        tags=["packs"],
    )
    def create(self, request: Request) -> Response:
        data = PackCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pack = packs.pack_create(**data.validated_data, requested_by=request.user)
        return Response(
            PackSerializer(selectors.pack_get(pack_id=pack.pk)).data,
            status=status.HTTP_202_ACCEPTED,
        )

    @extend_schema(
        summary="Cancel a pack",
        request=None,
        responses={200: PackSerializer, **error_responses({409: ["pack_not_active"]})},
        tags=["packs"],
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str) -> Response:
        pack = self.get_object()
        NoInputSerializer.validated(request.data)
        packs.pack_cancel(pack=pack)
        return Response(PackSerializer(selectors.pack_get(pack_id=pack.pk)).data)

    @extend_schema(
        summary="Download a pack",
        description="txt: one puzzle per line; sdm: the same with 0 for empty cells; "
        "csv: position, id, givens, solution, level, score; json: the pack and its puzzles "
        "with solutions.",
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, enum=["txt", "sdm", "csv", "json"], default="txt"
            )
        ],
        responses={
            (200, "text/plain"): OpenApiTypes.STR,
            (200, "text/csv"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
        },
        tags=["packs"],
    )
    @action(detail=True, methods=["get"], content_negotiation_class=_NoFormatNegotiation)
    def export(self, request: Request, pk: str) -> HttpResponse:
        pack = self.get_object()
        query = ExportQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        exported = pack_export(pack=pack, fmt=query.validated_data["format"])
        response = HttpResponse(exported.content, content_type=exported.content_type)
        response["Content-Disposition"] = f'attachment; filename="{exported.filename}"'
        return response
