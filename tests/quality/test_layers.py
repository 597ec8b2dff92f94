"""Dependencies point down only: gui → playback → core; core has no Qt, playback only QtCore."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "app" / "earmark"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def layer_files(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("path", layer_files("core"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_no_qt_and_nothing_above_it(path: Path) -> None:
    bad = {m for m in imported_modules(path)
           if m.split(".")[0] in ("PySide6", "shiboken6") or m.startswith(("earmark.gui", "earmark.playback"))}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", layer_files("playback"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_playback_imports_only_qtcore_and_core(path: Path) -> None:
    bad = {m for m in imported_modules(path)
           if (m.startswith("PySide6.") and not m.startswith("PySide6.QtCore")) or m == "PySide6"
           or m.startswith("earmark.gui")}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_the_checker_sees_violations(tmp_path: Path) -> None:
    sample = tmp_path / "bad.py"
    sample.write_text("from PySide6.QtWidgets import QWidget\nimport earmark.gui.tasks\n")
    assert {"PySide6.QtWidgets", "earmark.gui.tasks"} <= imported_modules(sample)
