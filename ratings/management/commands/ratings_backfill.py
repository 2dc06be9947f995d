"""Give every stored puzzle without a rating its starting rating from the grader."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import puzzle_ratings_backfill


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        made = puzzle_ratings_backfill()
        self.stdout.write(f"{made} puzzle rating{'s' if made != 1 else ''} made.")
