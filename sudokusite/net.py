"""The client's address, as far as we can trust it.

``client_ip(request)`` is REMOTE_ADDR unless ``TRUSTED_PROXY_COUNT`` > 0, in which
case it is the address the outermost trusted proxy saw (counted from the right
of X-Forwarded-For, the same rule DRF applies with ``NUM_PROXIES``). A client
can prepend whatever it likes to X-Forwarded-For; it cannot change what our own
proxies append, so rotating the header never resets a login throttle.
"""

from __future__ import annotations

import ipaddress

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
    remote_addr = request.META.get("REMOTE_ADDR") or None
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote_addr
    addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
    if not addresses:
        return remote_addr
    candidate = addresses[-min(proxies, len(addresses))]
    return candidate if _valid(candidate) else remote_addr
