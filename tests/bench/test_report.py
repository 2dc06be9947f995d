"""The frame of make bench's report: the machine and the services."""

from __future__ import annotations

import os
import re
import sys
import types

import pytest

import bench.__main__ as report
from bench.__main__ import main

SERVICES = {"PostgreSQL": "15.2 (postgres://x/bench)", "Redis": "none"}


def test_the_header_names_the_interpreter_and_how_libpython_is_linked():
    header = "\n".join(report.header(SERVICES))
    row = re.search(r"^\| Python \| \S+ \((.*)\) \|$", header, re.M)
    assert row is not None, header
    assert row.group(1).startswith(os.path.realpath(sys.executable))
    assert re.search(r"libpython (shared|linked in statically)$", row.group(1))
    assert "| PostgreSQL | 15.2 (postgres://x/bench) |" in header


def test_the_report_hides_a_services_password():
    assert report.without_password("postgres://u:secret@h/db") == "postgres://u:***@h/db"
    assert report.without_password("redis://h:6379/0") == "redis://h:6379/0"


def test_an_unknown_section_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["nonsense"])
    assert exit_.value.code == 2
    assert "unknown section 'nonsense'" in capsys.readouterr().err


def test_the_report_is_written_with_the_sections_output(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "service_versions", lambda: {"PostgreSQL": "none"})
    section = types.ModuleType("bench.fine")
    section.run = lambda quick=False: ["## Fine", "", "| a figure |"]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bench.fine", section)
    monkeypatch.setattr(report, "SECTIONS", ("fine",))
    out = tmp_path / "RESULTS.md"
    assert main(["--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Benchmark results")
    assert "| PostgreSQL | none |" in text
    assert "| a figure |" in text
    assert "Load average at the end" in text
