"""An automatic refresh never opens a dialog: with feeds waiting after failures, the refresh on start says in
the status bar, in the window's words, what it left out, and Subscriptions says it too; F5 then checks every
feed now, the waiting ones included, as the user guide says."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import set_setting
from helpers.gui import Launch
from helpers.journeys import press, wait_rows, wait_showing
from helpers.podcast import Episode, write_podcast

FEEDS = 3


def no_dialog() -> bool:
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, (QDialog, QMessageBox)) and w.isVisible()]
    return not shown and QApplication.activeModalWidget() is None


def test_refresh_on_start_opens_no_dialog_and_f5_checks_the_waiting_feeds(qtbot: QtBot, launch: Launch,
                                                                         library_path: Path, tmp_path: Path) -> None:
    db = open_library(library_path)
    for number in range(FEEDS):
        subscribe(db, str(write_podcast(tmp_path / f"cast{number}", [Episode(f"Talk {number}", 2.0)],
                                        title=f"Cast {number}")))
    with db.conn:  # every feed failed three times and waits until tomorrow
        db.conn.execute("UPDATE sources SET status = 'error', failures = 3, last_error = 'no answer in time', "
                        "retry_after = '2999-01-01T00:00:00+00:00'")
    set_setting(db, "feeds.refresh_on_start", True)
    db.close()
    window = launch().window
    wait_rows(qtbot, window, FEEDS)
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    dialogs: list[bool] = []
    qtbot.waitUntil(lambda: dialogs.append(not no_dialog()) or any(s.startswith("Refreshed") for s in said),
                    timeout=20_000)  # the refresh on start, a few seconds after the window opened
    qtbot.wait(300)
    assert not any(dialogs) and no_dialog()
    refreshed = next(s for s in said if s.startswith("Refreshed"))
    assert "3 feeds waiting after failures or gone were left out (F5 checks every feed" in refreshed
    assert "--source" not in refreshed

    press(qtbot, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_showing(qtbot, window, "subscriptions")
    summary = window.findChild(QLabel, "subscriptionsSummary")
    qtbot.waitUntil(lambda: "3 left out of automatic refreshes" in summary.text())

    said.clear()
    press(qtbot, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: dialogs.append(not no_dialog()) or any(s.startswith("Refreshed") for s in said),
                    timeout=20_000)
    qtbot.wait(300)
    assert not any(dialogs) and no_dialog()
    assert next(s for s in said if s.startswith("Refreshed")).startswith("Refreshed: 3 of 3 feeds checked")
    qtbot.waitUntil(lambda: "left out" not in summary.text(), timeout=5000)  # checked now: none waits
