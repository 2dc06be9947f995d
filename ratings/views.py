"""What the play pages show of ratings: the stats section and the rating board's rows."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import ngettext, pgettext

from puzzles.models import Variant

from .charts import rating_history_svg
from .selectors import rating_leaderboard, rating_stats


def rating_stats_for_page(*, user: AbstractBaseUser) -> list[dict[str, Any]]:
    """Per variant and size: the rating figures and the SVG chart of its history."""
    out = rating_stats(user=user)
    for row in out:
        row["label"] = board_label(variant=row["variant"], size=row["size"])
        points = [row["start"]] + [p["rating"] for p in row["history"]]
        games = len(points) - 1
        label = ngettext(
            "Your %(size)s rating over your last %(count)s rated game",
            "Your %(size)s rating over your last %(count)s rated games",
            games,
        ) % {"size": row["label"], "count": games}
        row["chart"] = rating_history_svg(points, label=label)
    return out


def rating_leaderboard_rows(
    *, size: int, limit: int, variant: str = Variant.CLASSIC
) -> list[dict[str, Any]]:
    """The rating board's first ``limit`` rows, ratings rounded."""
    return [
        {**row, "rating": round(row["rating"]), "deviation": round(row["deviation"])}
        for row in rating_leaderboard(size=size, variant=variant)[:limit]
    ]


def board_label(*, variant: str, size: int) -> str:
    """What a rating is of, for people: "9×9" for classic play, "Killer 9×9" otherwise."""
    grid = f"{size}×{size}"
    if variant == Variant.CLASSIC:
        return grid
    name = Variant(variant).label
    return pgettext("rating of a variant at a size", "%(variant)s %(grid)s") % {
        "variant": name,
        "grid": grid,
    }
