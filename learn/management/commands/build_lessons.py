"""Make the lesson examples file: ``python manage.py build_lessons [--scan FILE ...]``.

Each technique's example comes from the puzzle ``generate(require=slug, seed="lesson")``
makes (on 9x9; the rare ones are grown from seed puzzles, :mod:`solver.generation.practice_seeds`);
a technique it cannot make is looked for in the files given with ``--scan`` (the shared puzzle
sets).
The shipped file was made with ``--scan magictour_top1465.txt qqwing_expert.txt``.

The variants' own techniques (Killer's) come after them, each from the puzzle
``generate_variant_requiring(variant, 9, slug, seed="lesson")`` makes. ``--variants``
remakes only those and keeps the classic examples of the file as they are (the classic
ones take minutes to make).

The constraint lessons' examples (:mod:`learn.constraint_examples`) come last;
``--constraints`` remakes only them (about a minute of CPU) and keeps the rest of the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from learn.constraint_examples import constraint_examples
from learn.constraint_lessons import BY_SLUG as CONSTRAINT_LESSONS
from learn.examples import (
    EXAMPLES_FILE,
    examples_dump,
    examples_from_puzzle,
    examples_from_variant_puzzle,
)
from solver import Grid, parse_many
from solver.generation.classic import GenerationFailed
from solver.generation.general import VariantGenerationFailed
from solver.generation.general_practice import (
    generate_variant_requiring,
    technique_variant,
    variant_techniques,
)
from solver.generation.practice import generate_requiring
from solver.logic.techniques import ORDER


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
        parser.add_argument(
            "--variants",
            action="store_true",
            help="remake only the variant techniques' examples; keep the classic ones of --out",
        )
        parser.add_argument(
            "--constraints",
            action="store_true",
            help="remake only the constraint lessons' examples; keep the others of --out",
        )

    def handle(
        self,
        *args: Any,
        scan: list[Path],
        seed: str,
        out: Path,
        variants: bool,
        constraints: bool,
        **opts: Any,
    ) -> None:
        kept = json.loads(out.read_text()) if out.exists() else {}
        if constraints:
            found = {k: v for k, v in kept.items() if k not in CONSTRAINT_LESSONS}
        else:
            if variants:
                classic = {t.slug: kept[t.slug] for t in ORDER if t.slug in kept}
            else:
                classic = self._classic(scan, seed)
            found = {**classic, **self._variants(seed)}
        found.update(self._constraints())
        out.write_text(examples_dump(found))
        self.stdout.write(f"{len(found)} examples written to {out}")

    def _constraints(self) -> dict[str, dict[str, Any]]:
        found = constraint_examples()
        for slug in CONSTRAINT_LESSONS:
            if slug not in found:
                self.stderr.write(f"no example for {slug}")
        return found

    def _variants(self, seed: str) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for tech in variant_techniques():
            variant = technique_variant(tech.slug)
            assert variant is not None
            try:
                made = generate_variant_requiring(variant, 9, tech.slug, seed=seed)
            except VariantGenerationFailed as exc:
                self.stderr.write(f"{tech.slug}: {exc}")
                continue
            found.update(examples_from_variant_puzzle(made.rules, made.puzzle, {tech.slug}))
        return found

    def _classic(self, scan: list[Path], seed: str) -> dict[str, dict[str, Any]]:
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
        for slug in missing:
            self.stderr.write(f"no example for {slug}")
        return {t.slug: found[t.slug] for t in ORDER if t.slug in found}
