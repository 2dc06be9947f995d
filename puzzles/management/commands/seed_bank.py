"""The starter bank: puzzles of every size and level, and today's daily puzzles."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from puzzles import daily, regrade, stock
from puzzles.variant_bank import variant_bank_seed, variant_techniques_backfill


class Command(BaseCommand):
    help = (
        "Load the starter bank (puzzles of every size and level, shipped in "
        "puzzles/data/starter.jsonl), a few Diagonal, Jigsaw and Killer puzzles, and choose "
        "today's daily puzzles. Idempotent: a second "
        "run adds nothing. --rebuild generates the file again (minutes; for maintainers, "
        "after the generator or the grader changes) and grades the stored bank again; "
        "--regrade only grades again the stored puzzles an older grader rated."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="Generate the starter file, load it, and grade the stored bank again.",
        )
        parser.add_argument(
            "--regrade",
            action="store_true",
            help="Grade again, here, every stored puzzle graded by an older grader.",
        )
        parser.add_argument(
            "--on-workers",
            action="store_true",
            help="With --rebuild or --regrade: queue the regrade in chunks on the workers.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        verbose = options["verbosity"] > 1

        def report(text: str) -> None:
            if verbose or options["rebuild"]:
                self.stdout.write(f"  {text}")

        if options["rebuild"]:
            written = stock.starter_file_build(progress=report)
            self.stdout.write(f"{stock.STARTER_FILE}: {written} puzzles.")
        added = stock.bank_seed(progress=report if verbose else None)
        added += variant_bank_seed(progress=report if verbose else None)
        recorded = variant_techniques_backfill()
        if recorded:
            self.stdout.write(f"Techniques recorded for {recorded} variant puzzle(s).")
        daily.daily_puzzles_pick()
        if options["rebuild"] or options["regrade"]:
            self._regrade(on_workers=options["on_workers"], report=report)
        seconds = time.monotonic() - started
        self.stdout.write(f"Starter bank: {added} puzzle(s) added in {seconds:.1f}s.")

    def _regrade(self, *, on_workers: bool, report: Callable[[str], None]) -> None:
        """Grade the stored bank again (resumable: only puzzles still stale are graded)."""
        if on_workers:
            from puzzles.tasks import bank_regrade_start

            bank_regrade_start.delay()
            self.stdout.write("Regrade of the stored bank queued on the workers.")
            return
        changed = regrade.bank_regrade(progress=report)
        done, left = regrade.bank_regrade_progress()
        self.stdout.write(
            f"Regrade: {changed} puzzle(s) changed grade; {done} graded by the current "
            f"grader, {left} left."
        )
