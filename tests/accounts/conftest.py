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
    reset_emails(): client.post(...)`` commits, queues accounts.password_reset_email, and
    runs it (mail.outbox then holds what it sent)."""
    from accounts import tasks

    def delay(**kwargs: Any) -> None:
        tasks.password_reset_email.apply(kwargs=kwargs).get()

    monkeypatch.setattr(tasks.password_reset_email, "delay", delay)

    @contextmanager
    def committed() -> Iterator[None]:
        with django_capture_on_commit_callbacks(execute=True):
            yield

    return committed
