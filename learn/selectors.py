"""Reads for the lessons: the techniques, how often the bank's puzzles use them, the
practice puzzle to play next and a player's progress per technique."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from learn.errors import TechniqueNotOnSize, UnknownTechnique
from learn.examples import example_of
from learn.lessons import lesson_text
from play.models import Game, Status
from puzzles.models import Difficulty, PuzzleTechnique, Source
from puzzles.techniques import technique_frequency
from solver.practice import practice_sizes
from solver.techniques import BY_SLUG, LEVELS, ORDER, Technique
from solving.steps import step_localized, technique_name


def technique_get(*, slug: str, size: int | None = None) -> Technique:
    """The technique named ``slug``; UnknownTechnique, or TechniqueNotOnSize for a size it
    is not practised on."""
    tech = BY_SLUG.get(slug)
    if tech is None:
        raise UnknownTechnique(_("There is no technique %(slug)s.") % {"slug": repr(slug)})
    if size is not None and size not in practice_sizes(slug):
        sizes = _(" or ").join(f"{n}x{n}" for n in practice_sizes(slug))
        raise TechniqueNotOnSize(
            _("%(name)s is not practised on %(size)sx%(size)s: try %(sizes)s.")
            % {"name": _name(tech), "size": size, "sizes": sizes},
            extra={"technique": slug, "size": size},
        )
    return tech


def technique_summary(tech: Technique) -> dict[str, Any]:
    return {
        "slug": tech.slug,
        "name": _name(tech),
        "level": tech.level,
        "level_name": level_name(tech.level),
        "sizes": list(practice_sizes(tech.slug)),
        "explanation": str(lesson_text(tech.slug)),
    }


def technique_list() -> list[dict[str, Any]]:
    """Every technique of the engine, easiest first (no query)."""
    return [technique_summary(t) for t in ORDER]


def technique_levels() -> list[tuple[str, list[dict[str, Any]]]]:
    """The techniques grouped by level, easiest level first."""
    return [
        (level, [technique_summary(t) for t in ORDER if t.level == level])
        for level in LEVELS
        if any(t.level == level for t in ORDER)
    ]


def technique_detail(*, slug: str) -> dict[str, Any]:
    """A lesson: the technique, its example step and how often the bank's puzzles use it."""
    tech = technique_get(slug=slug)
    rows = technique_frequency(technique=slug)
    frequency = [
        {
            "size": size,
            "level": level,
            "level_name": level_name(level),
            "puzzles": total,
            "using": using,
            "share": round(using / total, 3) if total else 0.0,
        }
        for (size, level), (using, total) in sorted(
            rows.items(), key=lambda kv: (kv[0][0], LEVELS.index(kv[0][1]))
        )
    ]
    example = example_of(slug)
    if example is not None:
        example = {**example, "step": step_localized(example["step"])}
    return {**technique_summary(tech), "example": example, "frequency": frequency}


def level_name(level: str) -> str:
    """A level's name in the reader's language (``Easy``, ``简单``)."""
    return str(dict(Difficulty.choices).get(level, level))


def _name(tech: Technique) -> str:
    return technique_name({"technique": tech.slug, "name": tech.name})


def practice_puzzle_pick(*, slug: str, size: int, played: QuerySet[Any]) -> int | None:
    """The id of a puzzle of ``size`` the player has not played whose solution uses
    ``slug`` at its level: one walk of the (technique, size, difficulty, puzzle) index.
    Never a puzzle a player typed in: it is not the bank's."""
    return (
        _practice_rows(slug, size)
        .exclude(puzzle_id__in=played)
        .order_by("puzzle_id")
        .values_list("puzzle_id", flat=True)
        .first()
    )


def practice_puzzle_replay(*, slug: str, size: int, games: QuerySet[Game]) -> int | None:
    """Of the puzzles of ``size`` whose solution uses ``slug`` at its level, the one the
    player (``games``: theirs) last played longest ago. Asked only once they have played
    every one, so the rows it orders are no more than their games."""
    last = games.filter(puzzle_id=OuterRef("puzzle_id")).order_by("-created").values("created")
    return (
        _practice_rows(slug, size)
        .annotate(last_played=Subquery(last[:1]))
        .order_by(F("last_played").asc(nulls_first=True), "puzzle_id")
        .values_list("puzzle_id", flat=True)
        .first()
    )


def _practice_rows(slug: str, size: int) -> QuerySet[PuzzleTechnique]:
    """The bank's puzzles that need ``slug`` at its level; never one a player typed in."""
    return PuzzleTechnique.objects.filter(
        technique=slug, size=size, difficulty=BY_SLUG[slug].level
    ).exclude(puzzle__source=Source.TYPED)


def practice_progress(*, user: Any) -> list[dict[str, Any]]:
    """Per technique practised: practice games solved and solved without a hint."""
    rows = (
        Game.objects.filter(user=user, status=Status.COMPLETED)
        .exclude(practice_technique="")
        .values("practice_technique")
        .annotate(solved=Count("id"), without_hint=Count("id", filter=Q(hints_used=0)))
        .order_by()
    )
    got = {r["practice_technique"]: r for r in rows}
    return [
        {
            "technique": t.slug,
            "solved": got[t.slug]["solved"],
            "solved_without_hint": got[t.slug]["without_hint"],
        }
        for t in ORDER
        if t.slug in got
    ]
