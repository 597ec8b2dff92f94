"""Keyboard only, the focus always visible: wherever Tab takes the keyboard (the list, the details text, an empty
Up next, the player bar, the welcome screen's buttons, the graph canvas) the window as drawn shows a frame round
that widget, in the light and the dark theme (issue 17)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.exceptions import TimeoutError
from pytestqt.qtbot import QtBot

from earmark.gui.preferences import DesktopSettings
from earmark.gui.theme import ACCENTS, Appearance
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import focused, press, wait_rows, wait_showing
from helpers.keyboard import focused_pane, shows_focus_frame

THEMES = ["light", "dark"]


@pytest.fixture
def themed(desktop_config: Path) -> Iterator[Callable[[str], QColor]]:
    """Start the window in a theme (the desktop setting a person picks in Settings); the application's look is
    put back afterwards for the next tests."""

    def choose(theme: str) -> QColor:
        DesktopSettings(desktop_config).set_value("appearance.theme", theme)
        return QColor(ACCENTS[theme].focus)

    yield choose
    app = QApplication.instance()
    if isinstance(app, QApplication):
        Appearance.of(app).apply("system", 0)


def see_frame(qtbot: QtBot, colour: QColor) -> None:
    """The window shows a frame round the widget with the keyboard (at once, or within a second)."""
    try:
        qtbot.waitUntil(lambda: shows_focus_frame(focused(), colour), timeout=1000)
    except TimeoutError:
        raise AssertionError(f"no frame round {focused_pane()}: {focused()!r}") from None


@pytest.mark.parametrize("theme", THEMES)
def test_every_tab_stop_shows_where_the_keyboard_is(qtbot: QtBot, launch: Launch, sample: None,
                                                    themed: Callable[[str], QColor], theme: str) -> None:
    colour = themed(theme)
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    seen = []
    for _stop in range(14):
        see_frame(qtbot, colour)
        seen.append(focused_pane())
        press(qtbot, Qt.Key.Key_Tab)
    assert {"list", "details", "related", "notes", "up next", "player", "sidebar", "search"} <= set(seen)


@pytest.mark.parametrize("theme", THEMES)
def test_the_welcome_screen_and_the_graph_show_the_focus(qtbot: QtBot, launch: Launch,
                                                         themed: Callable[[str], QColor], theme: str) -> None:
    colour = themed(theme)
    window = launch().window
    wait_showing(qtbot, window, "welcome")
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QPushButton))
    for _stop in range(7):  # the three buttons, then on into the panes beside
        see_frame(qtbot, colour)
        press(qtbot, Qt.Key.Key_Tab)
    press(qtbot, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    wait_showing(qtbot, window, "graph")
    press(qtbot, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # the keyboard to the view shown: the canvas
    assert focused().objectName() == "graphView"
    see_frame(qtbot, colour)
