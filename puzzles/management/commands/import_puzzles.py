"""Import puzzles from a file: each checked, graded and deduplicated, with a report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from puzzles import imports


class Command(BaseCommand):
    help = (
        "Import puzzles from FILE: one per line (.txt, .sdm) or one grid over several lines "
        "(.sdk). Each is checked for exactly one solution, graded and deduplicated. Valid "
        "lines are imported and bad ones reported (all in one transaction); with --strict "
        "one bad line imports nothing. Exit status 1 when any line was rejected."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--strict", action="store_true", help="All or nothing.")
        parser.add_argument("--box-rows", type=int, help="Box shape, for unusual boxes.")
        parser.add_argument("--box-cols", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        self.verbosity = options["verbosity"]
        path: Path = options["file"]
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from None
        try:
            report = imports.puzzle_import_file(
                data=data,
                strict=options["strict"],
                box_rows=options["box_rows"],
                box_cols=options["box_cols"],
            )
        except imports.ImportRejected as exc:
            self._lines(path, exc.report)
            raise CommandError(f"{path}: {exc.message}") from None
        except imports.ImportUnreadable as exc:
            raise CommandError(f"{path}: {exc.message}") from None
        self._lines(path, report)
        counts = report.counts
        summary = (
            f"{path}: imported {counts['imported']}, duplicates {counts['duplicate']}, "
            f"invalid {counts['invalid']}, multiple solutions {counts['multiple_solutions']}."
        )
        if report.rejected:
            raise CommandError(f"{summary} The valid lines were imported.")
        self.stdout.write(self.style.SUCCESS(summary))

    def _lines(self, path: Path, report: imports.ImportReport) -> None:
        for line in report.lines:
            if line.status == "imported":
                if self.verbosity >= 2:
                    self.stdout.write(f"{path}:{line.line}: imported {line.message}")
                continue
            label = line.status.replace("_", " ")
            stream = self.stdout if line.status == "duplicate" else self.stderr
            if line.status == "duplicate" and self.verbosity < 1:
                continue
            stream.write(f"{path}:{line.line}: {label}: {line.message}")
