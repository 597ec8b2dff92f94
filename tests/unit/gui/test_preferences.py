"""Desktop settings in their INI file: every declared type round-trips, bad values fall back to defaults, and
the library chosen there is the one the window and the command line open."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.sample import load_sample
from earmark.gui.preferences import DesktopSettings, chosen_library_path


def test_every_type_round_trips_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "earmark.conf"
    settings = DesktopSettings(path)
    assert settings.value("appearance.theme") == "system" and settings.value("window.splitters") == []
    settings.set_value("appearance.theme", "dark")
    settings.set_value("appearance.font_size", 99)  # beyond its maximum
    settings.set_value("appearance.tray_icon", False)
    settings.set_value("window.geometry", b"\x01\x02\xff")
    settings.set_value("window.splitters", [[200, 600, 400], [1, 2, 3, 4]])
    settings.set_value("window.columns", [[1, 150]])
    again = DesktopSettings(path)
    assert again.value("appearance.theme") == "dark"
    assert again.value("appearance.font_size") == 32
    assert again.value("appearance.tray_icon") is False
    assert again.value("window.geometry") == b"\x01\x02\xff"
    assert again.value("window.splitters") == [[200, 600, 400], [1, 2, 3, 4]]
    assert again.value("window.columns") == [[1, 150]]
    assert "[appearance]" in path.read_text()


def test_unreadable_values_fall_back_to_defaults(tmp_path: Path) -> None:
    path = tmp_path / "earmark.conf"
    path.write_text("[appearance]\ntheme=purple\nfont_size=big\n[window]\nsplitters=not json\n")
    settings = DesktopSettings(path)
    assert settings.value("appearance.theme") == "system"
    assert settings.value("appearance.font_size") == 0
    assert settings.value("window.splitters") == []
    with pytest.raises(KeyError):
        settings.value("feeds.refresh_interval")  # a library setting


def test_the_chosen_library_is_opened_unless_the_environment_says_otherwise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = DesktopSettings(tmp_path / "earmark.conf")
    monkeypatch.delenv("EARMARK_LIBRARY", raising=False)
    assert chosen_library_path(settings).name == "library.db"
    settings.set_value("library.path", str(tmp_path / "elsewhere.db"))
    assert chosen_library_path(settings) == tmp_path / "elsewhere.db"
    monkeypatch.setenv("EARMARK_LIBRARY", str(tmp_path / "env.db"))
    assert chosen_library_path(settings) == tmp_path / "env.db"


def test_the_command_line_uses_the_chosen_library(tmp_path: Path, desktop_config: Path) -> None:
    chosen = tmp_path / "chosen.db"
    load_sample(open_library(chosen))
    DesktopSettings(desktop_config).set_value("library.path", str(chosen))
    env = {key: value for key, value in os.environ.items() if key != "EARMARK_LIBRARY"}
    result = subprocess.run([sys.executable, "-m", "earmark", "list", "--json", "--kind", "article"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)) == 3
