"""factory_boy factories for accounts, for tests of any app."""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    """A user whose password is ``DEFAULT_PASSWORD`` unless ``password=`` is given, and
    an established player (integrity: their games may count at once) unless
    ``established=False`` is given, as a new account is."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")

    @factory.post_generation
    def password(self, create: bool, extracted: str | None, **kwargs: Any) -> None:
        self.set_password(extracted or DEFAULT_PASSWORD)
        self.raw_password = extracted or DEFAULT_PASSWORD
        if create:
            self.save(update_fields=["password"])

    @factory.post_generation
    def established(self, create: bool, extracted: bool | None, **kwargs: Any) -> None:
        if create and extracted is not False:
            from django.utils import timezone

            from integrity.models import PlayerStanding

            PlayerStanding.objects.get_or_create(
                user=self, defaults={"established": timezone.now(), "by": "test"}
            )
