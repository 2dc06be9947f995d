"""Account writes, shared by the browser views and the API.

Validation failures raise Django's ValidationError keyed by field name; the
forms show it next to the field and the API answers 400 naming the field.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, logout, password_validation
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from knox.models import AuthToken
from kombu.exceptions import OperationalError

from sudokusite.errors import Forbidden, TooManyRequests
from sudokusite.publish import user_sockets_recheck
from sudokusite.throttling import CACHE_ERRORS

from .languages import language_saved, supported_language
from .models import UsernameSkeleton
from .names import looks_taken_message, skeleton, username_problem

User = get_user_model()
logger = logging.getLogger(__name__)

PASSWORD_RESET_TASK = "accounts.password_reset_email"
"""Sent by name (:func:`accounts.tasks.password_reset_email`): tasks import services."""


def _validate_new_password(password: str, *, user: AbstractBaseUser) -> None:
    try:
        password_validation.validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc


def username_skeletons_backfill(*, limit: int = 1000) -> int:
    """Store the skeleton of accounts made without one (``createsuperuser``, a shell):
    a look-alike of their names is refused like any other. Accounts that already look
    alike keep their names (the later one's skeleton gets ``#<id>``, as in migration
    0003). Returns how many were stored; one query when there are none."""
    missing = list(
        User.objects.filter(username_skeleton__isnull=True)
        .order_by("pk")
        .values_list("pk", "username")[:limit]
    )
    if not missing:
        return 0
    shapes = {pk: skeleton(name) for pk, name in missing}
    taken = set(
        UsernameSkeleton.objects.filter(skeleton__in=shapes.values()).values_list(
            "skeleton", flat=True
        )
    )
    rows = []
    for pk, shape in shapes.items():
        if shape in taken:
            shape = f"{shape}#{pk}"
        taken.add(shape)
        rows.append(UsernameSkeleton(user_id=pk, skeleton=shape))
    UsernameSkeleton.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def username_check(username: str, *, exclude_user_id: int | None = None) -> None:
    """ValidationError (on ``username``) for a name people could not tell from a taken one,
    or that mixes alphabets or hides characters (accounts.names)."""
    problem = username_problem(username)
    if problem is not None:
        raise ValidationError({"username": [problem]})
    username_skeletons_backfill()
    others = UsernameSkeleton.objects.filter(skeleton=skeleton(username))
    if exclude_user_id is not None:
        others = others.exclude(user_id=exclude_user_id)
    if others.exists():
        # The same name in another case (taken since the caller looked) says so plainly.
        same = User.objects.filter(username__iexact=username)
        if exclude_user_id is not None:
            same = same.exclude(pk=exclude_user_id)
        if same.exists():
            raise ValidationError({"username": [_("A user with that username already exists.")]})
        raise ValidationError({"username": [looks_taken_message()]})


def username_skeleton_set(*, user: AbstractBaseUser) -> None:
    """Store what the user's name looks like; ValidationError if another account's name
    looks the same (the unique constraint decides, so a racing sign-up cannot slip by)."""
    try:
        with transaction.atomic():
            UsernameSkeleton.objects.update_or_create(
                user=user, defaults={"skeleton": skeleton(user.get_username())}
            )
    except IntegrityError:
        raise ValidationError({"username": [looks_taken_message()]}) from None


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "") -> AbstractUser:
    """Create a user after checking the username is free and the password is strong."""
    username = User.normalize_username(username)
    email = User.objects.normalize_email(email) if email else ""
    # Usernames differ by more than case: "Alice" and "alice" are one player.
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": [_("A user with that username already exists.")]})
    # ... and by more than look-alike letters: "admin" and "аdmin" (Cyrillic а) are one.
    username_check(username)
    user = User(username=username, email=email)
    user.full_clean(exclude=["password"])
    _validate_new_password(password, user=user)
    user.set_password(password)
    try:
        user.save()
    except IntegrityError:
        # Another sign-up took the name, in some case, since the check above.
        raise ValidationError(
            {"username": [_("A user with that username already exists.")]}
        ) from None
    username_skeleton_set(user=user)
    return user


class SignInLocked(TooManyRequests):
    """django-axes has locked this account or address out after repeated failures (a
    sign-in, or a password asked again). The API answers it as 429 login_locked; the
    browser's forms show it as a form error, which AxesMiddleware turns into the lockout
    page."""

    code = "login_locked"
    message = gettext_lazy("Too many failed sign-in attempts.")


def user_check_password(
    *, request: HttpRequest, user: AbstractBaseUser, password: str, field: str = "old_password"
) -> None:
    """Check the current password the way a sign-in does, before a password change.

    Through ``authenticate()``, so django-axes counts a wrong guess as a failed sign-in and
    refuses every guess once the account or the address is locked out: a stolen session or
    token must not be able to guess, without limit, the password it needs to take the
    account over. Raises SignInLocked, or ValidationError on ``field``.
    """
    checked = authenticate(request, username=user.get_username(), password=password)
    if getattr(request, "axes_locked_out", False):
        raise SignInLocked()
    if checked is None or checked.pk != user.pk:
        if field == "old_password":
            message = _("Your old password was entered incorrectly.")
        else:
            message = _("Your password was entered incorrectly.")
        raise ValidationError({field: [message]})


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


class AccountProtected(Forbidden):
    code = "account_protected"
    message = gettext_lazy(
        "A staff account cannot delete itself: ask another administrator to remove it, "
        "so the site is never left without one."
    )


def user_delete(*, request: HttpRequest, user: AbstractBaseUser, password: str) -> None:
    """Delete an account at its owner's request, with everything that is its own: its
    games and their moves, its API tokens (every device signed out) and its leaderboard
    places, which are its games. Packs it asked for stay, without the name.

    The password is checked as a sign-in is (``user_check_password``: a wrong one counts
    towards the lockout), so a phone left signed in cannot delete the account. Raises
    SignInLocked, ValidationError on ``password``, or AccountProtected for staff.

    Not one transaction: a wrong password's failure record must outlive the error.
    (``delete()`` runs in a transaction of its own.)
    """
    user_check_password(request=request, user=user, password=password, field="password")
    if user.is_staff or user.is_superuser:
        raise AccountProtected()
    user_id = user.pk
    user.delete()
    user_sockets_recheck(user_id=user_id)


def password_reset_send(*, request: HttpRequest, email: str) -> None:
    """Have a link to reset the password emailed to each active account with this
    address, as the web's "Forgot your password?" does (the same email and link); nothing
    for an address no account has, and the caller says the same either way, so the answer
    does not tell who has an account. At most one email per address every
    PASSWORD_RESET_EMAIL_INTERVAL seconds, so the endpoint cannot be used to flood an inbox.

    The email goes from a worker (accounts.password_reset_email): sent here, an address
    with an account would be answered later than one without, by the time the mail server
    takes, which tells the same thing. If the broker cannot take the task, it is sent here.
    """
    address = email.strip()
    try:
        validate_email(address)
    except ValidationError as exc:
        raise ValidationError({"email": exc.messages}) from None
    key = "password-reset:" + hashlib.sha256(address.lower().encode()).hexdigest()
    try:
        first = cache.add(key, 1, timeout=settings.PASSWORD_RESET_EMAIL_INTERVAL)
    except CACHE_ERRORS as exc:
        # Without the guard, an outage could be used to flood an inbox: send nothing.
        logger.warning("password reset: the cache is unreachable (%s); no email sent", exc)
        return
    if not first:
        return
    where = {
        "email": address,
        "domain": request.get_host(),
        "use_https": request.is_secure(),
        "language": translation.get_language() or settings.LANGUAGE_CODE,
    }
    transaction.on_commit(lambda: _password_reset_enqueue(**where))


def _password_reset_enqueue(**where: Any) -> None:
    try:
        current_app.send_task(PASSWORD_RESET_TASK, kwargs=where)
    except OperationalError as exc:
        logger.warning("password reset: the broker is unreachable (%s); sending it now", exc)
        password_reset_email_send(**where)


class _PasswordResetForm(PasswordResetForm):
    """Django's, writing each email in its reader's language: the account's saved
    choice, else the language the reset was asked in."""

    language = settings.LANGUAGE_CODE

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        context = kwargs.get("context") or args[2]
        language = language_saved(user=context["user"]) or self.language
        with translation.override(language):
            super().send_mail(*args, **kwargs)


def password_reset_email_send(
    *, email: str, domain: str, use_https: bool, language: str = settings.LANGUAGE_CODE
) -> None:
    """Send the password-reset email to each active account with ``email`` (none when
    there is none), with links to ``domain``, in each reader's language."""
    form = _PasswordResetForm({"email": email})
    form.language = supported_language(language) or settings.LANGUAGE_CODE
    if form.is_valid():
        form.save(
            domain_override=domain,
            use_https=use_https,
            extra_email_context={"site_name": settings.SITE_NAME},
        )


def token_create(*, user: AbstractBaseUser) -> tuple[AuthToken, str]:
    """A new API token for one device: the stored row and the only copy of the key."""
    instance, key = AuthToken.objects.create(user=user)
    return instance, key


def token_revoke(*, token: AuthToken) -> None:
    """Sign one device out: its token stops working, on the API and on its open sockets."""
    token.delete()
    user_sockets_recheck(user_id=token.user_id)


def token_revoke_all(*, user: AbstractBaseUser) -> int:
    """Sign every API device of the user out, their open sockets too."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    user_sockets_recheck(user_id=user.pk)
    return deleted


def session_end(*, request: HttpRequest) -> None:
    """Sign the browser out (Django's ``logout``), closing the sockets its session opened."""
    user_id = request.user.pk if request.user.is_authenticated else None
    logout(request)
    if user_id is not None:
        user_sockets_recheck(user_id=user_id)


def token_purge_expired() -> int:
    """Delete expired tokens (knox only drops one when it is presented again)."""
    deleted, _ = AuthToken.objects.filter(expiry__lt=timezone.now()).delete()
    return deleted
