"""Fixtures for account tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest


@pytest.fixture
def reset_emails(
    monkeypatch, django_capture_on_commit_callbacks
) -> Callable[[], AbstractContextManager[None]]:
    """Send password-reset emails as a worker would, in this process: ``with
    reset_emails(): client.post(...)`` commits, sends accounts.password_reset_email by name, and
    runs it (mail.outbox then holds what it sent)."""
    from celery import current_app

    import accounts.tasks  # noqa: F401 - registers the task run below

    def send_task(name: str, kwargs: dict[str, Any] | None = None, **options: Any) -> None:
        current_app.tasks[name].apply(kwargs=kwargs).get()

    monkeypatch.setattr(current_app, "send_task", send_task)

    @contextmanager
    def committed() -> Iterator[None]:
        with django_capture_on_commit_callbacks(execute=True):
            yield

    return committed
