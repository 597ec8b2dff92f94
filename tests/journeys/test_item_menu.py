"""The list's context menu: what applies to the selected items, opened as people open one (the right mouse button,
the Menu key, Shift+F10) and chosen with a click or the entry's letter."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from earmark.gui.views.tag_editor import TagEditor
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, press, showing, visible_dialog, wait_rows


def open_menu(qtbot: QtBot) -> QMenu:
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu), timeout=2000)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    return menu


def entries(menu: QMenu) -> list[str]:
    return [action.text().replace("&", "") for action in menu.actions() if not action.isSeparator()]


def test_a_right_click_offers_what_applies_to_the_item(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    table = window.item_list
    episode = next(row for row in range(SAMPLE_ITEMS) if window.items_model.item_at(row).kind == "episode")
    title = window.items_model.item_at(episode).title
    where = table.viewport().mapTo(window, table.visualRect(table.model().index(episode, 0)).center())
    # through the window, as the system delivers a click: Qt makes the context menu event of it
    QTest.mouseClick(window.windowHandle(), Qt.MouseButton.RightButton, pos=where)
    menu = open_menu(qtbot)
    assert entries(menu)[:3] == ["Play Selected", "Play Next", "Add to Up Next"]
    assert {"Mark Played", "Download", "Edit Tags…", "Favourite"} <= set(entries(menu))
    assert "Archive/Unarchive" not in entries(menu)  # an article's: this is an episode
    [add] = [action for action in menu.actions() if action.text().replace("&", "") == "Add to Up Next"]
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(add).center())
    qtbot.waitUntil(lambda: window.queue.model.rowCount() == 1, timeout=3000)
    assert window.queue.model.data(window.queue.model.index(0)) .startswith(title)


def test_the_menu_key_and_shift_f10_open_it_and_a_letter_chooses(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    click_row(qtbot, window.item_list, 1)
    # The Menu key: X's keyboard plugin turns it into this event for the focused widget (offscreen has no plugin
    # that does; the real window on X was walked with it).
    menu_key = QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0), QPoint(0, 0))
    QApplication.sendEvent(window.item_list, menu_key)
    menu = open_menu(qtbot)
    row = window.item_list.visualRect(window.item_list.currentIndex())
    assert abs(menu.pos().y() - window.item_list.viewport().mapToGlobal(row.bottomLeft()).y()) < 5  # at the row
    qtbot.keyClick(menu, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None, timeout=2000)
    press(qtbot, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menu = open_menu(qtbot)
    qtbot.keyClick(menu, Qt.Key.Key_T)  # Edit Tags…
    qtbot.waitUntil(lambda: visible_dialog(TagEditor) is not None, timeout=3000)
    editor = visible_dialog(TagEditor)
    assert isinstance(editor, TagEditor)
    editor.reject()


def test_an_articles_menu_opens_it_in_the_reader(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    table = window.item_list
    article = next(row for row in range(SAMPLE_ITEMS) if window.items_model.item_at(row).kind == "article")
    where = table.viewport().mapTo(window, table.visualRect(table.model().index(article, 0)).center())
    QTest.mouseClick(window.windowHandle(), Qt.MouseButton.RightButton, pos=where)
    menu = open_menu(qtbot)
    assert entries(menu) == ["Open in the Reader", "Mark Read/Unread", "Archive/Unarchive", "Edit Tags…", "Favourite"]
    qtbot.keyClick(menu, Qt.Key.Key_O)
    qtbot.waitUntil(lambda: showing(window) == "reader", timeout=5000)


def test_each_entry_has_a_letter_of_its_own(qtbot: QtBot, launch: Launch, sample: None) -> None:
    """With an episode and an article selected the menu has every entry; a letter runs one at once (two entries
    sharing P, Play Selected and Mark Played, made P only move between them)."""
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    table, model = window.item_list, window.items_model
    episode = next(row for row in range(SAMPLE_ITEMS) if model.item_at(row).kind == "episode"
                   and not model.item_at(row).played)
    article = next(row for row in range(SAMPLE_ITEMS) if model.item_at(row).kind == "article")
    click_row(qtbot, table, episode)
    index = table.model().index(article, 0)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     table.visualRect(index).center())
    assert len(table.selectionModel().selectedRows()) == 2
    press(qtbot, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menu = open_menu(qtbot)
    texts = [action.text() for action in menu.actions() if not action.isSeparator()]
    assert {"Mark Played", "Mark Read/Unread", "Archive/Unarchive"} <= set(entries(menu))
    letters = [text[text.index("&") + 1].lower() for text in texts]
    assert len(set(letters)) == len(letters), texts
    title = model.item_at(episode).title
    qtbot.keyClick(menu, Qt.Key.Key_K)  # Mar&k Played
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None, timeout=2000)
    qtbot.waitUntil(lambda: any(model.item_at(row).title == title and model.item_at(row).played
                                for row in range(model.rowCount())), timeout=3000)
