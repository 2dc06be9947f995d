"""Password validators beyond Django's own (AUTH_PASSWORD_VALIDATORS)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class DistinctCharactersValidator:
    """Refuse a password with fewer than ``min_distinct`` different characters that are
    not whitespace: twelve spaces, "zzzzzzzzzzzz" or "ab ab ab ab" pass a length check but
    are guessed at once. Nothing is stripped: spaces stay part of a password that passes.
    """

    def __init__(self, min_distinct: int = 5) -> None:
        self.min_distinct = min_distinct

    def validate(self, password: str, user: Any = None) -> None:
        if len({char for char in password if not char.isspace()}) < self.min_distinct:
            raise ValidationError(
                _(
                    "This password has too few different characters: use at least "
                    "%(min_distinct)d different characters other than spaces."
                ),
                code="password_too_few_characters",
                params={"min_distinct": self.min_distinct},
            )

    def get_help_text(self) -> str:
        return _(
            "Your password must use at least %(min_distinct)d different characters "
            "other than spaces."
        ) % {"min_distinct": self.min_distinct}
