"""The one question asked before a link or a subscription list opened from outside (a web page's podcast link,
an .opml file opened with Earmark) changes the library: what it is, and Subscribe or Cancel."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget


def ask_to_subscribe(parent: QWidget, title: str, what: str, yes: str, on_yes: Callable[[], None]) -> QMessageBox:
    """Ask, without blocking the event loop, whether to add ``what`` (a sentence naming it and its size);
    ``on_yes`` runs when the person answers ``yes`` (a button text with its mnemonic)."""
    box = QMessageBox(QMessageBox.Icon.Question, title, what, parent=parent)
    box.setObjectName("subscribeQuestion")
    accept = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(accept)
    box.finished.connect(lambda _result: on_yes() if box.clickedButton() is accept else None)
    box.open()
    return box
