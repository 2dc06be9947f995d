"""Replay endpoints: thin views over replays.selectors and replays.services.

The owner's routes find the game among the caller's own games only (the games API's
authentication and ownership), so another player's game is a 404; an unfinished game is a
409 that holds no solution. A shared replay is read by its token alone, by anyone.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import TokenAuthentication
from play.api.auth import GuestSessionAuthentication, IsPlayer, player_of
from sudokusite.schema import error_responses

from .. import selectors, services
from .serializers import (
    ReplayQuerySerializer,
    ReplaySerializer,
    ShareInputSerializer,
    ShareSerializer,
    replay_payload,
    share_payload,
)

NOT_FINISHED = error_responses({409: ["game_not_finished"]})


def _query(request: Request) -> dict[str, Any]:
    query = ReplayQuerySerializer(data=request.query_params.dict())
    query.is_valid(raise_exception=True)
    return query.validated_data


class _OwnerView(APIView):
    authentication_classes = [
        TokenAuthentication,
        SessionAuthentication,
        GuestSessionAuthentication,
    ]
    permission_classes = [IsPlayer]


class ReplayView(_OwnerView):
    @extend_schema(
        summary="A finished game's replay: givens, solution, every event, the analysis",
        description="Events come in order with their game time (paused time excluded) and "
        "wall time. The analysis is computed once when the game ends: `pending` until then. "
        "`speed` (1, 4 or 16) and `position` (an event's seq) are checked: any other value "
        "is a 400 naming the parameter.",
        parameters=[ReplayQuerySerializer],
        responses={200: ReplaySerializer, **NOT_FINISHED},
        tags=["games"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = _query(request)
        game = selectors.finished_game_get(game_id=int(game_id), player=player_of(request))
        events = selectors.event_list(game=game)
        return Response(
            replay_payload(
                game,
                events,
                owner=True,
                speed=query.get("speed", 1),
                position=query.get("position"),
            )
        )


class ReplayShareView(_OwnerView):
    @extend_schema(
        summary="Share a finished game's replay (a public /r/<token>/ link)",
        description="Sharing again keeps the link and updates `show_username`.",
        request=ShareInputSerializer,
        responses={200: ShareSerializer, **NOT_FINISHED},
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = ShareInputSerializer.validated(request.data)
        share = services.replay_share(
            game_id=int(game_id), player=player_of(request), show_username=data["show_username"]
        )
        return Response(share_payload(share.game))

    @extend_schema(
        summary="Stop sharing: the public link is a 404 at once",
        request=None,
        responses={204: None, **NOT_FINISHED},
        tags=["games"],
    )
    def delete(self, request: Request, game_id: str) -> Response:
        services.replay_unshare(game_id=int(game_id), player=player_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SharedReplayView(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A shared replay, by its token (anyone, no account)",
        description="The username is shown only if the owner chose so. An unknown, "
        "malformed or unshared token is a 404.",
        parameters=[ReplayQuerySerializer],
        responses={200: ReplaySerializer},
        tags=["replays"],
    )
    def get(self, request: Request, token: str) -> Response:
        query = _query(request)
        game = selectors.shared_game_get(token=token)
        events = selectors.event_list(game=game)
        return Response(
            replay_payload(
                game,
                events,
                owner=False,
                speed=query.get("speed", 1),
                position=query.get("position"),
            )
        )
