"""Reading and changing settings from the GUI: library settings through the writer, desktop settings with
QSettings (this is the only module that calls ``QSettings()``), and one ``changed`` signal for both."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, QSettings, Signal

from earmark.core.db.database import Database
from earmark.core.settings import LIBRARY_ENV, SETTINGS, Setting, default_library_path, get_setting
from earmark.gui.operations.records import store_setting
from earmark.gui.tasks import TaskRunner

CONFIG_ENV = "EARMARK_CONFIG"  # a settings file to use instead of ~/.config/earmark/earmark.conf (tests)


class DesktopSettings:
    """This desktop's settings (library path, appearance, window layout) in an INI file: ``$EARMARK_CONFIG``,
    else ``earmark/earmark.conf`` in the user's configuration folder (``~/.config`` on Linux)."""

    def __init__(self, path: Path | None = None) -> None:
        configured = path or (Path(os.environ[CONFIG_ENV]) if os.environ.get(CONFIG_ENV) else None)
        if configured is not None:
            self._qsettings = QSettings(str(configured), QSettings.Format.IniFormat)
        else:
            self._qsettings = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "earmark", "earmark")

    @property
    def path(self) -> Path:
        """The file the settings live in."""
        return Path(self._qsettings.fileName())

    def value(self, key: str) -> object:
        """A desktop setting's value (its default when unset or unreadable)."""
        setting = _desktop(key)
        raw = self._qsettings.value(_qkey(key))
        if raw is None:
            return setting.default
        if setting.type is bytes:
            return bytes(raw.data()) if isinstance(raw, QByteArray) else setting.default
        if setting.type in (list, dict):
            try:
                return setting.coerce(json.loads(str(raw)))
            except ValueError:
                return setting.default
        return setting.coerce(raw)

    def set_value(self, key: str, value: object) -> None:
        """Store a desktop setting (written to disk at once)."""
        setting = _desktop(key)
        if setting.type is bytes:
            stored: object = QByteArray(value if isinstance(value, bytes) else b"")
        elif setting.type in (list, dict):
            stored = json.dumps(setting.coerce(value))
        else:
            stored = setting.coerce(value)
        self._qsettings.setValue(_qkey(key), stored)
        self._qsettings.sync()


def _desktop(key: str) -> Setting:
    setting = SETTINGS[key]
    if setting.store != "desktop":
        raise KeyError(f"{key} is stored in the library, not on the desktop")
    return setting


def _qkey(key: str) -> str:
    return key.replace(".", "/")


def chosen_library_path(desktop: DesktopSettings | None = None) -> Path:
    """The library the window opens when none is given: $EARMARK_LIBRARY, else the ``library.path`` setting,
    else the default."""
    if os.environ.get(LIBRARY_ENV):
        return default_library_path()
    chosen = str((desktop or DesktopSettings()).value("library.path"))
    return Path(chosen).expanduser() if chosen.strip() else default_library_path()


class Preferences(QObject):
    """Every setting of a running window, whichever its store.

    Signal: ``changed(str)`` with the key, once the new value is stored (library settings: once the writer
    has written it, so readers of the library see it).
    """

    changed = Signal(str)

    def __init__(self, db: Database, runner: TaskRunner, desktop: DesktopSettings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db = db
        self._runner = runner
        self.desktop = desktop

    def value(self, key: str) -> object:
        """The current value of any setting."""
        if SETTINGS[key].store == "desktop":
            return self.desktop.value(key)
        return get_setting(self._db, key)

    def set_value(self, key: str, value: object) -> None:
        """Store a setting if it changed, then emit ``changed(key)``."""
        setting = SETTINGS[key]
        value = setting.coerce(value)
        if value == self.value(key):
            return
        if setting.store == "desktop":
            self.desktop.set_value(key, value)
            self.changed.emit(key)
            return
        self._runner.write(store_setting, key, value, on_done=lambda _changes: self.changed.emit(key))
