"""Account writes, shared by the browser views and the API.

Validation failures raise Django's ValidationError keyed by field name; the
forms show it next to the field and the API answers 400 naming the field.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from knox.models import AuthToken

User = get_user_model()


def _validate_new_password(password: str, *, user: AbstractBaseUser) -> None:
    try:
        password_validation.validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "") -> AbstractUser:
    """Create a user after checking the username is free and the password is strong."""
    username = User.normalize_username(username)
    email = User.objects.normalize_email(email) if email else ""
    # Usernames differ by more than case: "Alice" and "alice" are one player.
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": ["A user with that username already exists."]})
    user = User(username=username, email=email)
    user.full_clean(exclude=["password"])
    _validate_new_password(password, user=user)
    user.set_password(password)
    user.save()
    return user


class SignInLocked(Exception):
    """django-axes has locked this account or address out after repeated failures."""


def user_check_password(*, request: HttpRequest, user: AbstractBaseUser, password: str) -> None:
    """Check the current password the way a sign-in does, before a password change.

    Through ``authenticate()``, so django-axes counts a wrong guess as a failed sign-in and
    refuses every guess once the account or the address is locked out: a stolen session or
    token must not be able to guess, without limit, the password it needs to take the
    account over. Raises SignInLocked, or ValidationError on ``old_password``.
    """
    checked = authenticate(request, username=user.get_username(), password=password)
    if getattr(request, "axes_locked_out", False):
        raise SignInLocked()
    if checked is None or checked.pk != user.pk:
        raise ValidationError({"old_password": ["Your old password was entered incorrectly."]})


@transaction.atomic
def user_change_password(*, user: AbstractBaseUser, new_password: str) -> None:
    """Set a new password and sign out every API device of this user.

    A self-service change checks the old password first with ``user_check_password``
    (which counts wrong guesses towards the lockout); a reset by emailed link has none.
    """
    try:
        password_validation.validate_password(new_password, user=user)
    except ValidationError as exc:
        raise ValidationError({"new_password": exc.messages}) from exc
    user.set_password(new_password)
    user.save(update_fields=["password"])
    token_revoke_all(user=user)


def token_create(*, user: AbstractBaseUser) -> tuple[AuthToken, str]:
    """A new API token for one device: the stored row and the only copy of the key."""
    instance, key = AuthToken.objects.create(user=user)
    return instance, key


def token_revoke(*, token: AuthToken) -> None:
    token.delete()


def token_revoke_all(*, user: AbstractBaseUser) -> int:
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return deleted


def token_purge_expired() -> int:
    """Delete expired tokens (knox only drops one when it is presented again)."""
    deleted, _ = AuthToken.objects.filter(expiry__lt=timezone.now()).delete()
    return deleted
