"""Shared test set-up: Qt offscreen unless a display is given, and library/audio fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("EARMARK_VLC_ARGS", "--aout=dummy")


@pytest.fixture(autouse=True)
def desktop_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own desktop settings file (window layout, theme, library path), never the user's."""
    path = tmp_path / "config" / "earmark.conf"
    monkeypatch.setenv("EARMARK_CONFIG", str(path))
    return path


@pytest.fixture
def library_path(tmp_path: Path) -> Path:
    """Where a test's library file lives (not created yet)."""
    return tmp_path / "library.db"
