"""Run every benchmark section that exists and print one report: ``python -m bench [--quick]``.

A section that fails is reported as failed (with its error) and the others still run; the
exit status is 1 if any section failed. ``python -m solver bench`` runs the solver sections.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sys
import time
import traceback
from collections.abc import Iterable
from pathlib import Path

from bench import report

SECTIONS = ("solve", "grade", "generate", "learning", "packs", "moves")


def run_sections(
    names: Iterable[str],
    *,
    quick: bool = False,
    out: report.Writer | None = None,
    tracebacks: bool = True,
) -> int:
    """Run the named sections (those whose module exists); 1 if any of them failed.

    A failing section's traceback goes to stderr only with ``tracebacks`` (the solver's
    command line reports the error in one line instead)."""
    out = out if out is not None else sys.stdout
    failed = 0
    for name in names:
        try:
            module = importlib.import_module(f"bench.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bench.{name}":
                continue  # this section is not written (yet)
            module = None
            error = f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # a broken section must not stop the others
            module = None
            error = f"{type(exc).__name__}: {exc}"
        started = time.perf_counter()
        lines = None
        if module is not None:
            try:
                lines = module.run(quick=quick)
            except Exception as exc:  # the same for a section that fails while running
                error = f"{type(exc).__name__}: {exc}"
                if tracebacks:
                    traceback.print_exc(file=sys.stderr)
        if lines is None:
            failed += 1
            print(f"## {name}\n\n**section failed**: {error}\n", file=out, flush=True)
            continue
        if not lines or not lines[0].startswith("#"):
            print(f"## {name}\n", file=out)
        for line in lines:
            print(line, file=out)
        print(f"\n({name}: {time.perf_counter() - started:.1f} s)\n", file=out, flush=True)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs on samples")
    parser.add_argument(
        "--out", type=Path, help="also write the report, with the date and the machine, here"
    )
    parser.add_argument("sections", nargs="*", metavar="SECTION", help=", ".join(SECTIONS))
    args = parser.parse_args(argv)
    unknown = [s for s in args.sections if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}: choose from {', '.join(SECTIONS)}")
    # PostgreSQL and Redis from the environment, else the local defaults if they answer.
    header = report.machine_lines(report.locate_services())
    if args.out is None:
        return run_sections(args.sections or SECTIONS, quick=args.quick)
    body = io.StringIO()
    status = run_sections(
        args.sections or SECTIONS, quick=args.quick, out=report.Tee(sys.stdout, body)
    )
    report.write_results(args.out, header, body.getvalue(), status)
    return status


if __name__ == "__main__":
    sys.exit(main())
