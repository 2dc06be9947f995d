"""Queue the analysis of finished variant games that have none: those that ended before
variant games were analysed (run after deploying it, until it queues none)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from replays.services import BACKFILL_LIMIT, variant_analyses_backfill


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--limit", type=int, default=BACKFILL_LIMIT, help="games queued at most this run"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        queued = variant_analyses_backfill(limit=max(0, options["limit"]))
        self.stdout.write(f"{queued} variant games queued for their analysis.")
