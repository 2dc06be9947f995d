"""Run the benchmark sections and print one report: ``python -m bench [--quick] [SECTION...]``.

A section is a module ``bench.<name>`` with ``run(quick: bool) -> list[str]`` (Markdown
lines); add its name to SECTIONS. A section that fails is reported as failed and the others
still run; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
import time
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

SECTIONS = ("solve", "grade", "generate", "learning", "packs", "moves", "ratings", "replays")


def run_sections(
    names: Iterable[str], *, quick: bool = False, out: TextIO | None = None, tracebacks: bool = True
) -> int:
    """Run the named sections; 1 if any of them failed."""
    out = out if out is not None else sys.stdout
    failed = 0
    for name in names:
        started = time.perf_counter()
        try:
            lines = importlib.import_module(f"bench.{name}").run(quick=quick)
        except ModuleNotFoundError as exc:
            if exc.name == f"bench.{name}":
                continue  # a section not written (yet)
            failed += 1
            print(f"## {name}\n\n**section failed**: {type(exc).__name__}: {exc}\n", file=out)
            continue
        except Exception as exc:  # a broken section must not stop the others
            if tracebacks:
                traceback.print_exc(file=sys.stderr)
            failed += 1
            print(f"## {name}\n\n**section failed**: {type(exc).__name__}: {exc}\n", file=out)
            continue
        if not lines or not lines[0].startswith("#"):
            print(f"## {name}\n", file=out)
        print("\n".join(lines), file=out)
        print(f"\n({name}: {time.perf_counter() - started:.1f} s)\n", file=out, flush=True)
    return 1 if failed else 0


class _Echo(io.StringIO):
    def write(self, text: str) -> int:
        sys.stdout.write(text)
        return super().write(text)

    def flush(self) -> None:
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    from bench import report

    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs on samples")
    parser.add_argument("--out", type=Path, help="also write the report here")
    parser.add_argument("sections", nargs="*", metavar="SECTION", help=", ".join(SECTIONS))
    args = parser.parse_args(argv)
    unknown = set(args.sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section {sorted(unknown)[0]!r}: choose from {', '.join(SECTIONS)}")
    header = "\n".join(report.machine_lines(report.locate_services())) + "\n"
    print(header, flush=True)
    body = _Echo()  # each section's lines as they come, and kept for the report
    status = run_sections(args.sections or SECTIONS, quick=args.quick, out=body)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    footer = f"Load average at the end: {load}. {'A section failed.' if status else ''}\n"
    print(footer)
    if args.out:
        args.out.write_text(header + body.getvalue().rstrip() + "\n\n" + footer)
    return status


if __name__ == "__main__":
    sys.exit(main())
