"""Switching to the dark theme from the settings dialog: the links of the item shown ("Open the page") take the
dark palette's link colour at once, not only once another item is shown."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, item_list, wait_rows


def link_colours(browser: object) -> set[str]:
    """The colours the anchors of a text browser's document are drawn in."""
    colours, block = set(), browser.document().begin()  # type: ignore[attr-defined]
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isAnchor():
                brush = fmt.foreground()
                colours.add(brush.color().name() if brush.style().value else "palette")
            it += 1
        block = block.next()
    return colours


def test_links_of_the_item_shown_take_the_dark_themes_colour(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, item_list(window), 3)
    details = window.detail
    qtbot.waitUntil(lambda: "Open the page" in details.toPlainText())
    window.menu_actions.show_settings.trigger()
    qtbot.waitUntil(lambda: window.desktop.settings_dialog is not None and window.desktop.settings_dialog.isVisible())
    dialog = window.desktop.settings_dialog
    dialog.editors["appearance.theme"].set_value("dark")
    dialog.accept()
    dark_link = QApplication.palette().color(QPalette.ColorRole.Link).name()
    qtbot.waitUntil(lambda: QColor(dark_link).lightness() > 128)  # the dark theme's links are light
    qtbot.waitUntil(lambda: link_colours(details) == {dark_link}, timeout=3000)
