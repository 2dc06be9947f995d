"""Account endpoints: thin views over accounts.services."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, update_session_auth_hash
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from play.lifecycle import game_claim_guest_games
from sudokusite.errors import DomainError
from sudokusite.schema import error_responses
from sudokusite.serializers import NoInputSerializer

from .. import services
from .serializers import (
    AccountDeleteInputSerializer,
    DetailSerializer,
    PasswordChangeInputSerializer,
    PasswordResetInputSerializer,
    RegisterInputSerializer,
    TokenInputSerializer,
    TokenOutputSerializer,
    UserSerializer,
)
from .throttles import (
    AuthAddressThrottle,
    AuthUsernameThrottle,
    PasswordResetAddressThrottle,
    RegisterAddressThrottle,
)


class InvalidCredentials(DomainError):
    code = "invalid_credentials"
    message = gettext_lazy("Unable to sign in with that username and password.")


def _token_payload(token: AuthToken, key: str) -> dict[str, Any]:
    return {"token": key, "expiry": token.expiry, "user": UserSerializer(token.user).data}


def _issue_token(request: Request, user: Any) -> dict[str, Any]:
    token, key = services.token_create(user=user)
    # Records last_login, and tells django-axes the sign-in succeeded.
    user_logged_in.send(sender=type(user), request=request._request, user=user)
    # Games played as a guest in this browser session join the account, as on the web
    # forms (they are reviewed there, and never count: integrity.gate).
    game_claim_guest_games(request=request._request, user=user)
    return _token_payload(token, key)


class RegisterView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [RegisterAddressThrottle]

    @extend_schema(
        summary="Create an account and get an API token",
        request=RegisterInputSerializer,
        responses={201: TokenOutputSerializer},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = RegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = services.user_register(**data.validated_data)
        return Response(_issue_token(request, user), status=status.HTTP_201_CREATED)


class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AuthAddressThrottle, AuthUsernameThrottle]

    @extend_schema(
        summary="Sign in: exchange a username and password for an API token",
        description="Each call creates a new token for one device. Tokens expire after "
        "a period without use.",
        request=TokenInputSerializer,
        responses={
            200: TokenOutputSerializer,
            **error_responses({400: ["invalid_credentials"], 429: ["login_locked"]}),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = TokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request._request, **data.validated_data)
        if getattr(request._request, "axes_locked_out", False):
            raise services.SignInLocked()
        if user is None or not user.is_active:
            raise InvalidCredentials()
        return Response(_issue_token(request, user))


class LogoutView(APIView):
    @extend_schema(
        summary="Sign out this device (its token stops working)",
        request=None,
        responses={204: OpenApiResponse(description="Signed out.")},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        NoInputSerializer.validated(request.data)
        if isinstance(request.auth, AuthToken):
            services.token_revoke(token=request.auth)
        else:
            services.session_end(request=request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(APIView):
    @extend_schema(
        summary="Sign out every device of this account",
        request=None,
        responses={204: OpenApiResponse(description="All tokens revoked.")},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        NoInputSerializer.validated(request.data)
        services.token_revoke_all(user=request.user)
        if not isinstance(request.auth, AuthToken):
            services.session_end(request=request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The signed-in user", responses={200: UserSerializer}, tags=["me"])
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(request.user).data)


class PasswordChangeView(APIView):
    throttle_classes = [AuthAddressThrottle]

    @extend_schema(
        summary="Change the password; signs out every device",
        description="All existing tokens are revoked. When the request used a token, "
        "the response carries a fresh token for this device. A wrong old password counts "
        "as a failed sign-in: after too many, the account is locked out (429 login_locked).",
        request=PasswordChangeInputSerializer,
        responses={200: TokenOutputSerializer, **error_responses({429: ["login_locked"]})},
        tags=["me"],
    )
    def post(self, request: Request) -> Response:
        data = PasswordChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.user_check_password(
            request=request._request,
            user=request.user,
            password=data.validated_data["old_password"],
        )
        services.user_change_password(
            user=request.user, new_password=data.validated_data["new_password"]
        )
        if not isinstance(request.auth, AuthToken):
            update_session_auth_hash(request._request, request.user)
        token, key = services.token_create(user=request.user)
        return Response(_token_payload(token, key))


class AccountDeleteView(APIView):
    throttle_classes = [AuthAddressThrottle]

    @extend_schema(
        summary="Delete the account, with its games, statistics and leaderboard places",
        description="Asks for the password again. Every device is signed out. It cannot "
        "be undone. A wrong password counts as a failed sign-in: after too many, the "
        "account is locked out (429 login_locked). A staff account cannot delete itself "
        "(403 account_protected).",
        request=AccountDeleteInputSerializer,
        responses={
            204: OpenApiResponse(description="The account is deleted."),
            **error_responses({403: ["account_protected"], 429: ["login_locked"]}),
        },
        tags=["me"],
    )
    def post(self, request: Request) -> Response:
        data = AccountDeleteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.user_delete(
            request=request._request,
            user=request.user,
            password=data.validated_data["password"],
        )
        if not isinstance(request.auth, AuthToken):
            services.session_end(request=request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [PasswordResetAddressThrottle]

    @extend_schema(
        summary="Email a link to reset a forgotten password",
        description="The link opens the site's page to choose a new password; choosing "
        "one signs out every device. The answer is the same whether or not an account "
        "has the address, and an address gets at most one email every few minutes.",
        request=PasswordResetInputSerializer,
        responses={202: DetailSerializer},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = PasswordResetInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.password_reset_send(request=request._request, email=data.validated_data["email"])
        detail = _(
            "If an account has this email address, a link to reset its password is on its way."
        )
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)
