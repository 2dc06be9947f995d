"""The user admin, with two changes: setting a password there signs out every API device,
and a username taken in another case is a form error (the database refuses it too)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm, AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from . import services

User = get_user_model()


class RevokingAdminPasswordChangeForm(AdminPasswordChangeForm):
    def save(self, commit: bool = True) -> Any:
        user = super().save(commit=commit)
        if commit:
            services.token_revoke_all(user=user)
        return user


class CaseInsensitiveUserChangeForm(UserChangeForm):
    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        others = User.objects.filter(username__iexact=username).exclude(pk=self.instance.pk)
        if others.exists():
            raise ValidationError(_("A user with that username already exists."))
        try:
            services.username_check(username, exclude_user_id=self.instance.pk)
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["username"]) from None
        return username


class LookAlikeCheckedUserCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        username = super().clean_username()
        try:
            services.username_check(User.normalize_username(username))
        except ValidationError as exc:
            raise ValidationError(exc.message_dict["username"]) from None
        return username


admin.site.unregister(User)


@admin.register(User)
class AccountUserAdmin(UserAdmin):
    form = CaseInsensitiveUserChangeForm
    add_form = LookAlikeCheckedUserCreationForm
    change_password_form = RevokingAdminPasswordChangeForm

    def save_model(self, request: Any, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        services.username_skeleton_set(user=obj)  # a renamed or added account's look
