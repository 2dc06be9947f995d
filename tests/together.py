"""Running the same work on several threads released at once (races between requests)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def at_once(count: int, work: Callable[[], Any], *, timeout: float = 120) -> list[Any]:
    """``work()``'s answers on ``count`` threads that start it together; each thread closes
    its own database connection. A thread that raised (or is still running) answers None."""
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[i] = work()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return answers
