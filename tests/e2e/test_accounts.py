"""A player signs up, sees the profile and logs out, in a real browser."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_it_signs_up_through_the_form_and_logs_out(live_server, page):
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/$"))

    page.get_by_label("Username").fill("dora")
    page.get_by_label("Email").fill("dora@example.com")
    page.get_by_label("Password", exact=True).fill("tiles-and-lanterns-42")
    page.get_by_label("Password confirmation").fill("tiles-and-lanterns-42")
    page.get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))
    expect(page.get_by_test_id("profile-username")).to_have_text("dora")
    expect(page.get_by_text("dora@example.com")).to_be_visible()
    expect(page.get_by_test_id("nav-profile")).to_have_text("dora")

    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()
    page.goto(live_server.url + "/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    assert errors == [], errors  # e.g. a CSP violation would show here


def test_it_shows_a_weak_password_error_next_to_the_field(live_server, page):
    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("Username").fill("eve")
    page.get_by_label("Password", exact=True).fill("12345")
    page.get_by_label("Password confirmation").fill("12345")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("This password is too short.")).to_be_visible()


def test_it_renders_the_api_docs_without_a_cdn(live_server, page):
    outside: list[str] = []
    page.on(
        "request",
        lambda req: outside.append(req.url) if not req.url.startswith(live_server.url) else None,
    )
    page.goto(live_server.url + "/api/v1/docs/")
    expect(page.get_by_text("Sudoku API").first).to_be_visible()
    expect(page.get_by_text("/api/v1/auth/token/").first).to_be_visible()
    assert [url for url in outside if not url.startswith("data:")] == []


def test_a_player_deletes_their_account_from_the_profile(live_server, page):
    from django.contrib.auth import get_user_model

    from accounts.factories import UserFactory
    from tests.e2e.boards import ARTIFACTS_DIR

    user = UserFactory()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(user.username.upper())  # any case signs in
    page.get_by_label("Password").fill(user.raw_password)
    page.get_by_role("button", name="Log in").click()
    page.goto(live_server.url + "/accounts/profile/")

    page.get_by_role("link", name="Delete account").click()
    expect(page).to_have_url(re.compile(r"/accounts/delete/$"))
    page.get_by_label("Your password").fill("not-my-password")
    page.get_by_test_id("delete-account").click()
    expect(page.get_by_text("Your password was entered incorrectly.")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS_DIR / "delete-account.png"))
    # The refused form is answered 400, which the console reports; nothing else.
    assert [e for e in errors if "status of 400" not in e] == [], errors
    errors.clear()

    page.get_by_label("Your password").fill(user.raw_password)
    page.get_by_test_id("delete-account").click()
    expect(page).to_have_url(live_server.url + "/")
    expect(page.get_by_text("Your account and its games have been deleted.")).to_be_visible()
    expect(page.get_by_role("link", name="Log in").first).to_be_visible()
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    assert errors == [], errors
