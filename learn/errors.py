"""The learning side's refusals, as API errors (see sudokusite.errors)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from sudokusite.errors import DomainError, NotFoundError


class UnknownTechnique(DomainError):
    code = "unknown_technique"
    message = _("No technique has that name.")


class TechniqueNotOnSize(DomainError):
    code = "technique_not_on_size"
    message = _("That technique is not practised on that size.")


class TechniqueNotOnVariant(DomainError):
    code = "technique_not_on_variant"
    message = _("That technique is not practised on that variant.")


class NoPracticePuzzle(NotFoundError):
    code = "no_practice_puzzle"
    message = _("There is no practice puzzle for that technique yet.")


class PracticePuzzleNotReady(DomainError):
    """503 with Retry-After: none is in the stock for the player and none could be made
    now; the workers are making some."""

    status_code = 503
    code = "practice_puzzle_not_ready"
    message = _("A practice puzzle is being made: try again in a moment.")

    def __init__(self, message: str | None = None, *, retry_after: int, **kw: Any):
        super().__init__(message, **kw)
        self.retry_after = retry_after
