"""A pack as a file: text (one per line), ``.sdm``, CSV, JSON. Staff only: the CSV and
JSON carry the solutions. (The printable page is an admin view, see admin.py.)"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass

from puzzles.models import PackEntry, PuzzlePack

FORMATS = ("txt", "sdm", "csv", "json")


@dataclass(frozen=True)
class Export:
    content: str
    content_type: str
    filename: str


def _slug(name: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name.strip())
    return "-".join(part for part in keep.split("-") if part) or "pack"


def export_txt(entries: Iterable[PackEntry]) -> str:
    """One puzzle per line, ``.`` for an empty cell."""
    return "".join(f"{entry.puzzle.givens}\n" for entry in entries)


def export_sdm(entries: Iterable[PackEntry]) -> str:
    """SadMan's ``.sdm``: one puzzle per line, ``0`` for an empty cell."""
    return "".join(f"{entry.puzzle.givens.replace('.', '0')}\n" for entry in entries)


def export_csv(entries: Iterable[PackEntry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["position", "id", "givens", "solution", "level", "score"])
    for entry in entries:
        p = entry.puzzle
        writer.writerow([entry.position + 1, p.pk, p.givens, p.solution, p.difficulty, p.score])
    return out.getvalue()


def export_json(pack: PuzzlePack, entries: Iterable[PackEntry]) -> str:
    data = {
        "pack": {
            "id": pack.pk,
            "name": pack.name,
            "size": pack.size,
            "box_rows": pack.box_rows,
            "box_cols": pack.box_cols,
            "difficulty": pack.difficulty,
            "symmetry": pack.symmetry,
            "count": pack.count,
            "status": pack.status,
            "seed": pack.seed,
        },
        "puzzles": [
            {
                "position": entry.position + 1,
                "id": entry.puzzle.pk,
                "givens": entry.puzzle.givens,
                "solution": entry.puzzle.solution,
                "difficulty": entry.puzzle.difficulty,
                "score": entry.puzzle.score,
                "techniques": entry.puzzle.techniques,
                "clue_count": entry.puzzle.clue_count,
            }
            for entry in entries
        ],
    }
    return json.dumps(data, indent=1) + "\n"


def pack_export(*, pack: PuzzlePack, fmt: str) -> Export:
    """The pack in ``fmt`` (one of FORMATS); ValueError for another format."""
    entries = list(pack.entries.select_related("puzzle").order_by("position"))
    base = _slug(pack.name)
    if fmt == "txt":
        return Export(export_txt(entries), "text/plain; charset=utf-8", f"{base}.txt")
    if fmt == "sdm":
        return Export(export_sdm(entries), "text/plain; charset=utf-8", f"{base}.sdm")
    if fmt == "csv":
        return Export(export_csv(entries), "text/csv; charset=utf-8", f"{base}.csv")
    if fmt == "json":
        return Export(export_json(pack, entries), "application/json", f"{base}.json")
    raise ValueError(f"format: {fmt!r} is not offered; use one of {', '.join(FORMATS)}.")
