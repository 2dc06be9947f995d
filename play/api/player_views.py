"""The player's own endpoints (board aids, statistics) and the leaderboards: thin views
over play.aids, play.selectors and ratings.selectors."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from puzzles.models import Puzzle
from ratings.schema import LEADERBOARD_EXAMPLES, STATS_EXAMPLE
from ratings.selectors import (
    BOARD_MAX_DEVIATION,
    BOARD_MIN_GAMES,
    rating_leaderboard,
    rating_stats,
)

from .. import selectors
from ..aids import aid_settings_of, aid_settings_set
from .serializers.aids import AidSettingsInputSerializer, AidSettingsSerializer
from .serializers.scores import (
    LeaderboardQuerySerializer,
    LeaderboardRowSerializer,
    StatsSerializer,
)


class AidSettingsView(APIView):
    """The signed-in player's board aids, kept on the account (docs/playing.md)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your board aids", responses={200: AidSettingsSerializer}, tags=["me"])
    def get(self, request: Request) -> Response:
        return Response(aid_settings_of(user=request.user))

    @extend_schema(
        summary="Turn board aids on or off",
        request=AidSettingsInputSerializer,
        responses={200: AidSettingsSerializer},
        tags=["me"],
    )
    def patch(self, request: Request) -> Response:
        changes = AidSettingsInputSerializer.validated(request.data)
        return Response(aid_settings_set(user=request.user, **changes))


class StatsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your statistics per size and level, and your rating per variant and size",
        responses={200: StatsSerializer},
        examples=[STATS_EXAMPLE],
        tags=["me"],
    )
    def get(self, request: Request) -> Response:
        from integrity.players import player_standing
        from learn.selectors import practice_progress

        data = selectors.user_stats(user=request.user)
        data["standing"] = player_standing(user=request.user)
        data["ratings"] = rating_stats(user=request.user)
        data["practice"] = practice_progress(user=request.user)
        return Response(StatsSerializer(data).data)


class _LeaderboardView(GenericAPIView):
    permission_classes = [AllowAny]
    serializer_class = LeaderboardRowSerializer

    def _page(self, rows: Any, *, rounded: bool = False) -> Response:
        page = self.paginate_queryset(rows)
        start = (self.paginator.page.number - 1) * self.paginator.get_page_size(self.request)
        if rounded:  # ratings are stored as floats and shown whole
            page = [
                {**r, "rating": round(r["rating"]), "deviation": round(r["deviation"])}
                for r in page
            ]
        ranked = [{"rank": start + i + 1, **row} for i, row in enumerate(page)]
        return self.get_paginated_response(LeaderboardRowSerializer(ranked, many=True).data)


class LeaderboardView(_LeaderboardView):
    @extend_schema(
        summary="Best players at one size and level, or the best ratings at one variant and size",
        description="board=score (the default): each player's best score and best time over "
        "completed games that count (a game's `counts`: their first game of a bank puzzle, "
        "signed in, judged plausible; docs/integrity.md) at `difficulty`; period: "
        "day (since midnight), week (since Monday) or all; server time zone. board=rating: "
        "players' Glicko-2 ratings at `variant` (classic by default) and `size`, best first, "
        "only established ones (deviation "
        f"under {BOARD_MAX_DEVIATION:.0f} after at least {BOARD_MIN_GAMES} rated games); "
        "difficulty and period do not apply.",
        parameters=[LeaderboardQuerySerializer],
        responses={200: LeaderboardRowSerializer(many=True)},
        examples=LEADERBOARD_EXAMPLES,
        tags=["leaderboards"],
    )
    def get(self, request: Request) -> Response:
        query = LeaderboardQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        v = query.validated_data
        if v.pop("board") == "rating":
            board = rating_leaderboard(size=v["size"], variant=v["variant"])
            return self._page(board, rounded=True)
        return self._page(selectors.leaderboard(**v))


class PuzzleLeaderboardView(_LeaderboardView):
    @extend_schema(
        summary="Best players of one puzzle",
        parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH)],
        responses={200: LeaderboardRowSerializer(many=True)},
        tags=["leaderboards"],
    )
    def get(self, request: Request, id: int) -> Response:
        puzzle = get_object_or_404(Puzzle.objects.only("id"), pk=id)
        return self._page(selectors.puzzle_leaderboard(puzzle_id=puzzle.pk))
