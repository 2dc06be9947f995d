"""integrity's services import one way: tasks, admin -> decisions -> gate -> players,
services -> models, signals (no module imports one above it, not even inside a function)."""

from __future__ import annotations

import ast
from pathlib import Path

import integrity

ROOT = Path(integrity.__file__).parent
LAYERS = ["tasks", "admin", "decisions", "gate", "players", "services", "selectors"]


def _imports(name: str) -> set[str]:
    tree = ast.parse((ROOT / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1 and module:
                found.add(module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif module.startswith("integrity."):
                found.add(module.split(".")[1])
    return found


def test_the_gate_players_services_and_tasks_import_one_way():
    for i, name in enumerate(LAYERS):
        above = set(LAYERS[: i + 1]) - {name}
        assert not (_imports(name) & above), (name, _imports(name) & above)
