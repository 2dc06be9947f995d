"""Put the stored puzzle ratings on the current prior (ratings.prior): once after the
prior is refitted. Puzzles with no rated game start again from their prior; puzzles with
rated games keep their rating and record the new prior. Idempotent."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.services import REPRIOR_BATCH, puzzle_ratings_reprior


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="count what would change, write nothing"
        )
        parser.add_argument(
            "--batch", type=int, default=REPRIOR_BATCH, help="ratings per transaction"
        )
        parser.add_argument("--size", type=int, help="only puzzles of this size")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch"] < 1:
            raise CommandError("--batch must be at least 1.")
        done = puzzle_ratings_reprior(
            batch=options["batch"], dry_run=options["dry_run"], size=options["size"]
        )
        verb = "would be" if options["dry_run"] else "were"
        self.stdout.write(
            f"{done.reset} unplayed puzzle ratings {verb} reset to the new prior; "
            f"{done.played} played puzzles {verb} given the new prior beside their rating; "
            f"{done.unchanged} unchanged; {done.stale} graded by an older grader left alone "
            "(regrade the bank, then run this again)."
        )
