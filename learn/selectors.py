"""Reads for the lessons: the techniques, how often the bank's puzzles use them, the
practice puzzle to play next and a player's progress per technique.

The techniques are the classic engine's (:data:`solver.logic.techniques.ORDER`), then the
variant engine's own (:func:`solver.generation.general_practice.variant_techniques`, Killer's), each
with the ``variant`` it is practised on; a technique added to either engine later gets a
lesson here with :data:`learn.lessons.FALLBACK` until its text is written."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from learn import constraint_lessons
from learn.constraint_lessons import ConstraintLesson
from learn.constraint_practice import SIZE as PRACTICE_SIZE
from learn.constraint_practice import practised_lesson
from learn.errors import TechniqueNotOnSize, UnknownTechnique
from learn.examples import example_of
from learn.lessons import lesson_text
from learn.variant_practice import variant_technique_frequency
from play.constraint_words import constraint_words
from play.models import Game, Status
from puzzles.models import BANK_SOURCES, Difficulty, PuzzleTechnique, Variant
from puzzles.selectors import daily_puzzle_ids
from puzzles.techniques import technique_frequency
from solver.generation.general_practice import (
    technique_variant,
    variant_practice_sizes,
    variant_techniques,
)
from solver.generation.practice import practice_sizes
from solver.logic.general import VariantTechnique
from solver.logic.techniques import BY_SLUG, LEVELS, ORDER, Technique
from solving.steps import step_localized, technique_name

AnyTechnique = Technique | VariantTechnique

VARIANT_GROUPS = {
    "killer": gettext_lazy("Killer Sudoku"),
    "diagonal": gettext_lazy("Diagonal Sudoku"),
    "jigsaw": gettext_lazy("Jigsaw Sudoku"),
    constraint_lessons.GROUP: gettext_lazy("Constraints"),
}
"""The lesson index's heading for each variant's own techniques."""


def _lookup(slug: str) -> AnyTechnique | None:
    """The classic technique ``slug``, else the variant technique; None when neither."""
    found = BY_SLUG.get(slug)
    if found is not None:
        return found
    return next((t for t in variant_techniques() if t.slug == slug), None)


def technique_practice_variant(slug: str) -> str:
    """The variant ``slug`` is practised on: ``classic`` for the classic engine's."""
    return technique_variant(slug) or Variant.CLASSIC


def _sizes(slug: str) -> tuple[int, ...]:
    return practice_sizes(slug) if slug in BY_SLUG else variant_practice_sizes(slug)


def technique_get(*, slug: str, size: int | None = None) -> AnyTechnique:
    """The technique named ``slug``; UnknownTechnique, or TechniqueNotOnSize for a size it
    is not practised on."""
    tech = _lookup(slug)
    if tech is None:
        lesson = constraint_lessons.constraint_lesson(slug)
        if lesson is not None and practised_lesson(slug) is None:
            raise UnknownTechnique(
                _("%(name)s is taught by its lesson only: there are no practice games for it.")
                % {"name": lesson.name}
            )
        raise UnknownTechnique(_("There is no technique %(slug)s.") % {"slug": repr(slug)})
    if size is not None and size not in _sizes(slug):
        sizes = _(" or ").join(f"{n}x{n}" for n in _sizes(slug))
        raise TechniqueNotOnSize(
            _("%(name)s is not practised on %(size)sx%(size)s: try %(sizes)s.")
            % {"name": _name(tech), "size": size, "sizes": sizes},
            extra={"technique": slug, "size": size},
        )
    return tech


def technique_summary(tech: AnyTechnique) -> dict[str, Any]:
    return {
        "slug": tech.slug,
        "name": _name(tech),
        "level": tech.level,
        "level_name": level_name(tech.level),
        "sizes": list(_sizes(tech.slug)),
        "variant": technique_practice_variant(tech.slug),
        "explanation": str(lesson_text(tech.slug)),
    }


def technique_list() -> list[dict[str, Any]]:
    """Every classic technique, easiest first, then the variants' own (no query)."""
    return [technique_summary(t) for t in (*ORDER, *variant_techniques())]


def technique_levels() -> list[tuple[str, list[dict[str, Any]]]]:
    """The techniques grouped by level, easiest level first."""
    return [
        (level, [technique_summary(t) for t in ORDER if t.level == level])
        for level in LEVELS
        if any(t.level == level for t in ORDER)
    ]


def variant_technique_groups() -> list[tuple[str, str, list[dict[str, Any]]]]:
    """The variants' own techniques: (variant, heading, techniques in the engine's order)."""
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for tech in variant_techniques():
        item = technique_summary(tech)
        by_variant.setdefault(item["variant"], []).append(item)
    return [(variant, variant_heading(variant), items) for variant, items in by_variant.items()]


def variant_heading(variant: str) -> str:
    """The heading of a variant's techniques (``Killer Sudoku``, ``杀手数独``)."""
    names = {**dict(Variant.choices), **VARIANT_GROUPS}
    return str(names.get(variant, variant))


def constraint_lesson_summary(lesson: ConstraintLesson) -> dict[str, Any]:
    """A constraint lesson in a technique's shape: practised on 9x9 when its kind is made at
    levels (:mod:`learn.constraint_practice`), else no sizes: it has no practice."""
    level = constraint_lessons.LEVEL
    return {
        "slug": lesson.slug,
        "name": str(lesson.name),
        "level": level,
        "level_name": level_name(level),
        "sizes": [PRACTICE_SIZE] if practised_lesson(lesson.slug) else [],
        "variant": constraint_lessons.GROUP,
        "explanation": str(lesson.text),
    }


def constraint_lesson_list() -> list[dict[str, Any]]:
    """The constraint lessons, in the order the index lists them."""
    return [constraint_lesson_summary(lesson) for lesson in constraint_lessons.LESSONS]


def _constraint_detail(lesson: ConstraintLesson) -> dict[str, Any]:
    example = example_of(lesson.slug)
    if example is not None:
        example = {
            **example,
            "step": step_localized(example["step"]),
            "constraint_words": constraint_words(),
        }
        if "single" in example:
            example["single"] = step_localized(example["single"])
    return {**constraint_lesson_summary(lesson), "example": example, "frequency": []}


def technique_detail(*, slug: str) -> dict[str, Any]:
    """A lesson: the technique, its example step and how often the bank's puzzles use it
    (a constraint lesson: its example only)."""
    lesson = constraint_lessons.constraint_lesson(slug)
    if lesson is not None:
        return _constraint_detail(lesson)
    tech = technique_get(slug=slug)
    variant = technique_variant(slug)
    if variant is not None:
        frequency = [
            {
                **row,
                "level_name": level_name(row["level"]),
                "share": round(row["using"] / row["puzzles"], 3) if row["puzzles"] else 0.0,
            }
            for row in sorted(
                variant_technique_frequency(technique=slug, variant=variant),
                key=lambda r: (r["size"], LEVELS.index(r["level"])),
            )
        ]
    else:
        frequency = _classic_frequency(slug)
    example = example_of(slug)
    if example is not None:
        example = {**example, "step": step_localized(example["step"])}
    return {**technique_summary(tech), "example": example, "frequency": frequency}


def _classic_frequency(slug: str) -> list[dict[str, Any]]:
    rows = technique_frequency(technique=slug)
    return [
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


def level_name(level: str) -> str:
    """A level's name in the reader's language (``Easy``, ``简单``)."""
    return str(dict(Difficulty.choices).get(level, level))


def _name(tech: AnyTechnique) -> str:
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
    """The bank's puzzles that need ``slug`` at its level; never one a player typed in, nor
    today's or tomorrow's daily puzzle (practice would spoil it)."""
    return (
        PuzzleTechnique.objects.filter(
            technique=slug,
            size=size,
            difficulty=BY_SLUG[slug].level,
            puzzle__source__in=BANK_SOURCES,
        )
        .exclude(puzzle__constrained=True)
        .exclude(puzzle_id__in=daily_puzzle_ids(since=timezone.localdate()))
    )


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
        for t in (*ORDER, *variant_techniques(), *constraint_lessons.LESSONS)
        if t.slug in got
    ]
