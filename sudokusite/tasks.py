"""Project-level tasks."""

from celery import shared_task


@shared_task(name="sudokusite.ping")
def ping() -> str:
    """Answers "pong": proves a worker is consuming the queue (health checks, tests)."""
    return "pong"
