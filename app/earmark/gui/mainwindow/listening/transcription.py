"""The window's transcription queue: Transcribe (the selected episodes), Transcribe All Downloaded, Transcribe
New Episodes (a podcast's setting), Stop Transcribing; progress in the status bar and in the transcript pane of
the episode under way; the queue resumes when the window opens again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, SignalInstance
from PySide6.QtWidgets import QLabel, QMainWindow

from earmark.core.db import transcribe_queue as queue
from earmark.core.models import Changes, ItemState
from earmark.core.plurals import counted
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.mainwindow.listening.model_check import ModelCheck
from earmark.gui.tasks import TaskRunner
from earmark.gui.transcription_worker import TranscriptionWorker

RESUME_DELAY_MS = 4000  # the queue left at the last quit resumes this long after the window opens
SAY_FOR_MS = 6000  # a sentence about the queue stays this long in the status bar


class TranscriptionController(QObject):
    """Owns the worker and the status bar's transcription label. ``selected()`` gives the selected episodes,
    ``selected_source()`` the podcast; ``on_changes`` shows a transcribed episode's changes, ``error`` says a
    failure. Signals: ``progress(int, float)`` (item id, share; -1 when waiting), ``transcribed(int)``."""

    progress = Signal(int, float)
    transcribed = Signal(int)

    def __init__(self, window: QMainWindow, runner: TaskRunner, actions: Actions,
                 selected: Callable[[], list[int]], selected_source: Callable[[], int | None],
                 on_changes: Callable[[Changes], None], error: Callable[[str], None]) -> None:
        super().__init__(window)
        self._runner = runner
        self._selected, self._selected_source = selected, selected_source
        self._on_changes, self._error = on_changes, error
        self._actions = actions
        self.worker = TranscriptionWorker(Path(runner.library_path), self)
        self._model = ModelCheck(window, runner, error)
        self.label = QLabel()
        self.label.setObjectName("transcriptionStatus")
        self.label.hide()
        window.statusBar().addPermanentWidget(self.label)
        self._title = ""
        self._current: int | None = None
        self.worker.started_item.connect(self._on_started)
        self.worker.progress.connect(self._on_progress)
        self.worker.fetching.connect(lambda share, what: self._say(f"{what}… {share:.0%}"))
        self.worker.item_done.connect(self._on_done)
        self.worker.item_failed.connect(self._on_failed)
        self.worker.finished.connect(self._on_finished)
        a = actions
        a.transcribe.triggered.connect(lambda: self.transcribe(self._selected()))
        a.transcribe_all.triggered.connect(self.transcribe_all)
        a.stop_transcribing.triggered.connect(self.stop)
        a.transcribe_new.triggered.connect(self._toggle_new)
        self._hide = QTimer(self)  # a timer of its own: it dies with the window (a lambda would outlive it)
        self._hide.setSingleShot(True)
        self._hide.timeout.connect(lambda: self.label.setVisible(self.worker.is_running()))
        self._resume = QTimer(self)
        self._resume.setSingleShot(True)
        self._resume.timeout.connect(self.resume)
        if not runner.read_only:
            self._resume.start(RESUME_DELAY_MS)

    def connect_to(self, download_changed: SignalInstance, transcript_changed: Callable[..., None]) -> None:
        """Follow downloads (new episodes of podcasts set to it are transcribed) and keep the transcript pane
        told (``transcript_changed(item_id, share)``: progress; ``(item_id)``: transcribed)."""
        download_changed.connect(self.download_changed)
        self.progress.connect(transcript_changed)
        self.transcribed.connect(transcript_changed)

    def transcribe(self, item_ids: list[int]) -> None:
        """Queue episodes and start the worker, once the speech model is here or its fetch agreed to."""
        if not item_ids:
            self._say_for_a_while("Select the downloaded episodes to transcribe.")
            return
        self._model.then(lambda: self._runner.write(queue.enqueue, item_ids,
                                                    on_done=lambda _added: self._start(len(item_ids))))

    def transcribe_all(self) -> None:
        """Queue every downloaded episode without a transcript and start the worker."""
        self._model.then(lambda: self._runner.write(queue.enqueue_downloaded, on_done=self._start))

    def resume(self) -> None:
        """Start the worker when episodes wait (from the last session, or new ones of podcasts set to it)."""
        def start_when_waiting(waiting: int | None) -> None:
            if waiting is not None:
                self._start(1)

        self._runner.write(queue.enqueue_new_episodes,
                           on_done=lambda _added: self._read_next(start_when_waiting))

    def _read_next(self, then: Callable[[int | None], None]) -> None:
        self._runner.read(queue.next_waiting, on_done=then)

    def download_changed(self, _item_id: int) -> None:
        """A download finished or changed: episodes of podcasts set to transcribe new ones may be waiting."""
        if not self.worker.is_running():
            self._runner.write(queue.enqueue_new_episodes, on_done=lambda added: self._start(added) if added else None)

    def stop(self) -> None:
        """Stop transcribing: the queue empties (the episode under way is not stored)."""
        self.worker.stop(wait=False)
        self._runner.write(lambda db: queue.dequeue(db, [w.item_id for w in queue.waiting(db) if w.error is None]))
        self._say_for_a_while("Transcribing stopped.")

    def shutdown(self) -> None:
        """On quit: end the worker at once (what waits is transcribed next time)."""
        self._resume.stop()
        self._hide.stop()
        self.worker.stop(wait=True)

    def _start(self, count: int) -> None:
        if count and not self.worker.start():
            self._say_for_a_while(f"{counted(count, 'episode')} added to the transcription queue.")

    def _toggle_new(self) -> None:
        source_id = self._selected_source()
        if source_id is None:
            self._say_for_a_while("Select a podcast (or one of its episodes) to transcribe its new episodes.")
            return

        def toggle(was_on: bool) -> None:
            self._runner.write(queue.set_transcribe_new, source_id, not was_on, on_done=lambda _: self._say_for_a_while(
                "New episodes of this podcast are no longer transcribed." if was_on
                else "New episodes of this podcast will be transcribed once downloaded."))

        self._runner.read(queue.transcribes_new, source_id, on_done=toggle)

    def _on_started(self, item_id: int, title: str) -> None:
        self._current, self._title = item_id, title
        self._on_progress(item_id, 0.0)

    def _on_progress(self, item_id: int, share: float) -> None:
        self._say(f"Transcribing “{self._title}”: {share:.0%}")
        self.progress.emit(item_id, share)

    def _on_done(self, item_id: int) -> None:
        self._current = None
        self.transcribed.emit(item_id)
        self._on_changes(Changes(items={item_id}, states={ItemState.TEXT}, message=f"Transcribed “{self._title}”."))

    def _on_failed(self, item_id: int, sentence: str) -> None:
        self._current = None
        self.progress.emit(item_id, -1.0)
        self._error(f"“{self._title}” was not transcribed: {sentence}")

    def _on_finished(self, error: str) -> None:
        if self._current is not None:
            self.progress.emit(self._current, -1.0)
        self._current = None
        self.label.hide()
        if error:
            self._error(error)
        elif self.worker.drained:  # episodes queued while the child was ending would wait for the next start
            self._read_next(lambda waiting: self._start(1) if waiting is not None else None)

    def _say(self, text: str) -> None:
        self.label.setText(text)
        self.label.show()

    def _say_for_a_while(self, text: str) -> None:
        self._say(text)
        self._hide.start(SAY_FOR_MS)
