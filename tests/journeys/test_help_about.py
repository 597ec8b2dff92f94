"""Help for a person a week in (issue 37, 14): Help ▸ About Earmark says the version, the licence, where the library
and the log are, and links the user guide (Help ▸ User Guide opens it too); the command palette (Ctrl+K) with no
matching command ("theme") says "No command matches" and offers the settings that match, Enter opening Settings
on that setting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QTreeView
from pytestqt.qtbot import QtBot

from earmark import __version__
from earmark.core.logs import log_path
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import focused, press, type_text, wait_rows

CTRL = Qt.KeyboardModifier.ControlModifier


class Opened(QObject):
    """Takes the links the app asks the desktop to open (a browser, a file manager), as they would."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


@pytest.fixture
def opened() -> Iterator[Opened]:
    catcher = Opened()
    for scheme in ("file", "https"):
        QDesktopServices.setUrlHandler(scheme, catcher, "open")
    yield catcher
    for scheme in ("file", "https"):
        QDesktopServices.unsetUrlHandler(scheme)


def palette_command(qtbot: QtBot, words: str) -> QDialog:
    """Ctrl+K and ``words`` typed into the command palette; the palette."""
    press(qtbot, Qt.Key.Key_K, CTRL)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QDialog))
    palette = QApplication.activeModalWidget()
    palette.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None and focused().window() is palette)
    type_text(qtbot, words)
    return palette


def shown_rows(palette: QDialog) -> list[str]:
    rows = palette.findChild(QTreeView, "paletteList")
    return [rows.model().index(row, 0).data() for row in range(rows.model().rowCount())]


def test_about_says_what_and_where_and_links_the_guide(qtbot: QtBot, launch: Launch, sample: None,
                                                      library_path: Path, opened: Opened) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    palette_command(qtbot, "about")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: (dialog := QApplication.activeModalWidget()) is not None
                    and dialog.objectName() == "aboutDialog")
    about = QApplication.activeModalWidget()
    text = about.findChild(QLabel, "aboutText")
    shown = QLabel(text.text()).text()
    for words in (f"Earmark {__version__}", "GPL-3.0-or-later", str(library_path), str(log_path()),
                  "The user guide"):
        assert words in shown, words
    assert "user-guide.md" in text.text()  # the guide's link
    about.activateWindow()
    qtbot.waitUntil(about.isActiveWindow)
    press(qtbot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not about.isVisible())

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    palette_command(qtbot, "user guide")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(opened.urls))
    assert opened.urls[-1].toString().endswith("docs/user-guide.md")


def test_no_matching_command_offers_the_matching_settings(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    palette = palette_command(qtbot, "theme")
    qtbot.waitUntil(lambda: bool(shown_rows(palette)))
    rows = shown_rows(palette)
    assert rows[0] == "No command matches “theme”. Settings that match:"  # the list was empty
    assert rows[1] == "Settings: Appearance ▸ Theme"
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.desktop.settings_dialog is not None
                    and window.desktop.settings_dialog.isVisible())
    settings = window.desktop.settings_dialog
    assert settings.sections.currentItem().text() == "Appearance"
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None
                    and QApplication.focusWidget().accessibleName() == "Theme")
    settings.reject()

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    palette = palette_command(qtbot, "xqzv")
    qtbot.waitUntil(lambda: bool(shown_rows(palette)))
    assert shown_rows(palette) == ["No command matches “xqzv”."]
    press(qtbot, Qt.Key.Key_Return)  # nothing to run: the palette closes, nothing else happens
    qtbot.waitUntil(lambda: not palette.isVisible())
