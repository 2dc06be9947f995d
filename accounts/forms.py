"""Browser forms. They validate for display; the services do the writes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import services


class SignupForm(auth_forms.BaseUserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional: only used to reset a forgotten password."),
    )

    class Meta(auth_forms.BaseUserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise ValidationError(_("A user with that username already exists."))
        try:
            services.username_check(get_user_model().normalize_username(username))
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["username"]) from None
        return username

    def save(self, commit: bool = True) -> Any:
        try:
            return services.user_register(
                username=self.cleaned_data["username"],
                password=self.cleaned_data["password1"],
                email=self.cleaned_data.get("email") or "",
            )
        except ValidationError as exc:
            # A race with another sign-up: show it on the form like any other error.
            field_map = {"password": "password2"}
            for field, messages in exc.message_dict.items():
                self.add_error(field_map.get(field, field), messages)
            raise


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Checks the old password as a sign-in (services.user_check_password): a wrong one
    counts towards the lockout, and once locked out the view answers the lockout page."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        try:
            services.user_check_password(
                request=self.request, user=self.user, password=old_password
            )
        except services.SignInLocked:
            # AxesMiddleware answers this request with the lockout page.
            raise ValidationError(_("Too many failed attempts."), code="locked") from None
        except ValidationError:
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            ) from None
        return old_password

    def save(self, commit: bool = True) -> Any:
        services.user_change_password(
            user=self.user, new_password=self.cleaned_data["new_password1"]
        )
        return self.user


class SetPasswordForm(auth_forms.SetPasswordForm):
    """The last step of a password reset; also signs out every API device."""

    def save(self, commit: bool = True) -> Any:
        services.user_change_password(
            user=self.user, new_password=self.cleaned_data["new_password1"]
        )
        return self.user


class AccountDeleteForm(forms.Form):
    """The password, asked again before an account is deleted (services.user_delete)."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
