"""The repository stands alone: a clone with nothing beside it runs the data tests.

Tests and benchmarks read their puzzle sets from data/puzzles inside the checkout; a
contributor's or a packager's clone has no folder of puzzle data beside it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# A path climbing out of the checkout to data beside it ("../<folder>/data"), or a Path that
# goes to the checkout's parent and then names a folder there.
OUTSIDE = re.compile(
    r"""\.\./\w+/data|["']\.\.["']\s*/|ROOT\.parent\s*/|parents\[\d\]\.parent\s*/"""
)


def _tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *patterns],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [ROOT / name for name in out.split("\0") if name]


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="git")
def test_no_code_reads_outside_the_checkout():
    files = _tracked("*.py", "Makefile", ".ci/*", "*.cfg", "*.toml", "*.ini")
    assert files
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert offenders == []


def test_every_data_set_has_a_source_line():
    readme = (ROOT / "data" / "puzzles" / "README.md").read_text()
    sets = sorted(p.name for p in (ROOT / "data" / "puzzles").glob("*.txt"))
    assert len(sets) >= 15
    for name in sets:
        stem = re.sub(r"_(simple|easy|intermediate|expert)\.txt$", "_*", name)
        assert name in readme or stem.split("_*")[0] in readme, name


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="git")
def test_a_clone_with_nothing_beside_it_runs_the_data_tests(tmp_path):
    """Clone HEAD into an empty folder and run the data-dependent tests there."""
    clone = tmp_path / "alone" / "sudoku"
    clone.parent.mkdir()
    subprocess.run(
        ["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)],
        check=True,
        capture_output=True,
    )
    assert sorted(p.name for p in clone.parent.iterdir()) == ["sudoku"]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "tests/solver/test_datasets.py::test_every_shared_data_set_is_here",
            "tests/solver/test_datasets.py::test_every_multisolution_puzzle_counts_two",
            "tests/solver/test_grade.py",
            # Data-reading, but minutes long: the suite runs them once, outside the clone.
            "--deselect",
            "tests/solver/test_grade.py::test_score_follows_se_ratings_on_the_held_out_file",
            "--deselect",
            "tests/solver/test_grade.py::test_qqwing_levels_get_harder_from_simple_to_expert",
        ],
        cwd=clone,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"},
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"\d+ passed", run.stdout)
    assert "skipped" not in run.stdout.splitlines()[-1]
