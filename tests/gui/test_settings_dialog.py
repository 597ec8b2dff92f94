"""The settings dialog (Ctrl+,): built from the registry, driven from the keyboard, applied at once, kept
across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.settings import SETTINGS, Setting, get_setting, set_setting
from earmark.gui.dialogs.settings_dialog import SettingsDialog, pages
from earmark.gui.preferences import DesktopSettings
from earmark.gui.theme import is_dark
from helpers.gui import Launch


@pytest.fixture
def quiet_library(library_path: Path) -> None:
    set_setting(open_library(library_path), "feeds.refresh_on_start", False)


def open_dialog(qtbot: QtBot, launch: Launch) -> tuple[object, SettingsDialog]:
    window = launch().window
    qtbot.keyClick(window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.desktop.settings_dialog is not None
                    and window.desktop.settings_dialog.isVisible())
    dialog = window.desktop.settings_dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isActiveWindow)  # keys go to the dialog, not to the window's shortcuts
    return window, dialog


def test_every_editable_setting_has_an_editor_of_its_type(qtbot: QtBot, launch: Launch,
                                                          quiet_library: None) -> None:
    _window, dialog = open_dialog(qtbot, launch)
    titles = [dialog.sections.item(i).text() for i in range(dialog.sections.count())]
    assert titles == ["Playback", "Downloads", "Transcripts", "Feeds", "Directories", "Sync", "Reader", "Library",
                      "Passwords", "Backups", "Appearance", "Ask"]
    assert set(dialog.editors) == {key for key, s in SETTINGS.items() if s.editable}
    kinds = {key: type(editor.field) for key, editor in dialog.editors.items()}
    assert kinds["feeds.refresh_on_start"] is QCheckBox
    assert kinds["feeds.refresh_interval"] is QSpinBox
    assert kinds["playback.speed"] is QDoubleSpinBox
    assert kinds["appearance.theme"] is QComboBox
    assert kinds["library.path"] is QLineEdit and dialog.editors["library.path"].choose_button is not None
    assert dialog.editors["downloads.folder"].setting.path_kind == "folder"
    assert dialog.editors["downloads.folder"].choose_button is not None
    assert "keyboard.shortcuts" not in dialog.editors  # edited in its own dialog
    interval = dialog.editors["feeds.refresh_interval"].field
    assert isinstance(interval, QSpinBox)
    assert (interval.minimum(), interval.specialValueText(), interval.value()) == (0, "Never", 60)


def test_a_setting_added_to_the_registry_appears_by_itself(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch,
                                                           launch: Launch, quiet_library: None) -> None:
    window = launch().window
    added = {
        "mirror.folder": Setting("mirror.folder", str, "", "Where the library is mirrored."),
        "mirror.every_days": Setting("mirror.every_days", int, 0, "Mirror the library every this many days (0: never).",
                                   minimum=0, maximum=365, minimum_text="Never"),
    }
    for key, setting in added.items():
        monkeypatch.setitem(SETTINGS, key, setting)
    assert [title for title, _settings in pages()][-1] == "Mirror"  # a new group makes a new page
    dialog = SettingsDialog(window.preferences, window)
    qtbot.addWidget(dialog)
    assert dialog.editors["mirror.folder"].choose_button is not None
    every = dialog.editors["mirror.every_days"].field
    assert isinstance(every, QSpinBox) and every.specialValueText() == "Never"


def test_changes_apply_at_once_and_survive_a_restart(qtbot: QtBot, launch: Launch, library_path: Path,
                                                     desktop_config: Path, quiet_library: None) -> None:
    window, dialog = open_dialog(qtbot, launch)
    assert window.feeds.periodic.interval() == 60 * 60_000
    dialog.editors["feeds.refresh_interval"].set_value(15)
    dialog.editors["playback.speed"].set_value(1.5)
    dialog.editors["appearance.theme"].set_value("dark")
    dialog.editors["appearance.font_size"].set_value(14)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # OK
    qtbot.waitUntil(lambda: window.feeds.periodic.interval() == 15 * 60_000)
    qtbot.waitUntil(lambda: window.session.player.rate() == pytest.approx(1.5))
    assert is_dark() and QApplication.font().pointSize() == 14
    assert window.desktop.settings_dialog is None  # closed
    assert window.player_bar.speed.currentData() == 1.5

    window.close()
    assert get_setting(open_library(library_path), "feeds.refresh_interval") == 15
    assert DesktopSettings(desktop_config).value("appearance.theme") == "dark"
    again = launch().window
    assert again.feeds.periodic.interval() == 15 * 60_000
    assert is_dark() and QApplication.font().pointSize() == 14
    again.preferences.set_value("appearance.theme", "light")
    again.preferences.set_value("appearance.font_size", 0)
    assert not is_dark()


def test_zero_interval_stops_the_timer_and_cancel_forgets_edits(qtbot: QtBot, launch: Launch, library_path: Path,
                                                                quiet_library: None) -> None:
    window, dialog = open_dialog(qtbot, launch)
    dialog.editors["feeds.refresh_interval"].set_value(0)
    dialog.buttons.button(dialog.buttons.StandardButton.Apply).click()
    qtbot.waitUntil(lambda: not window.feeds.periodic.isActive())
    dialog.editors["playback.skip_back"].set_value(42)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert window.desktop.settings_dialog is None
    assert get_setting(open_library(library_path), "playback.skip_back") == 10.0


def test_the_dialog_works_from_the_keyboard(qtbot: QtBot, launch: Launch, library_path: Path,
                                            quiet_library: None) -> None:
    _window, dialog = open_dialog(qtbot, launch)
    first = dialog.editors["playback.skip_back"].field
    first.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is first)
    qtbot.keyClick(first, Qt.Key.Key_Up)  # one step more
    seen = []
    for _ in range(6):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
    assert dialog.editors["playback.skip_forward"].field in seen
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)  # next page
    assert dialog.sections.currentRow() == dialog.pages.currentIndex() == 1
    interval = dialog.editors["feeds.refresh_interval"].field
    interval.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is interval)
    qtbot.keyClick(interval, Qt.Key.Key_Return)  # Enter is OK
    qtbot.waitUntil(lambda: get_setting(open_library(library_path), "playback.skip_back") == 11.0)


def test_restore_defaults_resets_the_page_shown(qtbot: QtBot, launch: Launch, quiet_library: None) -> None:
    _window, dialog = open_dialog(qtbot, launch)
    dialog.editors["playback.skip_back"].set_value(3)
    dialog.editors["feeds.refresh_interval"].set_value(5)
    dialog.buttons.button(dialog.buttons.StandardButton.RestoreDefaults).click()
    assert dialog.editors["playback.skip_back"].value() == 10.0
    assert dialog.editors["feeds.refresh_interval"].value() == 5  # another page


def test_reader_settings_apply_to_the_reader_at_once(qtbot: QtBot, launch: Launch, library_path: Path,
                                                     quiet_library: None) -> None:
    window = launch().window
    assert not window.menu_actions.dark_reader.isChecked()
    window.preferences.set_value("reader.dark", True)
    window.preferences.set_value("reader.font_size", 20)
    qtbot.waitUntil(window.menu_actions.dark_reader.isChecked)
    qtbot.waitUntil(lambda: get_setting(open_library(library_path), "reader.font_size") == 20)
