from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views import i18n as i18n_views
from django.views.decorators.debug import sensitive_post_parameters

from play.lifecycle import game_claim_guest_games
from sudokusite.publish import user_sockets_recheck

from . import services
from .forms import AccountDeleteForm, PasswordChangeForm, SetPasswordForm, SignupForm
from .languages import language_save, supported_language


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("accounts:profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = form.save()
        except ValidationError:
            pass  # the form now carries the errors
        else:
            login(request, user, backend="accounts.backends.CaseInsensitiveModelBackend")
            # Games played before signing up stay with the new account.
            game_claim_guest_games(request=request, user=user)
            messages.success(
                request,
                _("Welcome, %(name)s! Your account is ready.") % {"name": user.get_username()},
            )
            return redirect("accounts:profile")
    return render(
        request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"profile_user": request.user})


@login_required
@sensitive_post_parameters("password")
def account_delete(request: HttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.user_delete(
                request=request, user=request.user, password=form.cleaned_data["password"]
            )
        except services.SignInLocked:
            # AxesMiddleware answers this request with the lockout page.
            form.add_error(None, _("Too many failed attempts."))
        except services.AccountProtected as exc:
            form.add_error(None, exc.message)
        except ValidationError as exc:
            form.add_error("password", exc.message_dict["password"])
        else:
            services.session_end(request=request)
            messages.success(request, _("Your account and its games have been deleted."))
            return redirect("home")
    return render(
        request, "accounts/delete.html", {"form": form}, status=400 if form.errors else 200
    )


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        # Django's LoginView names the site by its host ("site_name"), over the name the
        # context processor gives every other page.
        return {**super().get_context_data(**kwargs), "site_name": settings.SITE_NAME}

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        # Games played as a guest in this browser join the account.
        game_claim_guest_games(request=self.request, user=form.get_user())
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm
    success_url = reverse_lazy("accounts:password_change_done")

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


class PasswordResetView(auth_views.PasswordResetView):
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
        # The same email, interval and answer as the API's (services.password_reset_send).
        services.password_reset_send(request=self.request, email=form.cleaned_data["email"])
        return redirect(self.get_success_url())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = SetPasswordForm
    success_url = reverse_lazy("accounts:password_reset_complete")


def language_set(request: HttpRequest) -> HttpResponse:
    """Django's set_language (cookie, then back to ``next``), and for a signed-in player the
    choice saved on the account. An unknown code changes nothing and is not an error."""
    response = i18n_views.set_language(request)
    language = supported_language(request.POST.get("language"))
    if language is None:
        # Django keeps any code it has a catalog for (zh-tw); we offer only LANGUAGES.
        response.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)
    elif request.method == "POST" and request.user.is_authenticated:
        language_save(request=request, user=request.user, language=language)
    return response


class LogoutView(auth_views.LogoutView):
    """Django's, and the browser forgets what the site kept on this device to play offline
    (the game pages the service worker keeps, the moves and games in the page's storage), so
    the next person on it cannot read them without a network."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user_id = request.user.pk if request.user.is_authenticated else None
        response = super().post(request, *args, **kwargs)
        if user_id is not None:  # the sockets this browser's session opened close
            user_sockets_recheck(user_id=user_id)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response
