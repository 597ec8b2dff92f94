"""Setting up sync on a desktop without a keyring: after "Don't Keep Passwords", Log In offers the choice again
in place (the question comes back over the sync dialog) instead of repeating that sync needs its password kept;
choosing the library file then logs in (issue 37, finding 13)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.secrets.store import OPT_IN
from earmark.core.settings import get_setting
from helpers.gui import Launch
from helpers.journeys import press


def keyring_question(qtbot: QtBot, window: object) -> QMessageBox:
    choice = window.feeds.keyring  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: choice.box is not None and choice.box.isVisible(), timeout=10_000)
    return choice.box


def click(qtbot: QtBot, box: QMessageBox, text: str) -> None:
    [button] = [b for b in box.buttons() if b.text().replace("&", "") == text]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not box.isVisible())


def test_log_in_asks_again_after_dont_keep_passwords(qtbot: QtBot, launch: Launch, library_path: Path) -> None:
    window = launch().window
    press(qtbot, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.sync.dialog is not None and window.sync.dialog.isVisible())
    dialog = window.sync.dialog
    for field, text in ((dialog.server_edit, "http://127.0.0.1:9"), (dialog.user_edit, "ann"),
                        (dialog.password_edit, "secret")):
        qtbot.mouseClick(field, Qt.MouseButton.LeftButton)  # click into the field, then type
        qtbot.keyClicks(field, text)
    log_in = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)

    qtbot.mouseClick(log_in, Qt.MouseButton.LeftButton)
    click(qtbot, keyring_question(qtbot, window), "Don't Keep Passwords")
    qtbot.waitUntil(lambda: "needs its password kept" in dialog.answer.text())
    assert "Log In asks again" in dialog.answer.text()

    qtbot.waitUntil(log_in.isEnabled)
    qtbot.mouseClick(log_in, Qt.MouseButton.LeftButton)
    click(qtbot, keyring_question(qtbot, window), "Keep in the Library File")  # no dead end: asked again
    qtbot.waitUntil(lambda: bool(get_setting(open_library(library_path), OPT_IN)), timeout=10_000)
    qtbot.waitUntil(lambda: dialog.answer.text() != "" and "needs its password kept" not in dialog.answer.text()
                    and "Checking" not in dialog.answer.text(), timeout=60_000)  # the server's answer now
