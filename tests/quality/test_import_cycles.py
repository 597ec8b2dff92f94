"""No import circle anywhere under app/earmark: no module imports (directly or through others) a module that
imports it back. Every import statement counts: at the top, deferred into a function, or under TYPE_CHECKING
(a deferred import hides a circle from Python, not from the reader: the two modules still need each other).

``from pkg import name`` counts as importing the module ``pkg.name`` when there is one, else ``pkg`` itself.
Importing ``pkg.mod`` runs ``pkg/__init__.py`` first, but that is Python's doing, not a need of the importing
code, so it is not counted."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "app" / "earmark"


@dataclass(frozen=True)
class Import:
    """One import of one module by another, where it is written."""

    source: str
    target: str
    line: int
    how: str  # "", "deferred" or "TYPE_CHECKING"

    def __str__(self) -> str:
        return f"{self.source} → {self.target} (line {self.line}{', ' + self.how if self.how else ''})"


def modules(package: Path) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _known(name: str, known: dict[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is one of our modules (``earmark.x.f`` → ``earmark.x``)."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in known:
            return ".".join(parts)
        parts.pop()
    return None


def _absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    if not level:
        return module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _walk(node: ast.AST, how: str = "") -> Iterator[tuple[ast.AST, str]]:
    """Each node with how its imports run: at import time, deferred (in a function), or only for type checkers."""
    for child in ast.iter_child_nodes(node):
        child_how = how
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and not how:
            child_how = "deferred"
        if isinstance(node, ast.If) and child in node.body and "TYPE_CHECKING" in ast.unparse(node.test):
            child_how = "TYPE_CHECKING"
        yield child, child_how
        yield from _walk(child, child_how)


def imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    """The imports of our own modules that ``path`` (the module ``name``) makes, wherever they are written."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node, how in _walk(tree):
        targets: list[str | None] = []
        if isinstance(node, ast.Import):
            targets = [_known(alias.name, known) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, name, path.name == "__init__.py")
            targets = [_known(f"{base}.{alias.name}", known) or _known(base, known) for alias in node.names]
        found += [Import(name, target, node.lineno, how)  # type: ignore[attr-defined]
                  for target in dict.fromkeys(targets) if target and target != name]
    return found


def graph(package: Path) -> dict[str, list[Import]]:
    """Each module's imports of the package's other modules."""
    known = modules(package)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, list[Import]]) -> list[list[Import]]:
    """Each group of modules that need each other (Tarjan's strongly connected components), as the imports
    among its modules: every one of them is part of some circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(module: str) -> None:  # recursion depth is bounded by the number of modules (a few hundred)
        index[module] = low[module] = len(index)
        stack.append(module)
        for edge in edges.get(module, []):
            if edge.target not in index:
                visit(edge.target)
                low[module] = min(low[module], low[edge.target])
            elif edge.target in stack:
                low[module] = min(low[module], index[edge.target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return [[edge for module in sorted(group) for edge in edges[module] if edge.target in group]
            for group in sorted(groups, key=sorted)]


def describe(found: list[list[Import]]) -> str:
    return "\n".join(f"circle {number} ({len({edge.source for edge in circle})} modules):\n    "
                     + "\n    ".join(map(str, circle)) for number, circle in enumerate(found, start=1))


def test_no_module_imports_one_that_imports_it_back() -> None:
    found = cycles(graph(PACKAGE))
    assert not found, (f"{len(found)} import circle(s) under app/earmark (break each with a Protocol or by passing "
                       f"the collaborator in, not by deferring the import):\n{describe(found)}")


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_the_checker_finds_circles_through_deferred_and_type_checking_imports(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "def f():\n    from pkg import b\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.sub.c import C\n",
        "sub/__init__.py": "",
        "sub/c.py": "from .. import a\nimport json\n",
        "ok.py": "import pkg.a\nfrom pkg.sub import c\n",  # imports into the circle, not part of it
    })
    found = cycles(graph(package))
    assert [[str(edge) for edge in circle] for circle in found] == [[
        "pkg.a → pkg.b (line 2, deferred)",
        "pkg.b → pkg.sub.c (line 3, TYPE_CHECKING)",
        "pkg.sub.c → pkg.a (line 1)",
    ]]


def test_a_package_importing_its_own_modules_is_no_circle(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "from pkg import one, two\n",
        "one.py": "from pkg.common import x\n",
        "two.py": "from pkg.common import x\nfrom pkg import one\n",
        "common.py": "x = 1\n",
    })
    assert cycles(graph(package)) == []
