"""sudokusite.csp: the site policy built once, and the same header django-csp would send."""

from __future__ import annotations

import pytest
from csp.decorators import csp_exempt, csp_update
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from sudokusite.csp import CSPMiddleware


def _directives(header: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def _headers(middleware_class, view, path: str = "/") -> dict[str, str]:
    request = RequestFactory().get(path)
    middleware = middleware_class(lambda r: view(r))
    return dict(middleware(request).headers)


def _plain(request):
    return HttpResponse("ok")


@csp_update({"img-src": ["https://images.example"]})
def _updated(request):
    return HttpResponse("ok")


@csp_exempt()
def _exempt(request):
    return HttpResponse("ok")


def _with_nonce(request):
    return HttpResponse(f"<script nonce='{request.csp_nonce}'></script>")


@pytest.mark.parametrize("view", [_plain, _updated, _exempt, _with_nonce])
def test_it_sends_what_django_csp_sends(view):
    ours = _headers(CSPMiddleware, view)
    theirs = _headers(DjangoCSPMiddleware, view)
    assert ("Content-Security-Policy" in ours) == ("Content-Security-Policy" in theirs)
    if "Content-Security-Policy" in ours:
        ours_d = _directives(ours["Content-Security-Policy"])
        theirs_d = _directives(theirs["Content-Security-Policy"])
        if view is _with_nonce:  # each response gets its own nonce
            ours_d.pop("script-src"), theirs_d.pop("script-src")
        assert ours_d == theirs_d


def test_a_decorated_view_gets_its_own_policy_and_the_next_response_the_sites():
    middleware = CSPMiddleware(lambda r: _updated(r))
    first = middleware(RequestFactory().get("/"))
    assert "https://images.example" in first["Content-Security-Policy"]
    plain = CSPMiddleware(lambda r: _plain(r))(RequestFactory().get("/"))
    assert "https://images.example" not in plain["Content-Security-Policy"]


def test_changed_settings_change_the_header_and_report_only_is_sent_when_set():
    middleware = CSPMiddleware(lambda r: _plain(r))
    before = middleware(RequestFactory().get("/"))["Content-Security-Policy"]
    policy = {"DIRECTIVES": {"default-src": ["'none'"]}}
    with override_settings(
        CONTENT_SECURITY_POLICY=policy, CONTENT_SECURITY_POLICY_REPORT_ONLY=policy
    ):
        changed = middleware(RequestFactory().get("/"))
    assert changed["Content-Security-Policy"] == "default-src 'none'" != before
    assert changed["Content-Security-Policy-Report-Only"] == "default-src 'none'"
    assert middleware(RequestFactory().get("/"))["Content-Security-Policy"] == before


def test_a_nonce_asked_for_after_the_header_is_an_error():
    from csp.exceptions import CSPNonceError

    request = RequestFactory().get("/")
    CSPMiddleware(lambda r: _plain(r))(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
