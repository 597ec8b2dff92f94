"""The transcription queue worked in a child process (``earmark transcribe --queue --jsonl --background``),
reported through signals.

The engine and its model live in that process only, at the lowest CPU priority: the window's memory and
responsiveness stay as they were. Quitting never waits for it: the child is told to stop (SIGTERM: the episode
under way is left queued, nothing of it stored) and killed with its process group after KILL_AFTER_MS.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from earmark.gui.child_command import ChildCommand

KILL_AFTER_MS = 300  # a worker told to stop has this long to do so before it is killed


class TranscriptionWorker(ChildCommand):
    """Runs the queue until it is empty. Signals: ``started_item(int, str)`` (item id, title),
    ``progress(int, float)`` (item id, share done), ``item_done(int)``, ``item_failed(int, str)`` (the sentence),
    ``fetching(float, str)`` (a model being fetched), ``finished(str)`` (empty, or the sentence of a failure that
    stopped the whole queue: no engine, no model)."""

    started_item = Signal(int, str)
    progress = Signal(int, float)
    item_done = Signal(int)
    item_failed = Signal(int, str)
    fetching = Signal(float, str)
    finished = Signal(str)

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(library_path, parent)
        self._error = ""
        self._stopping = False
        self.drained = False  # the last run ended because the queue was empty (not stopped, not failed)

    def start(self) -> bool:
        """Work through the queue; False when the worker runs already."""
        if self.is_running():
            return False
        self._error, self._stopping, self.drained = "", False, False
        return self._run(["transcribe", "--queue", "--jsonl", "--background"])

    def stop(self, wait: bool = False) -> None:
        """Stop the worker (the episode under way stays queued); with ``wait``, before returning (on quit)."""
        if self.is_running():
            self._stopping = True
            self._stop(KILL_AFTER_MS, wait=wait, group=True)

    def _message(self, message: dict[str, object]) -> None:
        if "transcribed" in message:
            self.drained = True  # the summary: the child found the queue empty (a stop says "stopped")
        elif "done" in message:
            self.item_done.emit(int(message["done"]))  # type: ignore[call-overload]
        elif "failed" in message:
            self.item_failed.emit(int(message["failed"]), str(message.get("error", "")))  # type: ignore[call-overload]
        elif "item_id" in message and "title" in message:
            self.started_item.emit(int(message["item_id"]), str(message["title"]))  # type: ignore[call-overload]
        elif "item_id" in message:
            self.progress.emit(int(message["item_id"]), float(message.get("progress", 0.0)))  # type: ignore[arg-type, call-overload]
        elif "what" in message:
            self.fetching.emit(float(message.get("progress", 0.0)), str(message["what"]))  # type: ignore[arg-type]

    def _ended(self, exit_code: int, errors: list[str]) -> None:
        self.drained = self.drained and exit_code == 0 and not self._stopping
        if exit_code != 0 and not self._stopping:
            self._error = errors[-1] if errors else f"Transcribing stopped (exit code {exit_code})."

    def _not_started(self, sentence: str) -> None:
        self._error = f"Transcribing could not start: {sentence}."

    def _done(self) -> None:
        self.finished.emit(self._error)
