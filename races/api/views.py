"""Race endpoints: thin views over races.services; the live updates are on the socket
(docs/api.md, "Races")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import TokenAuthentication
from sudokusite.schema import error_responses

from .. import services
from ..errors import RaceNotFinished
from ..models import RaceStatus
from .serializers import RaceCreateInputSerializer, RaceViewSerializer
from .throttles import RaceCreateThrottle

_AUTH = [TokenAuthentication, SessionAuthentication]


def _view(code: str, request: Request, status_code: int = status.HTTP_200_OK) -> Response:
    message, _due = services.race_snapshot(code=code, user=request.user)
    return Response({"race": message["race"], "you": message["you"]}, status=status_code)


class RaceListView(APIView):
    authentication_classes = _AUTH
    permission_classes = [IsAuthenticated]

    def get_throttles(self) -> list[Any]:
        return [RaceCreateThrottle()]

    @extend_schema(
        summary="Create a race",
        description='Send `{"difficulty": "easy", "size": 9}` or `{"daily": true, "size": 9}`, '
        'with `"variant"` (`classic` by default, `diagonal`, `jigsaw`, `killer`) as a game '
        "takes it, and optionally `time_limit_minutes` (1-180, default 20). You are its host "
        "and first racer; share its page /races/<code>/ (up to 8 racers). You may host a few races "
        "not yet finished at once (409 too_many_races beyond), and make races at "
        "RACE_CREATE_RATE (429). Live updates: the socket /ws/races/<code>/ (docs/api.md).",
        request=RaceCreateInputSerializer,
        responses={
            201: RaceViewSerializer,
            **error_responses({409: ["too_many_races", "daily_already_played"]}),
        },
        tags=["races"],
    )
    def post(self, request: Request) -> Response:
        data = RaceCreateInputSerializer.validated(request.data)
        race = services.race_create(
            host=request.user,
            size=data["size"],
            difficulty=data.get("difficulty", ""),
            daily=data["daily"],
            time_limit_s=data["time_limit_minutes"] * 60,
            variant=data["variant"],
        )
        return _view(race.code, request, status.HTTP_201_CREATED)


class RaceView(APIView):
    authentication_classes = _AUTH
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A race as it stands",
        description="Anyone with the race's code may watch. `you.game` is your own game of "
        "the race once it has started (play it with the game API; hints and auto notes are "
        "off). Reading a race whose countdown or time limit has passed makes the start or "
        "the end happen.",
        responses={200: RaceViewSerializer, **error_responses({404: ["race_not_found"]})},
        tags=["races"],
    )
    def get(self, request: Request, code: str) -> Response:
        return _view(code, request)


class _RaceAction(APIView):
    authentication_classes = _AUTH
    permission_classes = [IsAuthenticated]
    service: Any = None

    def post(self, request: Request, code: str) -> Response:
        type(self).service(code=code, user=request.user)
        return _view(code, request)


class RaceJoinView(_RaceAction):
    service = services.race_join

    @extend_schema(
        summary="Join a race still in its lobby (joining again changes nothing)",
        request=None,
        responses={
            200: RaceViewSerializer,
            **error_responses(
                {
                    404: ["race_not_found"],
                    409: ["race_full", "race_started", "daily_already_played"],
                }
            ),
        },
        tags=["races"],
    )
    def post(self, request: Request, code: str) -> Response:
        return super().post(request, code)


class RaceLeaveView(_RaceAction):
    service = services.race_leave

    @extend_schema(
        summary="Leave a race before it starts",
        request=None,
        responses={
            200: RaceViewSerializer,
            **error_responses(
                {404: ["race_not_found"], 409: ["race_started", "host_cannot_leave"]}
            ),
        },
        tags=["races"],
    )
    def post(self, request: Request, code: str) -> Response:
        return super().post(request, code)


class RaceStartView(_RaceAction):
    service = services.race_start

    @extend_schema(
        summary="Start the countdown (the host only)",
        description="The puzzle is chosen now and shown to nobody before the start.",
        request=None,
        responses={
            200: RaceViewSerializer,
            **error_responses(
                {
                    403: ["not_host"],
                    404: ["race_not_found", "no_puzzle_available"],
                    409: ["race_started"],
                }
            ),
        },
        tags=["races"],
    )
    def post(self, request: Request, code: str) -> Response:
        return super().post(request, code)


class RaceResultsView(APIView):
    authentication_classes = _AUTH
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A finished race's results",
        description="The racers in finishing order (those who did not finish after, in "
        "joining order), each with a link to their shared replay. 409 race_not_finished "
        "before the end.",
        responses={
            200: RaceViewSerializer,
            **error_responses({404: ["race_not_found"], 409: ["race_not_finished"]}),
        },
        tags=["races"],
    )
    def get(self, request: Request, code: str) -> Response:
        message, _due = services.race_snapshot(code=code, user=request.user)
        race = message["race"]
        if race["status"] != RaceStatus.FINISHED:
            raise RaceNotFinished()
        race["racers"].sort(key=lambda r: (r["place"] is None, r["place"] or 0))
        return Response({"race": race, "you": message["you"]})
