"""Up Next from the keyboard, auto-advance and moving on after errors; the command palette, the cheat sheet
and customized shortcuts, in the real window with real VLC."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, QMimeData, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.queue import queue_ids
from earmark.core.settings import get_setting, set_setting
from earmark.gui.application import Parts
from earmark.gui.models.queue import MIME_TYPE
from earmark.playback.player import PlayerState
from helpers.gui import Launch

pytestmark = pytest.mark.vlc
Alt, Shift = Qt.KeyboardModifier.AltModifier, Qt.KeyboardModifier.ShiftModifier


def titles(parts: Parts) -> list[str]:
    model = parts.window.queue.model
    return [get_item(open_library(parts.runner.library_path), i).title for i in model.ids]


def queue_all(qtbot: QtBot, parts: Parts) -> None:
    """Queue the three test episodes (Newest, Middle, Short) with Q, one by one."""
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    for row in (0, 1, 2):
        # not selectRow(): it extends the selection when the last key event (Shift+N) left Shift "held"
        window.item_list.selectionModel().select(window.items_model.index(row, 0), flags)
        qtbot.keyClick(window.item_list, Qt.Key.Key_Q)
        qtbot.waitUntil(lambda r=row: window.queue.model.rowCount() == r + 1, timeout=3000)


def test_queue_keys_reorder_remove_and_persist(qtbot: QtBot, launch: Launch, with_podcast: None,
                                               library_path: Path) -> None:
    parts = launch()
    window = parts.window
    queue_all(qtbot, parts)
    assert titles(parts) == ["Newest episode", "Middle episode", "Short episode"]
    qtbot.keyClick(window, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)  # go to Up Next
    queue_list = window.queue_view.list
    assert QApplication.focusWidget() is queue_list
    queue_list.setCurrentIndex(window.queue.model.index(2))
    qtbot.keyClick(queue_list, Qt.Key.Key_Up, Alt)
    qtbot.waitUntil(lambda: titles(parts) == ["Newest episode", "Short episode", "Middle episode"], timeout=3000)
    qtbot.keyClick(queue_list, Qt.Key.Key_Up, Alt)
    qtbot.waitUntil(lambda: titles(parts)[0] == "Short episode", timeout=3000)
    assert queue_list.currentIndex().row() == 0  # the moved episode keeps the focus
    qtbot.keyClick(queue_list, Qt.Key.Key_Down, Alt)
    qtbot.waitUntil(lambda: titles(parts) == ["Newest episode", "Short episode", "Middle episode"], timeout=3000)
    queue_list.setCurrentIndex(window.queue.model.index(0))
    qtbot.keyClick(queue_list, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: titles(parts) == ["Short episode", "Middle episode"], timeout=3000)
    # drag and drop: the Middle episode dropped on the first row
    mime = QMimeData()
    middle = window.queue.model.ids[1]
    mime.setData(MIME_TYPE, str(middle).encode())
    assert window.queue.model.dropMimeData(mime, Qt.DropAction.MoveAction, 0, 0, window.queue.model.index(-1))
    qtbot.waitUntil(lambda: titles(parts) == ["Middle episode", "Short episode"], timeout=3000)
    window.close()
    assert [get_item(open_library(library_path), i).title for i in queue_ids(open_library(library_path))] == [
        "Middle episode", "Short episode"]
    again = launch()
    qtbot.waitUntil(lambda: titles(again) == ["Middle episode", "Short episode"], timeout=3000)


def test_next_previous_and_auto_advance_through_the_queue(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                          library_path: Path) -> None:
    parts = launch()
    window, session = parts.window, parts.session
    queue_all(qtbot, parts)
    window.item_list.selectRow(2)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)  # the Short episode (2 s), last in the queue
    qtbot.waitUntil(lambda: session.player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_P, Shift)
    qtbot.waitUntil(lambda: session.item is not None and session.item.title == "Middle episode", timeout=5000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_N, Shift)
    qtbot.waitUntil(lambda: session.item is not None and session.item.title == "Short episode", timeout=5000)
    qtbot.waitUntil(lambda: session.player.state == PlayerState.PLAYING, timeout=8000)
    # the Short episode ends: it leaves the queue, and nothing follows it
    qtbot.waitUntil(lambda: titles(parts) == ["Newest episode", "Middle episode"], timeout=8000)
    assert session.item is not None and session.item.title == "Short episode"
    window.queue.step(1)  # not queued any more: the first of the queue plays
    qtbot.waitUntil(lambda: session.item is not None and session.item.title == "Newest episode", timeout=5000)
    session.player.seek(5.0)  # one second before the end of the 6 s episode: the next one follows
    qtbot.waitUntil(lambda: session.item is not None and session.item.title == "Middle episode", timeout=8000)
    qtbot.waitUntil(lambda: session.player.state == PlayerState.PLAYING, timeout=8000)
    assert titles(parts) == ["Middle episode"]
    newest = next(i for i in list_items(open_library(library_path), ItemFilter()) if i.title == "Newest episode")
    assert newest.played


def test_queue_moves_on_after_an_error_when_asked(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                  library_path: Path) -> None:
    db = open_library(library_path)
    set_setting(db, "playback.skip_on_error", True)
    broken = next(i for i in list_items(db, ItemFilter()) if i.title == "Newest episode")
    assert broken.enclosure_url is not None
    Path(broken.enclosure_url.removeprefix("file://")).unlink()
    parts = launch()
    window, session = parts.window, parts.session
    queue_all(qtbot, parts)
    window.item_list.selectRow(0)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "missing" in window.player_bar.message.text(), timeout=5000)
    qtbot.waitUntil(lambda: session.item is not None and session.item.title == "Middle episode", timeout=5000)
    qtbot.waitUntil(lambda: session.player.state == PlayerState.PLAYING, timeout=8000)
    for box in QApplication.topLevelWidgets():
        if box.objectName() == "errorDialog":
            box.close()


def test_command_palette_finds_every_action_fuzzily_and_runs_it(qtbot: QtBot, launch: Launch,
                                                               with_podcast: None) -> None:
    parts = launch()
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = window.help.palette
    assert palette is not None and palette.isVisible()
    assert len(palette.rows()) == len(window.menu_actions.all)
    assert "Playback: Play/Pause\tSpace, K" in palette.rows()
    qtbot.keyClicks(palette.search, "addupnx")
    assert palette.rows()[0].startswith("Up Next: Add to Up Next\tQ")
    qtbot.keyClick(palette.search, Qt.Key.Key_Return)
    assert not palette.isVisible()
    qtbot.waitUntil(lambda: window.queue.model.rowCount() == 1, timeout=3000)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = window.help.palette
    assert palette is not None
    qtbot.keyClicks(palette.search, "zzzz")
    assert palette.rows() == ["No command matches “addupnxzzzz”."]  # what was typed before too; no setting
    qtbot.keyClick(palette.search, Qt.Key.Key_Escape)
    assert not palette.isVisible()


def test_command_palette_forgives_a_slip_of_the_finger(qtbot: QtBot, launch: Launch, with_podcast: None) -> None:
    window = launch().window
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = window.help.palette
    assert palette is not None
    qtbot.keyClicks(palette.search, "chapter next")  # the words the other way round
    assert palette.rows()[0].startswith("Playback: Next Chapter")
    palette.search.clear()
    qtbot.keyClicks(palette.search, "subscriptoins")  # two letters swapped
    assert palette.rows()[0].startswith("Feeds: Subscriptions")
    qtbot.keyClick(palette.search, Qt.Key.Key_Escape)


def test_cheat_sheet_opens_on_question_mark_and_f1(qtbot: QtBot, launch: Launch, with_podcast: None) -> None:
    window = launch().window
    sheet = window.help.cheat_sheet
    qtbot.keyClick(window.item_list, Qt.Key.Key_Question)
    assert sheet.isVisible() and sheet.geometry() == window.rect()
    text = sheet.text.text()
    for action in window.menu_actions.all.values():
        for shortcut in action.shortcuts():
            assert shortcut.toString().replace("&", "&amp;").replace("<", "&lt;") in text
    qtbot.keyClick(sheet, Qt.Key.Key_Space)  # any key closes it, and does nothing else
    assert not sheet.isVisible()
    assert window.session.player.state == PlayerState.STOPPED
    qtbot.keyClick(window.item_list, Qt.Key.Key_F1)
    assert sheet.isVisible()
    qtbot.keyClick(sheet, Qt.Key.Key_Escape)
    assert not sheet.isVisible()


def test_a_cheat_sheet_taller_than_the_window_scrolls_by_keys(qtbot: QtBot, launch: Launch,
                                                               with_podcast: None) -> None:
    """In a window too short for the sheet (520 px: too short with any font) the arrows and Page keys scroll it
    (they closed it, and the keys below the window's edge could not be read without a mouse wheel)."""
    window = launch().window
    window.resize(1280, 520)
    sheet = window.help.cheat_sheet
    qtbot.keyClick(window.item_list, Qt.Key.Key_F1)
    assert sheet.isVisible()
    bar = sheet.area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    qtbot.keyClick(sheet, Qt.Key.Key_Down)
    assert sheet.isVisible() and bar.value() > 0
    qtbot.keyClick(sheet, Qt.Key.Key_End)
    assert bar.value() == bar.maximum()
    last = sheet.text.mapTo(sheet, sheet.text.rect().bottomLeft()).y()
    assert last <= sheet.height()  # the foot of the last column is in sight
    qtbot.keyClick(sheet, Qt.Key.Key_Up)
    assert bar.value() < bar.maximum()
    qtbot.keyClick(sheet, Qt.Key.Key_PageDown)
    assert bar.value() == bar.maximum()
    qtbot.keyClick(sheet, Qt.Key.Key_Home)
    assert bar.value() == 0
    qtbot.keyClick(sheet, Qt.Key.Key_X)  # any other key closes it
    assert not sheet.isVisible()


def test_shortcuts_can_be_changed_conflicts_are_refused_and_the_change_is_kept(
        qtbot: QtBot, launch: Launch, with_podcast: None, library_path: Path) -> None:
    parts = launch()
    window = parts.window
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier | Shift)
    editor = window.help.editor
    assert editor is not None and editor.isVisible()
    editor.edits["mute"].setKeySequence(QKeySequence("J"))  # J already goes back 10 s
    editor.accept()
    assert editor.isVisible() and "J is given to Back 10 Seconds and Mute" in editor.problem.text()
    editor.edits["mute"].setKeySequence(QKeySequence("M"))
    editor.edits["play_pause"].setKeySequence(QKeySequence("P"))
    editor.accept()
    assert not editor.isVisible()
    assert window.menu_actions.shortcuts("play_pause") == ("P",)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.item_list.setFocus()
    window.item_list.selectRow(2)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_P)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PAUSED, timeout=3000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Space)  # no longer a shortcut
    qtbot.wait(200)
    assert parts.session.player.state == PlayerState.PAUSED
    window.close()
    assert get_setting(open_library(library_path), "keyboard.shortcuts") == {"play_pause": ["P"]}
    again = launch().window
    assert again.menu_actions.shortcuts("play_pause") == ("P",)
    assert again.menu_actions.shortcuts("mute") == ("M",)


def test_the_palettes_keys_pass_by_commands_that_cannot_run_now(qtbot: QtBot, launch: Launch,
                                                                 with_podcast: None) -> None:
    window = launch().window
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = window.help.palette
    assert palette is not None
    qtbot.keyClicks(palette.search, "stop")
    assert palette.rows()[0] == "Feeds: Stop Refreshing"  # the best match, greyed: no refresh runs

    def highlighted() -> str:
        selected = palette.list.selectionModel().selectedRows()
        return str(selected[0].data()) if len(selected) == 1 else f"{len(selected)} rows"

    runnable = [row.split("\t")[0] for row in palette.rows()[1:3]]
    assert highlighted() == runnable[0]
    qtbot.keyClick(palette.search, Qt.Key.Key_Down)
    assert highlighted() == runnable[1]
    qtbot.keyClick(palette.search, Qt.Key.Key_Up)
    qtbot.keyClick(palette.search, Qt.Key.Key_Up)  # past the greyed one: it stays on the first that can run
    assert highlighted() == runnable[0]
    qtbot.keyClick(palette.search, Qt.Key.Key_Escape)
