"""The starter bank: a few puzzles of every size and level, and today's daily puzzles."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from puzzles import services


class Command(BaseCommand):
    help = (
        "Fill the starter bank (a few puzzles per size and level, made in this process) "
        "and choose today's daily puzzles. Idempotent: a second run adds nothing."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        report = (lambda text: self.stdout.write(f"  {text}")) if options["verbosity"] > 1 else None
        added = services.bank_seed(progress=report)
        services.daily_puzzles_pick()
        seconds = time.monotonic() - started
        self.stdout.write(f"Starter bank: {added} puzzle(s) added in {seconds:.1f}s.")
