"""tests/unit/ mirrors the package: each folder of tests is a package of app/earmark/ (tests/unit/core/db/ holds
the tests of earmark.core.db), and each test file there imports a module of that package itself, not only of a
package below it (whose folder it belongs in) or the shared types (core.models, core.errors). The tests of the
command line, tests/unit/cli/, run it (through helpers.cli, earmark.cli or a child ``python -m earmark``). Imports
in the code a test gives a child process count as its imports."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from test_layers import imported_modules

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "app" / "earmark"
UNIT = ROOT / "tests" / "unit"
SHARED_TYPES = {"earmark.core.models", "earmark.core.errors"}
COMMAND_LINE = ("earmark.cli", "helpers.cli")
CHILD_IMPORT = re.compile(r"^\s*(?:from|import) (earmark[\w.]*)", re.MULTILINE)
CHILD_COMMAND = '"-m", "earmark"'


def unit_test_files() -> list[Path]:
    return sorted(UNIT.rglob("test_*.py"))


def package_of(folder: Path) -> str:
    """The dotted name of the package a folder of tests/unit/ mirrors."""
    return ".".join(("earmark", *folder.relative_to(UNIT).parts))


def own_modules(package: str) -> set[str]:
    """The package itself and the modules directly in it (not those of its subpackages)."""
    folder = PACKAGE.joinpath(*package.split(".")[1:])
    return {package} | {f"{package}.{path.stem}" for path in folder.glob("*.py") if path.stem != "__init__"}


def test_every_folder_of_unit_tests_is_a_package() -> None:
    folders = {path.parent for path in unit_test_files()}
    assert folders, "no unit tests found"
    missing = sorted(str(folder.relative_to(UNIT)) for folder in folders
                     if not (PACKAGE.joinpath(*folder.relative_to(UNIT).parts) / "__init__.py").is_file())
    assert missing == [], f"tests/unit/ folders that mirror no package of app/earmark/: {missing}"


@pytest.mark.parametrize("path", unit_test_files(), ids=lambda p: str(p.relative_to(UNIT)))
def test_each_test_file_tests_its_folders_package(path: Path) -> None:
    package = package_of(path.parent)
    imported = imported_modules(path) | set(CHILD_IMPORT.findall(path.read_text(encoding="utf-8")))
    if package == "earmark.cli":
        runs = any(name.startswith(COMMAND_LINE) for name in imported) or CHILD_COMMAND in path.read_text("utf-8")
        assert runs, f"{path.name} does not run the command line"
        return
    own = (own_modules(package) - SHARED_TYPES) & imported
    assert own, (f"{path.name} imports no module of {package} itself: it belongs in the folder of the package it "
                 f"tests ({sorted(m for m in imported if m.startswith('earmark.'))})")


def test_test_file_names_are_unique() -> None:
    """pytest imports test files by their name (tests/ has no __init__.py): two of one name clash."""
    names = Counter(path.name for path in (ROOT / "tests").rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []


def test_the_check_sees_a_test_in_the_wrong_folder(tmp_path: Path) -> None:
    misplaced = tmp_path / "test_misplaced.py"
    misplaced.write_text("from earmark.core.db.items import get_item\nfrom earmark.core.models import Item\n")
    assert not (own_modules("earmark.core") - SHARED_TYPES) & imported_modules(misplaced)
    assert own_modules("earmark.core.db") & imported_modules(misplaced)
