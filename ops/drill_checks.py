"""What the drill asks of the site through HAProxy, whichever node answers: a signed-in
session, a throttle, a sign-in lockout. Each answers (ok, what it saw)."""

from __future__ import annotations

import http.client
import json
import re
from http.cookies import SimpleCookie
from typing import Any

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def request(
    port: int, method: str, path: str, *, headers: dict[str, str] | None = None,
    body: Any = None, source: str = "127.0.0.1",
) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    """One request on a fresh connection from ``source`` (a loopback address):
    (status, lower-cased headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15, source_address=(source, 0))
    sent = {"Connection": "close", **(headers or {})}
    if isinstance(body, dict):
        body = json.dumps(body)
        sent.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, path, body=body, headers=sent)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def _cookies(headers: dict[str, str], jar: dict[str, str]) -> dict[str, str]:
    raw = headers.get("set-cookie", "")
    for part in re.split(r",(?=\s*\w+=)", raw):
        parsed: SimpleCookie = SimpleCookie()
        parsed.load(part)
        jar.update({key: morsel.value for key, morsel in parsed.items()})
    return jar


def session_check(port: int, username: str, password: str) -> tuple[bool, str]:
    """Sign in with the web form, then read the profile page six times: every answer is
    the signed-in page, and both nodes answered some."""
    status, headers, body = request(port, "GET", "/accounts/login/")
    jar = _cookies(headers, {})
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    if status != 200 or token is None or "csrftoken" not in jar:
        return False, f"login page answered {status}"
    form = f"username={username}&password={password}&csrfmiddlewaretoken={token[1].decode()}"
    status, headers, _ = request(
        port, "POST", "/accounts/login/", body=form,
        headers={"Content-Type": "application/x-www-form-urlencoded",
                 "Cookie": f"csrftoken={jar['csrftoken']}"},
    )  # fmt: skip
    jar = _cookies(headers, jar)
    if status != 302 or "sessionid" not in jar:
        return False, f"sign-in answered {status}"
    served, statuses = set(), []
    for _ in range(6):
        status, headers, body = request(
            port, "GET", "/accounts/profile/", headers={"Cookie": f"sessionid={jar['sessionid']}"}
        )
        statuses.append(status)
        served.add(headers.get("x-served-by", "?"))
    ok = statuses == [200] * 6 and len(served) == 2
    return ok, f"profile answered {statuses} from {sorted(served)}"


def throttle_check(port: int, token: str, limit: int) -> tuple[bool, str]:
    """``limit`` + 3 analyses in a row: exactly ``limit`` answered, the rest 429, whichever
    node counted them."""
    statuses, served = [], set()
    for _ in range(limit + 3):
        status, headers, _ = request(
            port, "POST", "/api/v1/solver/analyse/", body={"grid": PUZZLE},
            headers={"Authorization": f"Token {token}"},
        )  # fmt: skip
        statuses.append(status)
        served.add(headers.get("x-served-by", "?"))
    ok = statuses == [200] * limit + [429] * 3 and len(served) == 2
    return ok, f"analyses answered {statuses} from {sorted(served)}"


def lockout_check(port: int, username: str, password: str, limit: int) -> tuple[bool, str]:
    """``limit`` wrong passwords from one address, then the right one: refused until the
    ``limit``-th failure locks the account out (429, that one included), whichever node saw
    them. Sent from 127.0.0.5, so only that address is locked."""
    statuses, served = [], set()
    for attempt in range(limit + 1):
        guess = password if attempt == limit else f"wrong-{attempt}"
        status, headers, _ = request(
            port, "POST", "/api/v1/auth/token/", body={"username": username, "password": guess},
            source="127.0.0.5",
        )  # fmt: skip
        statuses.append(status)
        served.add(headers.get("x-served-by", "?"))
    ok = all(s in (400, 401) for s in statuses[: limit - 1]) and statuses[limit - 1 :] == [429, 429]
    return ok and len(served) == 2, f"sign-ins answered {statuses} from {sorted(served)}"
