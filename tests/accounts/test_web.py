"""The browser side of accounts: sign up, log in and out, profile, passwords."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from knox.models import AuthToken

from accounts.services import token_create

pytestmark = pytest.mark.django_db

STRONG = "tiles-and-lanterns-42"


def test_it_signs_up_and_lands_logged_in_on_the_profile(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "bob", "email": "bob@example.com", "password1": STRONG, "password2": STRONG},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/accounts/profile/"
    assert response.status_code == 200
    assert b"Welcome, bob!" in response.content
    assert b"bob@example.com" in response.content
    user = get_user_model().objects.get(username="bob")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_it_rejects_a_weak_password_on_the_signup_form(client):
    response = client.post(
        "/accounts/signup/", {"username": "bob", "password1": "123456", "password2": "123456"}
    )
    assert response.status_code == 400
    assert b"This password is too short" in response.content
    assert not get_user_model().objects.exists()


def test_it_rejects_a_username_taken_in_another_case(client, user):
    response = client.post(
        "/accounts/signup/",
        {"username": user.username.upper(), "password1": STRONG, "password2": STRONG},
    )
    assert response.status_code == 400
    assert b"already exists" in response.content


def test_it_logs_in_and_out(client, user):
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": user.raw_password}
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/accounts/profile/").status_code == 200

    assert client.get("/accounts/logout/").status_code == 405  # logging out takes a POST
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    # The game pages and waiting moves kept on this device for offline play go too.
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert client.get("/accounts/profile/").status_code == 302


def test_the_login_page_names_the_site_not_its_host(client, settings):
    settings.SITE_NAME = "Grid Club"
    html = client.get("/accounts/login/").content.decode()
    assert "<title>Log in &middot; Grid Club</title>" in html
    assert "testserver" not in html


def test_it_returns_to_the_page_that_asked_for_a_login(client, user):
    response = client.post(
        "/accounts/login/?next=/accounts/profile/",
        {"username": user.username, "password": user.raw_password, "next": "/accounts/profile/"},
    )
    assert response["Location"] == "/accounts/profile/"


def test_it_sends_anonymous_visitors_from_the_profile_to_the_login_page(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/profile/"


def test_it_shows_the_profile(client, user):
    client.force_login(user)
    response = client.get("/accounts/profile/")
    html = response.content.decode()
    assert user.username in html
    assert user.email in html
    assert user.date_joined.strftime("%Y") in html


def test_it_changes_the_password_and_revokes_api_tokens(client, user):
    token_create(user=user)
    client.force_login(user)
    response = client.post(
        "/accounts/password/change/",
        {"old_password": user.raw_password, "new_password1": STRONG, "new_password2": STRONG},
    )
    assert response.status_code == 302
    assert not AuthToken.objects.filter(user=user).exists()
    user.refresh_from_db()
    assert user.check_password(STRONG)
    # This browser stays signed in.
    assert client.get("/accounts/profile/").status_code == 200


def test_it_applies_password_validators_on_password_change(client, user):
    client.force_login(user)
    response = client.post(
        "/accounts/password/change/",
        {"old_password": user.raw_password, "new_password1": "abc", "new_password2": "abc"},
    )
    assert response.status_code == 200
    assert b"This password is too short" in response.content


def test_it_resets_a_password_by_email_and_revokes_api_tokens(client, user, reset_emails):
    token_create(user=user)
    with reset_emails():
        response = client.post("/accounts/password/reset/", {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your Sudoku password"
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link

    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    response = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": STRONG, "new_password2": STRONG}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(STRONG)
    assert not AuthToken.objects.filter(user=user).exists()


def test_it_applies_password_validators_on_password_reset(client, user, reset_emails):
    token_create(user=user)
    with reset_emails():
        client.post("/accounts/password/reset/", {"email": user.email})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link
    form_page = client.get(link.group(1), follow=True)
    response = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": "abc", "new_password2": "abc"}
    )
    assert response.status_code == 200
    assert b"This password is too short" in response.content
    user.refresh_from_db()
    assert user.check_password(user.raw_password)
    assert AuthToken.objects.filter(user=user).exists()


def test_it_serves_pages_with_a_strict_content_security_policy(client):
    response = client.get("/")
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "http" not in policy  # no CDN anywhere
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"


def test_it_links_the_nav_placeholders_and_account_links(client, user):
    html = client.get("/").content.decode()
    for label in ("Play", "Solve", "Stats", "Leaderboards", "Log in", "Sign up"):
        assert label in html
    client.force_login(user)
    html = client.get("/").content.decode()
    assert "Log out" in html
    assert user.username in html


def test_it_revokes_api_tokens_when_an_admin_sets_a_password(admin_client, user):
    token_create(user=user)
    response = admin_client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"password1": STRONG, "password2": STRONG, "usable_password": "true"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(STRONG)
    assert not AuthToken.objects.filter(user=user).exists()
