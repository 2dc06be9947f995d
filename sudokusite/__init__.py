"""Project wiring: settings, URLs, the Celery app and the API plumbing every app shares."""

# Load the Celery app whenever Django starts so @shared_task binds to it.
from .celery import app as celery_app

__all__ = ("celery_app",)
