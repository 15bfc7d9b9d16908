"""The shape of the code: no import cycles, small folders, a core free of Flask and
Redis, and no two modules of one name playing different roles.

The import graph is read from the source with :mod:`ast`: every ``import`` and
``from ... import`` of a ``daily`` or ``workers`` module counts, inside functions and
under ``if TYPE_CHECKING:`` too (a type-only import is a dependency all the same). The
web client's graph counts every ``import ... from "./x.js"`` and every lazy
``import("./x.js")``.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("daily", "workers")
#: The core: pure game logic, usable without any server.
CORE = ("daily.rules", "daily.dice", "daily.game", "daily.movelog", "daily.replay",
        "daily.card", "daily.calendar", "daily.errors", "daily.randomplay", "daily.standings",
        "daily.strategy", "daily.fairplay", "daily.audit")
#: Modules whose names may repeat, because every one of them plays the same role.
SAME_ROLE = {
    "__init__.py", "__main__.py",
    "routes.py",  # a domain's blueprint
    "wiring.py",  # a domain's init_app, registering it on an app
    "kernel.py",  # compiled (numba) kernels of the strategy engine and of fair play
}
MAX_MODULES = 12


def modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that the module ``name`` at ``path`` imports."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()  # a module, or a name inside one (resolved below)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:  # a submodule if there is one, else the module
                out.add(f"{base}.{alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    resolved = set()
    for target in out:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


def graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (of ``daily`` and ``workers``)."""
    known = modules()
    return {name: imported(path, name, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return found


def test_cycles_are_found() -> None:
    """The cycle finder itself finds a circle (so the next test can fail)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    """No module of daily/ or workers/ reaches itself through its imports."""
    assert cycles(graph()) == []


def test_type_only_imports_count() -> None:
    """An import under ``if TYPE_CHECKING:`` is an edge of the graph (so a circle closed
    through one is found)."""
    known = modules()
    name = "daily.strategy.hints"
    assert "daily.strategy.solver" in imported(known[name], name, known)


#: The web client's modules.
STATIC = ROOT / "daily" / "web" / "static"
#: ``import ... from "./x.js"``, ``export ... from "./x.js"``, ``import "./x.js"`` and
#: the lazy ``import("./x.js")``.
_JS_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\./[\w./-]+\.js)["']""")


def js_graph() -> dict[str, set[str]]:
    """Web client module -> the modules it imports, lazily or not."""
    edges: dict[str, set[str]] = {}
    for path in sorted(STATIC.rglob("*.js")):
        name = str(path.relative_to(STATIC))
        targets = {str((path.parent / found).resolve().relative_to(STATIC))
                   for found in _JS_IMPORT.findall(path.read_text())}
        edges[name] = targets - {name}
    return edges


def test_the_js_graph_sees_lazy_imports() -> None:
    """The reader finds a static and a lazy import (so the next test can fail)."""
    assert _JS_IMPORT.findall('import { a } from "./a.js";\nawait import("./b.js")') == [
        "./a.js", "./b.js"]
    assert "api.js" in js_graph()["game.js"]


def test_no_import_cycles_in_the_web_client() -> None:
    """No module of the web client reaches itself, through lazy imports either."""
    assert cycles(js_graph()) == []


def test_the_core_imports_neither_flask_nor_redis() -> None:
    """Rules, dice, logs, replay, strategy, fair play and audit run without a server."""
    known = modules()
    offenders = []
    for name, path in known.items():
        if not name.startswith(CORE):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for imported_name in names:
                top = imported_name.split(".")[0]
                if top in ("flask", "redis", "rq", "werkzeug") or imported_name.startswith(
                        ("daily.service", "daily.web", "daily.cli", "workers")):
                    offenders.append(f"{name} imports {imported_name}")
    assert offenders == []


def test_the_service_never_imports_the_web_client_but_through_the_factory() -> None:
    """The web client depends on the service; only the app factory registers it."""
    edges = graph()
    importers = sorted(name for name, targets in edges.items()
                       if any(t.startswith("daily.web") for t in targets)
                       and name.startswith("daily.service"))
    assert importers == ["daily.service.app"]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_folder_holds_more_than_twelve_modules(package: str) -> None:
    crowded = {}
    for folder in [ROOT / package, *(p for p in (ROOT / package).rglob("*") if p.is_dir())]:
        count = len(list(folder.glob("*.py")))
        if count > MAX_MODULES:
            crowded[str(folder.relative_to(ROOT))] = count
    assert crowded == {}


def test_no_two_modules_of_one_name_unless_they_play_the_same_role() -> None:
    names = Counter(path.name for path in modules().values())
    repeated = sorted(n for n, count in names.items() if count > 1 and n not in SAME_ROLE)
    assert repeated == []
