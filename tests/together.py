"""Running work on several threads released at once (races between requests)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def run_together(count: int, work: Callable[[int], Any], *, timeout: float = 120) -> list[Any]:
    """``work(i)``'s answers for i in 0..count-1, on threads that start it together; each
    thread closes its own database connection. A thread that raised (or is still running)
    answers None."""
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[i] = work(i)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return answers


def answer_or_error(call: Callable[[], Any]) -> Any:
    """``call()``'s answer, or the exception it raised (to tell which thread lost)."""
    try:
        return call()
    except Exception as exc:
        return exc
