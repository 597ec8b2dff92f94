"""Earmark's folders in the user's home, where the platform keeps them. On Linux and the BSDs they are the XDG
base directories, worked out here: every window's start needs them, and importing platformdirs cost ~7 ms of it.
Elsewhere (Windows, macOS) platformdirs answers."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Literal

APP_NAME = "earmark"
_XDG = {"data": ("XDG_DATA_HOME", "~/.local/share"), "cache": ("XDG_CACHE_HOME", "~/.cache")}


def user_folder(kind: Literal["data", "cache"]) -> Path:
    """Earmark's own data or cache folder: ``~/.local/share/earmark`` and ``~/.cache/earmark`` on Linux, or where
    $XDG_DATA_HOME and $XDG_CACHE_HOME say (only an absolute path counts, as the XDG specification and
    platformdirs have it)."""
    if sys.platform in ("win32", "cygwin", "darwin"):
        import platformdirs

        found = platformdirs.user_data_dir if kind == "data" else platformdirs.user_cache_dir
        return Path(found(APP_NAME, appauthor=False))
    variable, default = _XDG[kind]
    given = os.environ.get(variable, "")
    base = given if os.path.isabs(given) else os.path.expanduser(default)
    return Path(base) / APP_NAME
