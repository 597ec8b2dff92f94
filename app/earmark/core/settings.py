"""Every setting declared once (key, type, default, description, and how the settings dialog edits it)."""

from __future__ import annotations

import json
import math
import os
from dataclasses import KW_ONLY
from pathlib import Path
from typing import Literal

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.passages.catalogue import DEFAULT as ASK_DEFAULT
from earmark.core.passages.catalogue import KNOWN, MINILM, OFF
from earmark.core.records import record
from earmark.core.transcribe.models import SIZES
from earmark.core.user_folders import user_folder

LIBRARY_ENV = "EARMARK_LIBRARY"
EDITABLE_TYPES = (bool, int, float, str)
PATH_SUFFIXES = ("folder", "dir", "directory", "path", "file")  # a str setting named so is edited as a path


@record(frozen=True)
class Setting:
    """One setting, its documentation, and hints for its editor in the settings dialog.

    ``store`` says where it lives: "library" (the library's settings table: travels with the library) or
    "desktop" (this user's desktop configuration: the library path itself, appearance, window layout).
    ``internal`` settings are remembered by the app and not shown in the dialog. Numbers are kept within
    ``minimum``/``maximum``; ``minimum_text`` is shown instead of the minimum ("Never", "System default").
    A str setting with ``choices`` is picked from a list of (value, label); ``kind`` "path" edits a file or
    folder name (also assumed for str settings whose key ends in folder, dir, path or file).
    """

    key: str
    type: type
    default: object
    description: str
    _: KW_ONLY
    label: str = ""
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    suffix: str = ""
    minimum_text: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    kind: Literal["", "path", "folder"] = ""
    suggestions: tuple[str, ...] = ()  # values offered in a list beside typing any other (a folder, with kind)
    store: Literal["library", "desktop"] = "library"
    internal: bool = False
    restart: bool = False  # takes effect the next time Earmark starts

    @property
    def group(self) -> str:
        """The section of the settings dialog: the key's prefix (``playback``, ``feeds``…)."""
        return self.key.split(".", 1)[0]

    @property
    def title(self) -> str:
        """The label of its editor: ``label``, else the key's last part in words."""
        if self.label:
            return self.label
        words = self.key.rsplit(".", 1)[-1].replace("_", " ")
        return words[:1].upper() + words[1:]

    @property
    def editable(self) -> bool:
        """Whether the settings dialog shows an editor for it."""
        return not self.internal and self.type in EDITABLE_TYPES

    @property
    def path_kind(self) -> str:
        """"folder", "path" (a file) or "" (not a path)."""
        if self.kind:
            return self.kind
        if self.type is str and self.key.rsplit(".", 1)[-1].split("_")[-1] in PATH_SUFFIXES:
            return "folder" if self.key.endswith(("folder", "dir", "directory")) else "path"
        return ""

    def coerce(self, value: object) -> object:
        """``value`` as this setting's type, kept within its bounds and choices; the default if it cannot be."""
        try:
            if self.type is bool and isinstance(value, str):  # QSettings hands back "true"/"false"
                converted: object = value.strip().lower() in ("1", "true", "yes", "on")
            elif self.type in (int, float) and isinstance(value, str):
                converted = self.type(float(value)) if self.type is int else float(value)
            elif self.type is int and isinstance(value, float):
                converted = round(value)
            else:
                converted = self.type(value)
        except (ValueError, TypeError, OverflowError):  # OverflowError: int(Infinity), found by fuzzing backups
            return self.default
        if isinstance(converted, int | float) and not isinstance(converted, bool):
            number: float = converted
            if self.minimum is not None:
                number = max(number, self.minimum)
            if self.maximum is not None:
                number = min(number, self.maximum)
            converted = self.type(number) if number != converted else converted
        if self.choices and converted not in {value for value, _label in self.choices}:
            return self.default
        return converted


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting("playback.skip_back", float, 10.0, "Seconds that Left (skip back) jumps back.",
                label="Skip back", minimum=1, maximum=600, step=1, suffix=" s"),
        Setting("playback.skip_forward", float, 30.0, "Seconds that Right (skip forward) jumps ahead.",
                label="Skip forward", minimum=1, maximum=600, step=1, suffix=" s"),
        Setting("playback.speed", float, 1.0, "Playback speed used for episodes (0.5 to 4.0).",
                label="Default speed", minimum=0.5, maximum=4.0, step=0.05, suffix="×"),
        Setting("playback.volume", int, 100, "Player volume in percent (0 to 100).",
                minimum=0, maximum=100, step=5, suffix=" %"),
        Setting("playback.auto_advance", bool, True, "At the end of an episode, play the next one in Up Next.",
                label="Play the next in Up Next at the end of an episode"),
        Setting("playback.skip_on_error", bool, False,
                "When an episode cannot be played, move on to the next one in Up Next.",
                label="Move on when an episode cannot be played"),
        Setting("playback.played_within", float, 30.0,
                "An episode counts as played once stopped within this many seconds of its end (at most a tenth "
                "of its length).", label="Played within", minimum=0, maximum=600, step=5, suffix=" s of the end"),
        Setting("playback.time_left_at_speed", bool, True, "The time left shown is divided by the playback speed.",
                label="Show the time left at the playing speed"),
        Setting("downloads.folder", str, "", "Folder for downloaded episodes (empty: the user data folder's "
                "downloads/)."),
        Setting("downloads.delete_played_after", int, 0,
                "Days after which downloads of played episodes are deleted (0: never).",
                label="Delete played downloads after", minimum=0, maximum=3650, suffix=" days", minimum_text="Never"),
        Setting("downloads.retries", int, 3, "How often a failed download is retried before it is reported.",
                label="Retries", minimum=0, maximum=20),
        Setting("keyboard.shortcuts", dict, {}, "Shortcuts changed by the user: action name to a list of keys.",
                internal=True),
        Setting("transcribe.model", str, "base.en",
                "The speech-recognition model that transcribes episodes: a size (tiny, base, small, or their .en "
                "variants for English; fetched once into the user cache folder) or a folder holding a Whisper "
                "model in CTranslate2 format.", label="Transcription model", kind="folder", suggestions=SIZES),
        Setting("ask.model", str, ASK_DEFAULT,
                f"The sentence model Ask uses to find passages by meaning as well as by words: {ASK_DEFAULT} (a "
                f"static model, fetched once, about {KNOWN[ASK_DEFAULT].size_mb} MB, into the user cache folder; "
                f"thousands of passages a second), {MINILM} (a transformer, about {KNOWN[MINILM].size_mb} MB: a "
                "little better by meaning alone, some 75 times slower to make vectors), a folder holding a model "
                "(tokenizer.json with model.safetensors or model.onnx), or off for words alone.",
                label="Sentence model", kind="folder", suggestions=(ASK_DEFAULT, MINILM, OFF)),
        Setting("feeds.refresh_interval", int, 60,
                "Minutes between automatic refreshes of every feed while the window is open (0: never).",
                label="Refresh every", minimum=0, maximum=7 * 24 * 60, step=15, suffix=" min",
                minimum_text="Never"),
        Setting("feeds.refresh_on_start", bool, True, "Refresh every feed a few seconds after the window opens.",
                label="Refresh when Earmark starts"),
        Setting("feeds.notify_new", bool, True,
                "After a refresh that brought new episodes or articles, say so in a desktop notification "
                "(from the tray icon, when the desktop has a system tray).",
                label="Notify about new episodes"),
        Setting("directory.apple", bool, True, "Add Podcast and earmark find search Apple Podcasts (the iTunes "
                "Search API: no account needed).", label="Search Apple Podcasts"),
        Setting("directory.podcastindex", bool, False, "Searches also ask Podcast Index (needs your own free API "
                "key and secret from podcastindex.org).", label="Search Podcast Index"),
        Setting("directory.fyyd", bool, False, "Searches also ask fyyd (fyyd.de).", label="Search fyyd"),
        Setting("directory.gpodder", bool, False, "Searches also ask gpodder.net's directory.",
                label="Search gpodder.net"),
        Setting("directory.podcastindex_key", str, "", "Your Podcast Index API key; its secret is kept in the "
                "system keyring (earmark directory-secret).", label="Podcast Index API key"),
        Setting("directory.country", str, "us", "The Apple Podcasts store searched and charted (a two-letter "
                "country code).", label="Apple Podcasts country"),
        Setting("directory.apple_url", str, "https://itunes.apple.com", "Where the iTunes Search API is asked "
                "(for a mirror or a test server).", label="Apple Podcasts address"),
        Setting("directory.podcastindex_url", str, "https://api.podcastindex.org/api/1.0",
                "Where the Podcast Index API is asked.", label="Podcast Index address"),
        Setting("directory.fyyd_url", str, "https://api.fyyd.de/0.2", "Where the fyyd API is asked.",
                label="fyyd address"),
        Setting("directory.gpodder_url", str, "https://gpodder.net", "Where gpodder.net's directory is asked.",
                label="gpodder.net address"),
        Setting("backups.keep", int, 7,
                "How many daily backups of the library to keep in the backups folder beside it (0: make none). "
                "The window makes one a day when it opens, and so does earmark refresh.",
                label="Daily backups to keep", minimum=0, maximum=365),
        Setting("sync.interval", int, 30,
                "Minutes between syncs with the gpodder.net or Nextcloud server while the window is open (0: only "
                "on start, after each refresh and on demand).", label="Sync every", minimum=0, maximum=24 * 60,
                step=5, suffix=" min", minimum_text="Only on start, after refreshes and on demand"),
        Setting("sync.device_caption", str, "",
                "The name this device shows on the sync server (empty: Earmark on this computer's name).",
                label="Device name on the server"),
        Setting("secrets.store_in_library", bool, False,
                "Keep feed and sync passwords in the library file instead of the system keyring. Unencrypted: "
                "anyone who can read the file can read them (backups and exports still leave them out). Only for "
                "desktops without a keyring.", label="Keep passwords in the library file (unencrypted)"),
        Setting("list.sorts", dict, {}, "The order chosen for each view of the item list (set by clicking a "
                                        "column header), by view.", internal=True),
        Setting("reader.font_size", int, 13, "Text size of the reader, in points (8 to 32).",
                label="Reader text size", minimum=8, maximum=32, suffix=" pt"),
        Setting("reader.dark", bool, False, "Light text on a dark background in the reader.",
                label="Dark reader"),
        Setting("reader.open_article", int, 0,
                "The article open in the reader when the window closed, opened again at start (0: none).",
                internal=True),
        Setting("window.view", str, "", "The view shown when the window last closed on this library (shown again "
                                        "when it opens, unless the library is empty).", internal=True),
        # This desktop's settings, not the library's (the library path chooses the library).
        Setting("library.path", str, "",
                "The library file the window opens (empty: the default, library.db in the user data folder). "
                "--library and EARMARK_LIBRARY take precedence. Takes effect at the next start.",
                label="Library file", kind="path", store="desktop", restart=True),
        Setting("appearance.theme", str, "system",
                "Colours: follow the desktop's light or dark colour scheme (system), or always light or dark.",
                label="Theme", choices=(("system", "Follow the system"), ("light", "Light"), ("dark", "Dark")),
                store="desktop"),
        Setting("appearance.font_size", int, 0, "Text size in points for the whole window (0: the desktop's).",
                label="Font size", minimum=0, maximum=32, step=1, suffix=" pt", minimum_text="System default",
                store="desktop"),
        Setting("appearance.tray_icon", bool, True,
                "Show Earmark in the system tray (play/pause, next, show/hide) where the desktop has one.",
                label="Show a tray icon", store="desktop"),
        Setting("appearance.close_to_tray", bool, False,
                "Closing the window keeps Earmark running in the tray icon (playing on; Quit ends it). Only where "
                "the tray icon shows: elsewhere closing the window quits.", label="Close to the tray",
                store="desktop"),
        Setting("appearance.list_covers", bool, True,
                "A podcast's cover beside each row of the item list (covers show in the sidebar, the details, the "
                "player bar and My Podcasts whatever this says).", label="Covers in the list", store="desktop"),
        Setting("appearance.start_minimised", bool, False,
                "Start with the window in the tray icon (or minimised where the desktop has no tray); "
                "`earmark --minimised` does the same once.", label="Start minimised", store="desktop"),
        Setting("window.geometry", bytes, b"", "The main window's size and place on the screen.",
                store="desktop", internal=True),
        Setting("window.splitters", list, [], "The sizes of the sidebar and the central view.", store="desktop",
                internal=True),
        Setting("window.columns", list, [], "The widths of the item list's columns.", store="desktop",
                internal=True),
        Setting("window.docks", bytes, b"", "Where the panes beside the item are: docked, tabbed, floating or "
                                            "closed.", store="desktop", internal=True),
    )
}


def default_library_path() -> Path:
    """$EARMARK_LIBRARY, else ``library.db`` in the platform's user data folder."""
    configured = os.environ.get(LIBRARY_ENV)
    if configured:
        return Path(configured).expanduser()
    return default_data_folder() / "library.db"


def default_data_folder() -> Path:
    """Earmark's own folder in the user data folder (``~/.local/share/earmark`` on Linux)."""
    return user_folder("data")


def library_settings() -> list[Setting]:
    """The settings stored in the library, in declaration order."""
    return [s for s in SETTINGS.values() if s.store == "library"]


def downloads_folder(db: Database) -> Path:
    """Where downloads go: the ``downloads.folder`` setting, else ``downloads/`` in the user data folder."""
    configured = str(get_setting(db, "downloads.folder")).strip()
    if configured:
        return Path(configured).expanduser()
    return default_data_folder() / "downloads"


def get_setting(db: Database, key: str) -> object:
    """A library setting's stored value, or its default when unset or unreadable."""
    setting = SETTINGS[key]
    if setting.store != "library":
        raise KeyError(f"{key} is not stored in the library")
    row = db.execute("SELECT value FROM settings WHERE key = ?", [key]).fetchone()
    if row is None:
        return setting.type(setting.default)  # a copy: a caller may change a dict
    try:
        stored = json.loads(row[0])
    except ValueError:
        return setting.default
    if isinstance(stored, float) and not math.isfinite(stored):  # NaN or Infinity: json reads them, nothing uses them
        return setting.default
    return setting.coerce(stored)


def set_setting(db: Database, key: str, value: object) -> None:
    """Store a library setting (converted to its declared type and kept within its bounds)."""
    setting = SETTINGS[key]
    if setting.store != "library":
        raise KeyError(f"{key} is not stored in the library")
    with write_transaction(db):
        db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [key, json.dumps(setting.coerce(value))],
        )
