"""The user admin, with one change: setting a password there signs out every API device."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminPasswordChangeForm

from . import services

User = get_user_model()


class RevokingAdminPasswordChangeForm(AdminPasswordChangeForm):
    def save(self, commit: bool = True) -> Any:
        user = super().save(commit=commit)
        if commit:
            services.token_revoke_all(user=user)
        return user


admin.site.unregister(User)


@admin.register(User)
class AccountUserAdmin(UserAdmin):
    change_password_form = RevokingAdminPasswordChangeForm
