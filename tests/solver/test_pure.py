"""The solver package stands alone: importing it loads no Django."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importing_solver_loads_no_django():
    code = (
        "import sys, solver, solver.search, solver.dlx, solver.rules, solver.__main__\n"
        "print('django' in sys.modules or any(m.startswith('django') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_solver_works_without_django_settings():
    code = "import solver; print(solver.count_solutions(solver.parse('.' * 16), limit=3))"
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "3"
