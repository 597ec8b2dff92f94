"""Every setting declared once (key, type, default, description), stored in the library."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs
import sqlite_utils

from earmark.core.db.connection import write_transaction

APP_NAME = "earmark"
LIBRARY_ENV = "EARMARK_LIBRARY"


@dataclass(frozen=True, slots=True)
class Setting:
    """One user setting and its documentation."""

    key: str
    type: type
    default: object
    description: str


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting("playback.skip_back", float, 10.0, "Seconds that Left (skip back) jumps back."),
        Setting("playback.skip_forward", float, 30.0, "Seconds that Right (skip forward) jumps ahead."),
        Setting("playback.speed", float, 1.0, "Playback speed used for episodes (0.5 to 4.0)."),
        Setting("playback.volume", int, 100, "Player volume in percent (0 to 100)."),
        Setting("playback.auto_advance", bool, True, "At the end of an episode, play the next one in Up Next."),
        Setting("playback.skip_on_error", bool, False,
                "When an episode cannot be played, move on to the next one in Up Next."),
        Setting("playback.played_within", float, 30.0,
                "An episode counts as played once stopped within this many seconds of its end (at most a tenth "
                "of its length)."),
        Setting("playback.time_left_at_speed", bool, True, "The time left shown is divided by the playback speed."),
        Setting("downloads.folder", str, "", "Folder for downloaded episodes (empty: the user data folder's "
                "downloads/)."),
        Setting("downloads.delete_played_after", int, 0,
                "Days after which downloads of played episodes are deleted (0: never)."),
        Setting("downloads.retries", int, 3, "How often a failed download is retried before it is reported."),
        Setting("keyboard.shortcuts", dict, {}, "Shortcuts changed by the user: action name to a list of keys."),
        Setting("feeds.refresh_interval", int, 60,
                "Minutes between automatic refreshes of every feed while the window is open (0: never)."),
        Setting("feeds.refresh_on_start", bool, True, "Refresh every feed a few seconds after the window opens."),
        Setting("list.sorts", dict, {}, "The order chosen for each view of the item list (set by clicking a "
                                        "column header), by view."),
    )
}


def default_library_path() -> Path:
    """$EARMARK_LIBRARY, else ``library.db`` in the platform's user data folder."""
    configured = os.environ.get(LIBRARY_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "library.db"


def downloads_folder(db: sqlite_utils.Database) -> Path:
    """Where downloads go: the ``downloads.folder`` setting, else ``downloads/`` in the user data folder."""
    configured = str(get_setting(db, "downloads.folder")).strip()
    if configured:
        return Path(configured).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "downloads"


def get_setting(db: sqlite_utils.Database, key: str) -> object:
    """A setting's stored value, or its default when unset or unreadable."""
    setting = SETTINGS[key]
    row = db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
    if row is None:
        return setting.type(setting.default)  # a copy: a caller may change a dict
    try:
        value = setting.type(json.loads(row[0]))
    except (ValueError, TypeError, OverflowError):  # OverflowError: int(Infinity), found by fuzzing restored backups
        return setting.default
    if isinstance(value, float) and not math.isfinite(value):  # NaN or Infinity: json reads them, nothing uses them
        return setting.default
    return value


def set_setting(db: sqlite_utils.Database, key: str, value: object) -> None:
    """Store a setting (checked against its declared type)."""
    setting = SETTINGS[key]
    with write_transaction(db):
        db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key, json.dumps(setting.type(value))],
        )
