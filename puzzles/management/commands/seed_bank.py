"""The starter bank: puzzles of every size and level, and today's daily puzzles."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from puzzles import daily, stock


class Command(BaseCommand):
    help = (
        "Load the starter bank (puzzles of every size and level, shipped in "
        "puzzles/data/starter.jsonl) and choose today's daily puzzles. Idempotent: a second "
        "run adds nothing. --rebuild generates the file again (minutes; for maintainers, "
        "after the generator or the grader changes)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild", action="store_true", help="Generate the starter file, then load it."
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
        daily.daily_puzzles_pick()
        seconds = time.monotonic() - started
        self.stdout.write(f"Starter bank: {added} puzzle(s) added in {seconds:.1f}s.")
