"""The settings registry: types, bounds, choices, where each setting is stored, and how the dialog names it."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.settings import SETTINGS, Setting, get_setting, library_settings, set_setting


def test_values_are_kept_within_bounds_and_choices() -> None:
    speed = SETTINGS["playback.speed"]
    assert speed.coerce("2.5") == 2.5
    assert speed.coerce(9) == 4.0 and speed.coerce(0.1) == 0.5
    assert speed.coerce("fast") == speed.default
    interval = SETTINGS["feeds.refresh_interval"]
    assert interval.coerce(30.4) == 30 and isinstance(interval.coerce(30.4), int)
    assert interval.coerce(-5) == 0
    assert SETTINGS["feeds.refresh_on_start"].coerce("false") is False
    assert SETTINGS["feeds.refresh_on_start"].coerce("true") is True
    theme = SETTINGS["appearance.theme"]
    assert theme.coerce("dark") == "dark" and theme.coerce("purple") == "system"


def test_library_settings_are_stored_in_the_library_and_desktop_ones_are_refused(library_path: Path) -> None:
    db = open_library(library_path)
    set_setting(db, "playback.skip_back", 700)  # beyond its maximum
    assert get_setting(db, "playback.skip_back") == 600.0
    db.execute("INSERT OR REPLACE INTO settings VALUES ('feeds.refresh_interval', '\"often\"')")
    assert get_setting(db, "feeds.refresh_interval") == 60
    with pytest.raises(KeyError):
        set_setting(db, "appearance.theme", "dark")
    with pytest.raises(KeyError):
        get_setting(db, "library.path")
    assert all(s.store == "library" for s in library_settings())


def test_titles_groups_and_editors_come_from_the_declaration() -> None:
    plain = Setting("downloads.keep_days", int, 7, "Days to keep played downloads.")
    assert (plain.title, plain.group, plain.editable, plain.path_kind) == ("Keep days", "downloads", True, "")
    folder = Setting("downloads.folder", str, "", "Where episodes are downloaded.")
    assert folder.path_kind == "folder"
    assert SETTINGS["library.path"].path_kind == "path"
    assert not SETTINGS["list.sorts"].editable and not SETTINGS["window.view"].editable
    assert SETTINGS["feeds.refresh_interval"].title == "Refresh every"


def test_every_setting_has_a_store_and_a_sentence() -> None:
    for setting in SETTINGS.values():
        assert setting.store in ("library", "desktop")
        assert setting.description.endswith((".", ")")), setting.key
        assert setting.coerce(setting.default) == setting.default, setting.key
