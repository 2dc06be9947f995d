"""Arrows between the modules of one app point one way: no module imports, even lazily,
one that imports it back.

The graph is read from the source (every ``import`` anywhere in a module, inside a
function or under ``TYPE_CHECKING`` included), so a circle hidden in a function body is
found as surely as one at the top. Circles between apps are not this test's business.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

APPS = ("accounts", "puzzles", "play", "solving", "sudokusite", "solver")


def app_modules(app: str) -> dict[str, Path]:
    """Module name -> file, for every module of the app (packages as their ``__init__``)."""
    modules = {}
    for path in sorted((ROOT / app).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path) -> set[str]:
    """Every module name ``module`` imports (and, for ``from X import y``, ``X.y`` too,
    which is a module when y is one)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            names.add(source)
            names.update(f"{source}.{alias.name}" for alias in node.names)
    return names


def import_graph(app: str) -> dict[str, set[str]]:
    """Module -> the modules of the same app it imports."""
    modules = app_modules(app)
    return {
        name: {target for target in imported_names(name, path) if target in modules} - {name}
        for name, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_graph_sees_lazy_and_relative_imports():
    graph = {
        "a": {"b"},
        "b": {"a", "c"},
        "c": set(),
    }
    assert cycles(graph) == [["a", "b"]]
    # puzzles.tasks imports its services at the top; solving.api.views imports
    # solving.services relatively (from .. import services).
    assert {"puzzles.packs", "puzzles.chunks"} <= import_graph("puzzles")["puzzles.tasks"]
    assert "solving.services" in import_graph("solving")["solving.api.views"]


@pytest.mark.parametrize("app", APPS)
def test_no_module_of_an_app_imports_one_that_imports_it_back(app):
    assert cycles(import_graph(app)) == []
