"""No import cycles among the project's modules (device/, drivers/, ui/).

Every import statement counts, also one inside a function (a cycle hidden in a late import is
still a cycle); only imports under ``if TYPE_CHECKING:`` are left out, since they never run.
A package's ``__init__`` is its own node: ``from drivers.store.files import x`` depends on
``drivers.store.files`` only.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("device", "drivers", "ui")


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Each module's dotted name and its file."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _runs(node: ast.AST) -> list[ast.AST]:
    """The statements below ``node`` that can run (not the body of ``if TYPE_CHECKING:``)."""
    kept: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            kept.extend(child.orelse)
            continue
        kept.append(child)
    return kept


def _imported(module: str, is_package: bool, tree: ast.Module) -> list[str]:
    """The dotted names ``module`` imports (modules, or names inside modules)."""
    names: list[str] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([base] if base else [])])
            names.extend(f"{base}.{alias.name}" for alias in node.names)
        todo.extend(_runs(node))
    return names


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """For each project module, the project modules it imports."""
    files = module_files(root, packages)
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[str] = set()
        for name in _imported(module, path.name == "__init__.py", tree):
            parts = name.split(".")
            while parts and ".".join(parts) not in files:
                parts.pop()  # a name inside a module: the module it lives in
            if parts and ".".join(parts) != module:
                targets.add(".".join(parts))
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_project_has_no_import_cycle() -> None:
    graph = import_graph(ROOT)
    assert "drivers.store.legacy" in graph and "drivers.store.journal_store" in graph
    assert cycles(graph) == []


def test_a_cycle_through_a_late_import_is_found(tmp_path: Path) -> None:
    """The finder sees what the old store did: a module importing another inside a function,
    which imports it back at the top."""
    package = tmp_path / "drivers"
    (package / "store").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "store" / "__init__.py").write_text("from drivers.store.journal import Journal\n")
    (package / "store" / "journal.py").write_text(
        "def convert():\n    from drivers.store.legacy import read\n    return read()\n")
    (package / "store" / "legacy.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from drivers import other\n"
        "from . import journal\n")
    (package / "other.py").write_text("from drivers.store import legacy\n")
    graph = import_graph(tmp_path, ("drivers",))
    assert graph["drivers.store.legacy"] == {"drivers.store.journal"}  # not the TYPE_CHECKING one
    assert cycles(graph) == [["drivers.store.journal", "drivers.store.legacy"]]
