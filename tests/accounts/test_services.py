"""accounts.services: the writes behind both the browser and the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from knox.models import AuthToken

from accounts import services, tasks
from accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_registers_a_user_with_a_hashed_password():
    user = services.user_register(username="carol", password="tiles-and-lanterns-42")
    assert user.pk
    assert user.password != "tiles-and-lanterns-42"
    assert user.check_password("tiles-and-lanterns-42")


def test_it_refuses_an_invalid_username():
    with pytest.raises(ValidationError) as caught:
        services.user_register(username="no spaces!", password="tiles-and-lanterns-42")
    assert "username" in caught.value.message_dict


def test_it_refuses_a_common_password():
    with pytest.raises(ValidationError) as caught:
        services.user_register(username="carol", password="password123")
    assert "password" in caught.value.message_dict


def test_it_revokes_only_that_users_tokens_on_password_change():
    alice, bob = UserFactory(), UserFactory()
    services.token_create(user=alice)
    services.token_create(user=alice)
    services.token_create(user=bob)
    services.user_change_password(user=alice, new_password="tiles-and-lanterns-42")
    assert not AuthToken.objects.filter(user=alice).exists()
    assert AuthToken.objects.filter(user=bob).count() == 1


def test_it_refuses_a_weak_new_password_and_changes_nothing():
    user = UserFactory()
    services.token_create(user=user)
    with pytest.raises(ValidationError) as raised:
        services.user_change_password(user=user, new_password="123")
    assert "new_password" in raised.value.message_dict
    user.refresh_from_db()
    assert user.check_password(user.raw_password)
    assert AuthToken.objects.filter(user=user).exists()


def test_it_purges_only_expired_tokens():
    user = UserFactory()
    with time_machine.travel(timezone.now() - timedelta(days=365)):
        services.token_create(user=user)
    fresh, _ = services.token_create(user=user)
    assert tasks.token_purge_expired() == 1
    assert list(AuthToken.objects.all()) == [fresh]


def test_it_schedules_the_token_purge():
    schedule = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "accounts.token_purge_expired" in schedule


def test_the_reset_email_task_the_services_send_by_name_is_a_registered_task():
    from sudokusite.celery import app

    app.loader.import_default_modules()
    assert app.tasks[services.PASSWORD_RESET_TASK].name == tasks.password_reset_email.name
