"""Where Earmark's package data is (the earmark.resources package: icons, the sample library, word tables), alike
in a source tree, an installed package and the bundle (PyInstaller keeps it as earmark/resources, earmark.spec).
A path, not importlib.resources: importing that cost ~3.5 ms of every start, for the window's icon."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path


@cache
def resource_folder() -> Path:
    """The folder of the earmark.resources package."""
    spec = importlib.util.find_spec("earmark.resources")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("Earmark's resources are not installed (the package earmark.resources is missing).")
    return Path(next(iter(spec.submodule_search_locations)))
