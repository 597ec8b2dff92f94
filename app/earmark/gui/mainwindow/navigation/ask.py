"""The Ask view as the navigator drives it: entering it, and each transcript made here, brings the passage index
up to date in a child process; each question (as it is typed, after a short pause) is answered in the pool;
Enter plays the episode from the answer's moment, or shows the article or the item of a note."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtWidgets import QWidget

from earmark.core.passages.ask import Answer
from earmark.gui.mainwindow.navigation.opening import ItemOpener
from earmark.gui.mainwindow.places import ASK, Place
from earmark.gui.operations.ask import Asked, ask_library
from earmark.gui.passage_indexing import PassageIndexing
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.ask import AskView

PAUSE_MS = 150  # typing pauses this long before the question is asked


class AskController:
    """Owns the Ask view and the indexing child."""

    def __init__(self, runner: TaskRunner, play_at: Callable[[int, float], None], opener: ItemOpener,
                 transcribed: SignalInstance, parent: QObject) -> None:
        self._runner, self._library = runner, runner.library_path
        self._play_at, self._opener = play_at, opener
        self.view = AskView()
        self._indexing = PassageIndexing(self._library, parent)
        self._indexing.progress.connect(lambda share, what: self.view.status.setText(f"{what}: {share:.0%}"))
        self._indexing.finished.connect(self._indexed)
        transcribed.connect(lambda *_: self._indexing.start())  # a transcript made here: its passages indexed
        self._generation = 0
        self._said = ""
        self._timer = QTimer(self.view)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PAUSE_MS)
        self._timer.timeout.connect(self._ask)
        self.view.question_changed.connect(lambda _text: self._timer.start())
        self.view.chosen.connect(self._open)

    def widget(self) -> QWidget:
        return self.view

    def enter(self, _place: Place) -> None:
        """Index what changed since the last time (the questions meanwhile use the index as it was)."""
        if self._indexing.start():
            self.view.status.setText("Indexing passages…")

    def here(self) -> Place:
        return Place(ASK)

    def leave(self) -> None:
        self._timer.stop()

    def focus(self) -> None:
        self.view.field.setFocus()
        self.view.field.selectAll()

    def find_field(self) -> QWidget | None:
        return self.view.field

    def shutdown(self) -> None:
        self._timer.stop()
        self._indexing.shutdown()

    def _indexed(self, said: str) -> None:
        self._generation += 1
        self._said = said
        self.view.status.setText(said)
        self._ask()

    def _ask(self) -> None:
        question = self.view.field.text()
        if not question.strip():
            self.view.show_answers(question, [], self._said)
            return
        self._runner.read(ask_library, self._library, question, self._generation, on_done=self._answered)

    def _answered(self, asked: Asked) -> None:
        status = asked.words_alone or ("" if asked.answers else "Nothing in the library answers that yet.")
        self.view.show_answers(asked.question, list(asked.answers), status)

    def _open(self, answer: Answer) -> None:
        if answer.kind == "episode" and answer.at is not None:
            self._play_at(answer.item_id, answer.at)
        elif answer.kind == "article":
            self._opener.open_item(answer.item_id)
        else:
            self._opener.show_in_library(answer.item_id)
