"""pyproject.toml alone describes the build: its package list names every package (resources/ as
earmark.resources), and the wheel it builds holds every module and every resource file."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
RESOURCES = ROOT / "resources"


def listed_packages() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["setuptools"]["packages"]


def source_packages() -> set[str]:
    """Every folder under app/ that holds Python files, as a package name."""
    return {".".join(path.parent.relative_to(APP).parts) for path in APP.rglob("*.py")
            if "__pycache__" not in path.parts}


def test_there_is_no_setup_py() -> None:
    assert not (ROOT / "setup.py").exists()


def test_the_package_list_names_every_package() -> None:
    missing = source_packages() - set(listed_packages())
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"
    assert set(listed_packages()) == source_packages() | {"earmark.resources"}


def test_every_package_has_an_init_module() -> None:
    assert not [name for name in source_packages() if not (APP / name.replace(".", "/") / "__init__.py").exists()]


@pytest.mark.slow
def test_the_wheel_holds_every_module_and_resource(tmp_path: Path) -> None:
    # Built from a copy without the build products of earlier builds (setuptools reuses build/lib), with the
    # bytecode a tree that ran its tests has in resources/: it must stay out of the wheel.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                 ".*_cache", ".hypothesis", "__pycache__"))
    (source / "resources" / "__pycache__").mkdir()
    (source / "resources" / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"bytecode")
    out = tmp_path / "wheel"
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    [wheel] = out.glob("earmark-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {path.relative_to(APP).as_posix() for path in APP.rglob("*.py") if "__pycache__" not in path.parts}
    resources = {"earmark/resources/" + path.relative_to(RESOURCES).as_posix() for path in RESOURCES.rglob("*")
                 if path.is_file() and "__pycache__" not in path.parts}
    assert modules - names == set()
    assert resources - names == set()
    assert not [name for name in names if "__pycache__" in name]
