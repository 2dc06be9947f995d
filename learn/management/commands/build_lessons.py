"""Make the lesson examples file: ``python manage.py build_lessons [--scan FILE ...]``.

Each technique's example comes from the puzzle ``generate(require=slug, seed="lesson")``
makes (on 9x9; the rare ones are grown from seed puzzles, :mod:`solver.practice_seeds`); a
technique it cannot make is looked for in the files given with ``--scan`` (the shared puzzle
sets).
The shipped file was made with ``--scan magictour_top1465.txt qqwing_expert.txt``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from learn.examples import EXAMPLES_FILE, examples_dump, examples_from_puzzle
from solver import Grid, parse_many
from solver.generate import GenerationFailed
from solver.practice import generate_requiring
from solver.techniques import ORDER


class Command(BaseCommand):
    help = "Find a real engine step for every technique and write learn/data/examples.json."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--scan",
            nargs="*",
            type=Path,
            default=[],
            help="puzzle files to search for techniques the generator does not reach",
        )
        parser.add_argument("--seed", default="lesson")
        parser.add_argument("--out", type=Path, default=EXAMPLES_FILE)

    def handle(self, *args: Any, scan: list[Path], seed: str, out: Path, **opts: Any) -> None:
        found: dict[str, dict[str, Any]] = {}
        for tech in ORDER:
            try:
                made = generate_requiring(9, tech.slug, seed=seed)
            except GenerationFailed as exc:
                self.stderr.write(f"{tech.slug}: {exc}")
                continue
            found.update(examples_from_puzzle(made.puzzle, {tech.slug}))
        missing = [t.slug for t in ORDER if t.slug not in found]
        for path in scan:
            if not missing:
                break
            if not path.exists():
                raise CommandError(f"{path}: no such file")
            for _, grid in parse_many(path.read_text()):
                if isinstance(grid, Grid):
                    more = examples_from_puzzle(grid, set(missing))
                    found.update(more)
                    missing = [slug for slug in missing if slug not in more]
                if not missing:
                    break
        ordered = {t.slug: found[t.slug] for t in ORDER if t.slug in found}
        out.write_text(examples_dump(ordered))
        self.stdout.write(f"{len(ordered)} examples written to {out}")
        for slug in missing:
            self.stderr.write(f"no example for {slug}")
