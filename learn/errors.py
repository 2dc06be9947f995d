"""The learning side's refusals, as API errors (see sudokusite.errors)."""

from __future__ import annotations

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
