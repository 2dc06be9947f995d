"""The solver package stands alone: importing it, or any of its modules, loads no Django
and nothing of the site."""

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import solver

ROOT = Path(__file__).resolve().parents[2]

# Top-level packages the engine must never load: the framework and every app of the site.
FORBIDDEN = (
    "django",
    "rest_framework",
    "celery",
    "sudokusite",
    "accounts",
    "puzzles",
    "play",
    "solving",
)


def solver_modules() -> list[str]:
    """Every module of the solver package, found by walking it (new modules included)."""
    found = pkgutil.walk_packages(solver.__path__, prefix="solver.")
    return ["solver", *sorted(info.name for info in found)]


def loaded_after_importing(modules: list[str]) -> list[str]:
    """The forbidden top-level packages in ``sys.modules`` after importing ``modules``
    in a fresh interpreter."""
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "tops = {name.partition('.')[0] for name in sys.modules}\n"
        f"print(json.dumps(sorted(tops & set({list(FORBIDDEN)!r}))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_the_walk_finds_every_kind_of_solver_module():
    modules = solver_modules()
    assert {"solver.__main__", "solver.search.exact", "solver.logic.grade"} <= set(modules)
    assert any(name.startswith("solver.logic.techniques.") for name in modules)


def test_importing_solver_loads_no_django_and_nothing_of_the_site():
    assert loaded_after_importing(["solver"]) == []


def test_importing_every_solver_module_loads_no_django_and_nothing_of_the_site():
    assert loaded_after_importing(solver_modules()) == []


def test_no_solver_module_imports_the_site_or_the_benchmarks_even_lazily():
    # An import inside a function escapes the probe above until it runs: read them all.
    outside = set(FORBIDDEN) | {"bench"}
    found = []
    for path in sorted(Path(solver.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            found += [
                f"{path.relative_to(ROOT)}: {name}"
                for name in names
                if name.partition(".")[0] in outside
            ]
    assert found == []


def test_the_probe_sees_the_site_and_django_when_they_are_imported():
    assert loaded_after_importing(["solving", "django.utils.text"]) == ["django", "solving"]


def test_solver_works_without_django_settings():
    code = "import solver; print(solver.count_solutions(solver.parse('.' * 16), limit=3))"
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "3"
