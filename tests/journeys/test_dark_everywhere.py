"""Choosing the dark theme in Settings while the window shows: every part a person then looks at is dark, and
what is drawn on it readable: the reader's page (without D), the player's buttons' icons, the graph's legend
and the ? shortcuts panel (issue 37, finding 8), the edges of empty check boxes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QCheckBox, QStyle, QStyleOptionButton, QWidget
from pytestqt.qtbot import QtBot

from earmark.gui.theme import contrast, is_dark
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, item_list, listed_titles, press, wait_rows, wait_showing

ARTICLE = "PyTorch Shanghai Meetup Notes"


def colour_at(widget: QWidget, x: int, y: int) -> QColor:
    """The colour a person sees at (x, y) of ``widget`` (negative: from the right or bottom edge)."""
    image = widget.grab().toImage()
    return image.pixelColor(x % image.width(), y % image.height())


def ink(image: QImage) -> QColor:
    """The mean colour of an icon's drawn (opaque) pixels."""
    drawn = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())
             if image.pixelColor(x, y).alpha() > 200]
    assert drawn, "the icon draws nothing"
    return QColor(*(sum(getattr(c, part)() for c in drawn) // len(drawn) for part in ("red", "green", "blue")))


def edge_contrast(box: QCheckBox) -> float:
    """How much an empty check box's edge stands out from what is painted around it, in the pixels of its window:
    the strongest of the first columns of its box at mid-height, against the pixel left of the box."""
    option = QStyleOptionButton()
    box.initStyleOption(option)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    top = box.window()
    image = top.grab().toImage()
    at = box.mapTo(top, indicator.topLeft())
    y = at.y() + indicator.height() // 2
    around = image.pixelColor(at.x() - 3, y)
    return max(contrast(image.pixelColor(at.x() + dx, y), around) for dx in range(3))


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_empty_check_boxes_stand_out(qtbot: QtBot, launch: Launch, theme: str) -> None:
    """The player bar's Skip Silence and Voice Boost, and the settings' check boxes (the light theme's were faint
    too)."""
    window = launch().window
    window.menu_actions.show_settings.trigger()
    qtbot.waitUntil(lambda: window.desktop.settings_dialog is not None and window.desktop.settings_dialog.isVisible())
    dialog = window.desktop.settings_dialog
    dialog.editors["appearance.theme"].set_value(theme)
    dialog.accept()
    qtbot.waitUntil(lambda: is_dark() == (theme == "dark"))
    boxes = [window.findChild(QCheckBox, f"toggle_{name}") for name in ("skip_silence", "voice_boost")]
    assert [box.text() for box in boxes] == ["Skip Silence", "Voice Boost"] and not any(b.isChecked() for b in boxes)
    window.menu_actions.show_settings.trigger()  # the settings' own check boxes, in the theme chosen
    qtbot.waitUntil(lambda: window.desktop.settings_dialog.isVisible())
    shown = [box for box in window.desktop.settings_dialog.findChildren(QCheckBox) if box.isVisible()]
    assert shown, "the settings show no check box"
    for box in [*boxes, next(b for b in shown if not b.isChecked())]:
        assert edge_contrast(box) >= 3, f"{box.text()}: its edge {edge_contrast(box):.2f}:1"
    window.desktop.settings_dialog.reject()


def test_a_dark_theme_chosen_while_the_window_shows_reaches_every_part(
        qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    assert not is_dark()
    window.menu_actions.show_settings.trigger()
    qtbot.waitUntil(lambda: window.desktop.settings_dialog is not None and window.desktop.settings_dialog.isVisible())
    dialog = window.desktop.settings_dialog
    dialog.editors["appearance.theme"].set_value("dark")
    dialog.accept()
    qtbot.waitUntil(is_dark)
    button_colour = QApplication.palette().color(QPalette.ColorRole.Button)

    for button in (window.player_bar.play_button, *window.player_bar.buttons.values()):
        drawn = ink(button.icon().pixmap(16).toImage())
        assert contrast(drawn, button_colour) >= 3, f"{button.accessibleName()}: icon {drawn.name()} on " \
                                                    f"{button_colour.name()}"

    press(qtbot, Qt.Key.Key_Question)
    sheet = window.help.cheat_sheet
    qtbot.waitUntil(sheet.isVisible)
    assert colour_at(sheet.panel, -12, 12).lightness() < 80, "the ? panel stays light"
    press(qtbot, Qt.Key.Key_Escape)  # any key closes it
    qtbot.waitUntil(lambda: not sheet.isVisible())

    click_row(qtbot, item_list(window), listed_titles(window).index(ARTICLE))
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    reader = window.reading.reader
    qtbot.waitUntil(lambda: reader.document_shown is not None)
    assert colour_at(reader.viewport(), 4, 4).lightness() < 80, "the reader's page stays bright"
    window.activateWindow()  # offscreen, the window is not made active again after the settings dialog
    qtbot.mouseClick(reader.viewport(), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(reader.hasFocus)
    press(qtbot, Qt.Key.Key_D)  # Dark Reader: nothing to change in the dark theme, and the window says so
    qtbot.waitUntil(lambda: "page stays dark" in window.statusBar().currentMessage())
    assert colour_at(reader.viewport(), 4, 4).lightness() < 80

    window.menu_actions.show_graph.trigger()  # Graph ▸ Topic Graph
    wait_showing(qtbot, window, "graph")
    legend = window.graph.panel.view.legend
    qtbot.waitUntil(legend.isVisible, timeout=30000)
    assert colour_at(legend, -4, -4).lightness() < 80, "the graph's legend is a white box"


def test_following_the_system_the_desktop_turning_dark_reaches_the_reader_and_the_panel(
        qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window  # the theme is "system", the default
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), listed_titles(window).index(ARTICLE))
    press(qtbot, Qt.Key.Key_Return)
    wait_showing(qtbot, window, "reader")
    reader = window.reading.reader
    qtbot.waitUntil(lambda: reader.document_shown is not None)
    assert colour_at(reader.viewport(), 4, 4).lightness() > 200
    hints = QApplication.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # what the desktop says when it turns dark
    try:
        qtbot.waitUntil(is_dark)
        qtbot.waitUntil(lambda: colour_at(reader.viewport(), 4, 4).lightness() < 80)
        press(qtbot, Qt.Key.Key_Question)
        sheet = window.help.cheat_sheet
        qtbot.waitUntil(sheet.isVisible)
        assert colour_at(sheet.panel, -12, 12).lightness() < 80
    finally:
        hints.colorSchemeChanged.emit(hints.colorScheme())  # the desktop as it was, for the tests after this one
