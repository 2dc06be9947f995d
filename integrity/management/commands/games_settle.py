"""Decide through the gate whether finished games count: those finished before the gate
stored its decision (run once after deploying it), or every finished game with --all."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from integrity.gate import games_settle


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--all", action="store_true", help="decide again for every finished game"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        counted, settled = games_settle(again=options["all"])
        self.stdout.write(f"{settled} finished games settled, {counted} of them count.")
