"""A layout a person can arrange: the panes beside the item are docks that close (their X), come back from the
View menu's shortcuts, stay as they were left across a restart, and go back with View ▸ Reset Layout; at
1280×800 each is large enough to read. The player bar shows the controls people expect to click."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QCheckBox, QDockWidget, QLabel, QMainWindow, QSlider, QToolButton
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import press, wait_rows

CTRL_ALT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
PANES = ("details", "notes", "transcript", "related", "queue")


def dock(window: QMainWindow, name: str) -> QDockWidget:
    found = window.findChild(QDockWidget, f"{name}Dock")
    assert found is not None
    return found


def close_by_its_x(qtbot: QtBot, pane: QDockWidget) -> None:
    button = pane.findChild(QAbstractButton, "qt_dockwidget_closebutton")
    assert button is not None and button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_closed_pane_stays_closed_after_a_restart_and_the_view_menu_brings_it_back(
        qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    close_by_its_x(qtbot, dock(window, "queue"))
    assert not dock(window, "queue").isVisible()
    press(qtbot, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)

    again = launch().window
    wait_rows(qtbot, again, SAMPLE_ITEMS)
    assert not dock(again, "queue").isVisible() and dock(again, "details").isVisible()
    press(qtbot, Qt.Key.Key_5, CTRL_ALT)  # View ▸ Up Next
    qtbot.waitUntil(lambda: dock(again, "queue").isVisible())
    view = next(menu for menu in again.menuBar().actions() if menu.text() == "&View").menu()
    shown = {action.text().replace("&", ""): action.shortcut().toString() for action in view.actions()}
    assert shown == {"Details": "Ctrl+Alt+1", "Notes": "Ctrl+Alt+3", "Transcript": "Ctrl+Alt+4",
                     "Related": "Ctrl+Alt+2", "Up Next": "Ctrl+Alt+5", "Reset Layout": "Ctrl+Alt+0"}


def test_reset_layout_brings_every_pane_back_where_it_started(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    started = {name: window.dockWidgetArea(dock(window, name)) for name in PANES}
    for name in ("details", "related"):
        close_by_its_x(qtbot, dock(window, name))
    press(qtbot, Qt.Key.Key_0, CTRL_ALT)
    qtbot.waitUntil(lambda: all(not dock(window, name).isHidden() for name in PANES))
    assert {name: window.dockWidgetArea(dock(window, name)) for name in PANES} == started
    assert window.tabifiedDockWidgets(dock(window, "notes")) == [dock(window, "transcript"), dock(window, "related")]


def test_at_1280_by_800_every_pane_has_room_to_read(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    window.resize(1280, 800)
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    qtbot.waitUntil(lambda: dock(window, "details").width() >= 340)
    for name in ("details", "notes", "queue"):
        assert dock(window, name).height() >= 150, (name, dock(window, name).height())
    assert window.navigator.stack.width() >= 600  # the list keeps its columns
    assert window.width() <= 1280


def test_the_player_bar_has_what_people_click(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    bar = window.player_bar
    named = {button.accessibleName(): button.toolTip() for button in bar.findChildren(QToolButton)
             if button.isVisible()}
    assert named["Back 10 Seconds"].startswith("Back 10 Seconds (")
    assert named["Forward 10 Seconds"].startswith("Forward 10 Seconds (")
    assert named["Next in Up Next"].startswith("Next in Up Next (")
    assert "Play or pause" in named
    volume = bar.findChild(QSlider, "playerVolumeSlider")
    assert volume.isVisible() and volume.accessibleName() == "Volume" and volume.value() == 100
    qtbot.mouseClick(volume, Qt.MouseButton.LeftButton, pos=volume.rect().center())  # a click pages down
    assert window.session.player.volume() < 100
    assert bar.findChild(QLabel, "playerVolume").text() == f"Vol {window.session.player.volume()}%"

    boost = bar.findChild(QCheckBox, "toggle_voice_boost")  # the voice boost's state: checked while on
    assert boost.isVisible() and not boost.isChecked() and boost.accessibleName() == "Voice Boost"
    press(qtbot, Qt.Key.Key_V, CTRL_SHIFT)
    qtbot.waitUntil(boost.isChecked)
    press(qtbot, Qt.Key.Key_V, CTRL_SHIFT)
    qtbot.waitUntil(lambda: not boost.isChecked())
