"""django-csp's middleware with the site-wide policy built once.

django-csp builds the Content-Security-Policy header from the settings on every response,
twice (the policy and the report-only one), a measurable share of a move's CPU. A response
with no policy of its own (no ``csp_*`` decorator, no nonce used) gets the same header
every time, so it is built once per settings object (tests override the settings) and
set with django-csp's own rules; any other response goes through django-csp unchanged.
"""

from __future__ import annotations

import http.client
from dataclasses import asdict
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, PolicyParts
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

# What a view or decorator sets on a response to have a policy of its own.
_OWN_POLICY = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
_REPORT_ONLY_SETTING = "CONTENT_SECURITY_POLICY_REPORT_ONLY"
_DEBUG_PAGES = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)


class CSPMiddleware(DjangoCSPMiddleware):
    _built: tuple[Any, Any, str, str] | None = None

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _OWN_POLICY
        ):
            return super().process_response(request, response)
        if response.status_code in _DEBUG_PAGES and settings.DEBUG:
            return response
        policy, report_only = self._site_policies()
        for header, value, exempt, setting in (
            (HEADER, policy, "_csp_exempt", "CONTENT_SECURITY_POLICY"),
            (HEADER_REPORT_ONLY, report_only, "_csp_exempt_ro", _REPORT_ONLY_SETTING),
        ):
            excluded = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if (
                value
                and header not in response
                and getattr(response, exempt, False) is False
                and not request.path_info.startswith(tuple(excluded))
            ):
                response[header] = value
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response

    def _site_policies(self) -> tuple[str, str]:
        """The policy and the report-only policy from the settings alone."""
        config = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        config_ro = getattr(settings, _REPORT_ONLY_SETTING, None)
        built = self._built
        if built is None or built[0] is not config or built[1] is not config_ro:
            parts = asdict(PolicyParts())
            built = (
                config,
                config_ro,
                build_policy(**parts),
                build_policy(**parts, report_only=True),
            )
            self._built = built
        return built[2], built[3]
