"""bench/__main__.py: every section runs, and a failing one is reported."""

import io
import sys
import types

from bench.__main__ import run_sections


def test_a_failing_section_is_reported_and_the_others_still_run(monkeypatch, capsys):
    good = types.ModuleType("bench.fine")
    good.run = lambda quick=False: [f"| fine | {quick} |"]  # type: ignore[attr-defined]
    bad = types.ModuleType("bench.broken")

    def broken(quick: bool = False) -> list[str]:
        raise RuntimeError("no data")

    bad.run = broken  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bench.fine", good)
    monkeypatch.setitem(sys.modules, "bench.broken", bad)
    out = io.StringIO()
    status = run_sections(["broken", "fine"], quick=True, out=out, tracebacks=False)
    text = out.getvalue()
    assert status == 1
    assert "| fine | True |" in text
    assert "section failed**: RuntimeError: no data" in text
    assert "Traceback" not in capsys.readouterr().err
