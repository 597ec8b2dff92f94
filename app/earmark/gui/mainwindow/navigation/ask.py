"""The Ask view as the navigator drives it: entering it, and items arriving or changing what they say (a refresh,
an article saved, a transcript made, a note), bring the passage index up to date in a child process; each question
(as it is typed, after a short pause) is answered in the pool; Enter plays the episode from the answer's moment,
opens the article, or the episode's details, at its paragraph, or brings the keyboard to the note."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, SignalInstance
from PySide6.QtWidgets import QWidget

from earmark.core.models import Changes, ItemState
from earmark.core.passages.ask import Answer
from earmark.gui.mainwindow.library.refresh_hold import RefreshHold
from earmark.gui.mainwindow.navigation.opening import ItemOpener
from earmark.gui.mainwindow.places import ASK, Place
from earmark.gui.operations.ask import Asked, ask_library
from earmark.gui.passage_indexing import PassageIndexing
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.ask import AskView

PAUSE_MS = 150  # typing pauses this long before the question is asked
INDEX_DELAY_MS = 1500  # changes arriving together (a refresh's feeds) are indexed once


class AskController:
    """Owns the Ask view and the indexing child."""

    def __init__(self, runner: TaskRunner, play_at: Callable[[int, float], None], opener: ItemOpener,
                 show_note: Callable[[int, int], None], show_passage: Callable[[int, str], None],
                 parent: QObject) -> None:
        self._runner, self._library = runner, runner.library_path
        self._play_at, self._opener = play_at, opener
        self._show_note, self._show_passage = show_note, show_passage
        self.view = AskView()
        self.indexing = PassageIndexing(self._library, parent)
        self.indexing.progress.connect(lambda share, what: self.view.status.setText(f"{what}: {share:.0%}"))
        self.indexing.finished.connect(self._indexed)
        self._due = QTimer(self.view)
        self._due.setSingleShot(True)
        self._due.setInterval(INDEX_DELAY_MS)
        self._due.timeout.connect(self._index_due)
        self._next: bool | None = None  # an indexing due when the one under way ends (True: the model fetched)
        self._hold = RefreshHold(self.schedule_indexing)
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
        """Index what changed since the last time (the questions meanwhile use the index as it was); the sentence
        model is fetched here, at its first use."""
        if self._index(fetch=True):
            self.view.status.setText("Indexing passages…")

    def library_changed(self, changes: Changes) -> None:
        """Items came or went, or what they say changed: their passages are indexed soon, whether Ask shows or not
        (a question shown is asked again once they are)."""
        if changes.structure or ItemState.TEXT in changes.states:
            self.schedule_indexing()

    def schedule_indexing(self) -> None:
        """Index what changed once the changes arriving together are in."""
        if not self._runner.read_only:
            self._due.start()

    def wait_for_refreshes(self, started: SignalInstance, ended: SignalInstance) -> None:
        """Between ``started`` and ``ended`` (of a refresh or an import) the items it brings are indexed once, after
        it: not feed after feed, taking the CPU the refresh needs (as the relation pass waits)."""
        self._hold.follow(started, ended)

    def _index_due(self) -> None:
        if not self._hold.defer():
            self._index(fetch=False)

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
        self._due.stop()
        self._next = None
        self.indexing.shutdown()

    def _index(self, fetch: bool) -> bool:
        """Start an indexing; when one is under way, another follows it (False)."""
        if self.indexing.start(fetch):
            return True
        self._next = fetch or bool(self._next)
        return False

    def _indexed(self, said: str) -> None:
        self._generation += 1
        self._said = said
        self.view.status.setText(said)
        self._ask()
        if self._next is not None:
            fetch, self._next = self._next, None
            self._index(fetch)

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
        if answer.source == "note" and answer.note_id is not None:  # its item selected, the note in the notes pane
            self._opener.show_in_library(answer.item_id)
            self._show_note(answer.item_id, answer.note_id)
        elif answer.kind == "episode" and answer.at is not None:
            self._play_at(answer.item_id, answer.at)
        elif answer.kind == "article":
            self._opener.open_item(answer.item_id, answer.text if answer.source == "article" else "")  # its paragraph
        else:  # an episode's show notes: selected, its details at the paragraph
            self._opener.show_in_library(answer.item_id)
            self._show_passage(answer.item_id, answer.text)
