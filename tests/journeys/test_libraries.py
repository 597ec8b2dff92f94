"""Two libraries a person may meet: an empty one (the welcome screen, and every view can still be visited and
left) and a read-only one (browsed, every view visited and left, nothing asked or lost, quitting works)."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.sample import load_sample
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import (
    click_row,
    click_sidebar,
    focused,
    highlighted_row,
    item_list,
    press,
    sidebar_texts,
    wait_entry_listed,
    wait_rows,
    wait_showing,
)
from helpers.storage import remount_read_only, remount_writable, small_disk

CTRL, SHIFT, ALT = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                    Qt.KeyboardModifier.AltModifier)
GO = {"graph": (Qt.Key.Key_G, CTRL), "notes": (Qt.Key.Key_B, CTRL | SHIFT),
      "subscriptions": (Qt.Key.Key_U, CTRL | SHIFT)}


def error_dialogs() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def test_the_empty_library(qtbot: QtBot, launch: Launch) -> None:
    window = launch().window
    wait_showing(qtbot, window, "welcome")
    assert sidebar_texts(window)[:2] == ["All (0)", "Podcasts (0)"] and highlighted_row(window) == "All (0)"
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QPushButton))
    assert "sample" in focused().text().lower()
    for view, keys in GO.items():
        press(qtbot, *keys)
        wait_showing(qtbot, window, view)
        press(qtbot, Qt.Key.Key_Escape)
        wait_showing(qtbot, window, "welcome")
        assert "sample" in focused().text().lower()  # the keyboard is back on the welcome screen's first button
    for row, view in (("Topic Graph", "graph"), ("Notes", "notes"), ("Subscriptions", "subscriptions")):
        click_sidebar(qtbot, window, row)
        wait_showing(qtbot, window, view)
        click_sidebar(qtbot, window, "Podcasts")  # any entry of an empty library welcomes
        wait_showing(qtbot, window, "welcome")
    press(qtbot, Qt.Key.Key_Left, ALT)
    wait_showing(qtbot, window, "subscriptions")
    press(qtbot, Qt.Key.Key_Right, ALT)
    wait_showing(qtbot, window, "welcome")
    heading = [label.text() for label in window.findChildren(QLabel) if label.isVisible() and "Welcome" in label.text()]
    assert heading, "the welcome screen's heading is not visible"


def test_a_read_only_library(qtbot: QtBot, launch: Launch, tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", size_kib=16384) as disk:  # the sample with its transcripts, and its WAL
        path = disk / "library.db"
        db = open_library(path)
        load_sample(db)
        db.close()
        remount_read_only(disk)
        try:
            window = launch(path).window
            assert window.windowTitle().endswith("(read-only)")
            banner = window.findChild(QLabel, "cannotSaveBanner")
            assert banner is not None and banner.isVisible() and "cannot be saved" in banner.text()
            wait_rows(qtbot, window, SAMPLE_ITEMS)
            for view, keys in GO.items():
                press(qtbot, *keys)
                wait_showing(qtbot, window, view)
                press(qtbot, Qt.Key.Key_Escape)
                wait_showing(qtbot, window, "list")
            click_sidebar(qtbot, window, "PyTorch Developer Podcast")
            wait_entry_listed(qtbot, window)
            click_row(qtbot, item_list(window), 1)
            press(qtbot, Qt.Key.Key_G, CTRL | SHIFT)
            wait_showing(qtbot, window, "path")
            press(qtbot, Qt.Key.Key_Left, ALT)
            wait_showing(qtbot, window, "list")
            assert highlighted_row(window).startswith("PyTorch Developer Podcast (")
            assert error_dialogs() == []
            press(qtbot, Qt.Key.Key_Q, CTRL)  # quits, though the view cannot be remembered
            assert not window.isVisible() and error_dialogs() == []

            again = launch(path).window
            wait_rows(qtbot, again, SAMPLE_ITEMS)
            assert highlighted_row(again).startswith("All (")
            again.close()
        finally:
            remount_writable(disk)
    shutil.rmtree(tmp_path / "disk", ignore_errors=True)
