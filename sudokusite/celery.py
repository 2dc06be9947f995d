"""The Celery app, following Celery's Django recipe.

Configuration lives in settings.py under the ``CELERY_`` namespace: the broker and
result backend are Redis when ``REDIS_URL`` is set, otherwise kombu's filesystem
transport and Celery's file result backend under ``var/celery/``, so a fresh
machine runs real background work with no server. Periodic tasks go into
``CELERY_BEAT_SCHEDULE``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sudokusite.settings")

app = Celery("sudokusite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
