"""The client's address, as far as we can trust it.

``client_ip(request)`` is REMOTE_ADDR unless ``TRUSTED_PROXY_COUNT`` > 0, in which
case it is the address the outermost trusted proxy saw (counted from the right
of X-Forwarded-For, the same rule DRF applies with ``NUM_PROXIES``). A client
can prepend whatever it likes to X-Forwarded-For; it cannot change what our own
proxies append, so rotating the header never resets a login throttle.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.http import HttpRequest


def _valid(address: str) -> bool:
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return False
    return True


def client_ip(request: HttpRequest) -> str | None:
    """The client's IP address, or None when the server was not told one."""
    return address_of(
        request.META.get("REMOTE_ADDR") or None, request.META.get("HTTP_X_FORWARDED_FOR")
    )


def scope_client_ip(scope: dict[str, Any]) -> str | None:
    """``client_ip`` for an ASGI scope (a race socket's handshake)."""
    client = scope.get("client")
    # Repeated headers read as one list, as a WSGI server joins them.
    forwarded = [v.decode("latin1") for n, v in scope.get("headers", ()) if n == b"x-forwarded-for"]
    return address_of(client[0] if client else None, ",".join(forwarded) or None)


def address_of(remote_addr: str | None, forwarded: str | None) -> str | None:
    """The client's address from the peer's and X-Forwarded-For (see the module's doc)."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0 or not forwarded:
        return remote_addr
    addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
    if not addresses:
        return remote_addr
    candidate = addresses[-min(proxies, len(addresses))]
    return candidate if _valid(candidate) else remote_addr
