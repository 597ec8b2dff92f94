"""Skip Silence and Voice Boost in the player bar read as switches with their state, off as well as on: check
boxes (a screen reader says "check box, not checked"), turned on by a click or their keys."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QPalette
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import press, wait_rows


def ink(widget: QWidget) -> int:
    """How many pixels of ``widget`` as drawn differ from its background."""
    image = widget.grab().toImage()
    background = widget.palette().color(QPalette.ColorRole.Window)
    return sum(1 for x in range(image.width()) for y in range(image.height())
               if max(abs(image.pixelColor(x, y).red() - background.red()),
                      abs(image.pixelColor(x, y).green() - background.green()),
                      abs(image.pixelColor(x, y).blue() - background.blue())) > 40)


def looks_like_more_than_its_name(toggle: QAbstractButton) -> bool:
    """An off toggle draws something besides its name (a box to tick): it is not a bare label."""
    label = QLabel(toggle.text(), toggle.parentWidget())
    label.setFont(toggle.font())
    label.resize(label.sizeHint())
    try:
        return ink(toggle) > ink(label) + 20
    finally:
        label.deleteLater()


def reads_as(button: QAbstractButton) -> tuple[QAccessible.Role, bool, bool]:
    """What a screen reader is told: the role, and whether it can be checked and is."""
    face = QAccessible.queryAccessibleInterface(button)
    state = face.state()
    return face.role(), state.checkable, state.checked


def test_skip_silence_and_voice_boost_read_as_switches_off_and_on(qtbot: QtBot, launch: Launch,
                                                                  sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    bar = window.player_bar
    boost = bar.findChild(QAbstractButton, "toggle_voice_boost")
    silence = bar.findChild(QAbstractButton, "toggle_skip_silence")
    for toggle, name in ((boost, "Voice Boost"), (silence, "Skip Silence")):
        assert toggle.isVisible() and toggle.text() == name
        assert reads_as(toggle) == (QAccessible.Role.CheckBox, True, False)  # off, and saying so
        assert looks_like_more_than_its_name(toggle)
    qtbot.mouseClick(boost, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.menu_actions.voice_boost.isChecked())
    assert reads_as(boost) == (QAccessible.Role.CheckBox, True, True)
    press(qtbot, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not boost.isChecked())
    assert not window.menu_actions.voice_boost.isChecked()
    press(qtbot, Qt.Key.Key_X, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(silence.isChecked)
    assert reads_as(silence) == (QAccessible.Role.CheckBox, True, True)
