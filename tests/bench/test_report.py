"""The frame of make bench's report: the machine and the services."""

from __future__ import annotations

import os
import re
import sys

import pytest

from bench import report
from bench.__main__ import main

SERVICES = {"PostgreSQL": "15.2 (postgres://x/bench)", "Redis": "none"}


def test_the_header_names_the_interpreter_and_how_libpython_is_linked():
    header = "\n".join(report.machine_lines(SERVICES))
    row = re.search(r"^\| Python \| \S+ \((.*)\) \|$", header, re.M)
    assert row is not None, header
    assert row.group(1).startswith(os.path.realpath(sys.executable))
    assert "| PostgreSQL | 15.2 (postgres://x/bench) |" in header


def test_python_build_tells_a_shared_libpython_from_a_static_one():
    shared = "7f00-7f01 r-xp 0 08:01 5 /opt/py/lib/libpython3.11.so.1.0\n"
    static = "5500-5501 r-xp 0 08:01 6 /usr/bin/python3.11\n"
    assert report.python_build(shared).endswith("libpython shared")
    assert report.python_build(static).endswith("libpython linked in statically")
    assert report.python_build("") == os.path.realpath(sys.executable)


def test_the_report_hides_a_services_password():
    assert report._without_password("postgres://u:secret@h/db") == "postgres://u:***@h/db"


def test_an_unknown_section_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["nonsense"])
    assert exit_.value.code == 2
    assert "unknown section 'nonsense'" in capsys.readouterr().err


def test_the_report_is_written_with_the_sections_output(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "locate_services", lambda: {"PostgreSQL": "none", "Redis": "none"})
    monkeypatch.setattr("bench.__main__.SECTIONS", ("absent",))
    out = tmp_path / "RESULTS.md"
    assert main(["--out", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Benchmark results")
    assert "Load average at the end" in text
