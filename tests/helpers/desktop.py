"""A desktop of its own for tests of packaging/install and of what the desktop opens (xdg-mime, xdg-open)."""

from __future__ import annotations

import os
from pathlib import Path

DESKTOP_SESSION_VARIABLES = ("XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION",
                             "GNOME_DESKTOP_SESSION_ID", "XDG_MENU_PREFIX")


def desktop_env(tmp_path: Path) -> dict[str, str]:
    """A user of their own: HOME and every XDG folder (the system ones too) under ``tmp_path``, no desktop
    session (xdg-mime and xdg-open then work on the freedesktop files themselves, as on a plain Debian)."""
    home = tmp_path / "home"
    env = {key: value for key, value in os.environ.items() if key not in DESKTOP_SESSION_VARIABLES}
    return {**env, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_DIRS": str(tmp_path / "system" / "data"), "XDG_CONFIG_DIRS": str(tmp_path / "system" / "xdg")}
