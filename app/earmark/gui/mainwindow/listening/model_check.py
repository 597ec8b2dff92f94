"""Before episodes are queued for transcription: the speech model is here, or the person is told what fetching it
takes (its size, once), that the computer is offline, or that the chosen folder holds no model; and may choose a
model folder instead."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from earmark.core.db.database import Database
from earmark.core.settings import get_setting
from earmark.core.transcribe.readiness import Readiness, readiness
from earmark.gui.operations.records import store_setting
from earmark.gui.tasks import TaskRunner


def model_readiness(db: Database) -> Readiness:
    """The chosen model's readiness (reads a setting, may knock at the hub: run it in the pool)."""
    return readiness(str(get_setting(db, "transcribe.model")))


class ModelCheck(QObject):
    """Runs ``go`` once the model is here or its fetch is agreed to; otherwise says why not (``error`` for a
    folder chosen that holds no model)."""

    def __init__(self, window: QMainWindow, runner: TaskRunner, error: Callable[[str], None]) -> None:
        super().__init__(window)
        self._window, self._runner, self._error = window, runner, error

    def then(self, go: Callable[[], object]) -> None:
        """Ask about the model (in the background), then run ``go`` when transcribing can start."""
        self._runner.read(model_readiness, on_done=lambda found: self._answer(found, go))

    def _answer(self, found: Readiness, go: Callable[[], object]) -> None:
        if found.ready:
            go()
            return
        box = QMessageBox(QMessageBox.Icon.Information, "Offline" if found.offline else "Speech Model",
                          found.sentence, parent=self._window)
        box.setObjectName("transcribeModelBox")
        fetch = box.addButton("Fetch and Transcribe", QMessageBox.ButtonRole.AcceptRole) \
            if found.fetch_mb and not found.offline else None
        choose = box.addButton("Choose Model Folder…", QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Close if found.offline else QMessageBox.StandardButton.Cancel)

        def clicked(button: object) -> None:
            if fetch is not None and button is fetch:
                go()  # the worker fetches it, with its progress in the status bar
            elif button is choose:
                self._choose(go)

        box.buttonClicked.connect(clicked)
        box.open()

    @staticmethod
    def _go(go: Callable[[], object]) -> None:
        go()

    def _choose(self, go: Callable[[], object]) -> None:
        folder = QFileDialog.getExistingDirectory(self._window, "Choose a Whisper Model Folder")
        if not folder:
            return
        found = readiness(folder)
        if not found.ready:
            self._error(found.sentence)
            return
        self._runner.write(store_setting, "transcribe.model", folder, on_done=lambda _changes: self._go(go))
