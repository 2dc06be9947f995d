"""Ask for a pack of generated puzzles: queued for the workers, or made here with --sync."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from tqdm import tqdm

from puzzles import packs, selectors
from puzzles.models import PackStatus, PuzzlePack


class Command(BaseCommand):
    help = (
        "Generate a pack of puzzles: --size 9 --difficulty hard --count 500 [--pack NAME]. "
        "Queues the work for the Celery workers; --wait shows a progress bar until done; "
        "--sync generates in this process with no worker."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--size", type=int, required=True, help="Grid side: 4, 6, 8, 9, 12, 16."
        )
        parser.add_argument(
            "--difficulty", required=True, help="easy, medium, hard, expert, master."
        )
        parser.add_argument(
            "--count", type=int, required=True, help=f"1 to {packs.PACK_MAX_COUNT}."
        )
        parser.add_argument("--pack", help="The pack's name (default: size, level and time).")
        parser.add_argument(
            "--symmetry", default="none", help="none, rotational, mirror, diagonal."
        )
        parser.add_argument("--seed", help="Same seed, same puzzles (default: random).")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--wait", action="store_true", help="Show progress until the pack is done."
        )
        mode.add_argument("--sync", action="store_true", help="Generate here, with no worker.")
        parser.add_argument("--queue", help="Celery queue for the chunks (default queue if unset).")

    def handle(self, *args: Any, **options: Any) -> None:
        size, level = options["size"], options["difficulty"]
        name = options["pack"] or f"{size}x{size} {level} {timezone.now():%Y-%m-%d %H:%M:%S}"
        try:
            pack = packs.pack_create(
                name=name,
                size=size,
                difficulty=level,
                count=options["count"],
                symmetry=options["symmetry"],
                seed=options["seed"],
                enqueue=not options["sync"],
                queue=options["queue"],
            )
        except (packs.PackRequestInvalid, packs.PackNameTaken) as exc:
            # "size: 7 is not offered ..." -> "--size: 7 is not offered ..."
            field, _, message = exc.message.partition(": ")
            option = "--pack" if field == "name" else f"--{field}"
            raise CommandError(f"{option}: {message}") from None
        self.stdout.write(f"Pack #{pack.pk} {pack.name!r}: {pack.count} puzzles.")
        if options["sync"]:
            with tqdm(total=pack.count, unit="puzzle", disable=options["verbosity"] == 0) as bar:
                pack = packs.pack_run_sync(pack=pack, progress=bar.update)
        elif options["wait"]:
            pack = self._wait(pack, quiet=options["verbosity"] == 0)
        else:
            self.stdout.write("Queued; follow it in the admin or with GET /api/v1/packs/ID/.")
            return
        self._finish(pack)

    def _wait(self, pack: PuzzlePack, *, quiet: bool) -> PuzzlePack:
        with tqdm(total=pack.count, unit="puzzle", disable=quiet) as bar:
            while True:
                pack.refresh_from_db()
                progress = selectors.pack_progress(pack=pack)
                bar.update(progress["made"] - bar.n)
                if progress["finished"]:
                    return pack
                time.sleep(0.5)

    def _finish(self, pack: PuzzlePack) -> None:
        made = pack.entries.count()
        if pack.status == PackStatus.DONE:
            self.stdout.write(self.style.SUCCESS(f"Done: {made} puzzles in pack #{pack.pk}."))
            return
        raise CommandError(
            f"Pack #{pack.pk} {pack.status} with {made} of {pack.count} puzzles. {pack.error}"
        )
