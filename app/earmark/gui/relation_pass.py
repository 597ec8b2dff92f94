"""The relation pass in a child process (``earmark update-relations --jsonl --background``), reported through
signals.

A process of its own at a low priority keeps the work (and its memory) out of the window: the window stays
small and quick however large the library, and quitting never waits for the pass: the child is told to stop
(SIGTERM: it stops where it is, keeping what it stored) and killed if it has not within KILL_AFTER_MS.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from earmark.core.records import record
from earmark.gui.child_command import ChildCommand

KILL_AFTER_MS = 200  # a pass told to stop has this long to do so before it is killed (with its workers)


@record
class PassSummary:
    """How a pass ended: items worked out, whether in full, and the sentence to show when it could not run."""

    items: int = 0
    full: bool = False
    stopped: bool = False
    error: str | None = None


class RelationPass(ChildCommand):
    """Starts and watches one pass at a time. Signals: ``progress(float, str)`` (share done, what it does),
    ``finished(PassSummary)``."""

    progress = Signal(float, str)
    finished = Signal(object)

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(library_path, parent)
        self._summary = PassSummary()

    def start(self) -> bool:
        """Bring the relations up to date in the background; False when a pass is running already."""
        if self.is_running():
            return False
        self._summary = PassSummary()
        return self._run(["update-relations", "--jsonl", "--background"])

    def shutdown(self) -> None:
        """Stop a running pass and wait for it to end, killing it if it takes longer than KILL_AFTER_MS (on quit:
        what it stored stays stored, the rest is worked out next time)."""
        if self.is_running():
            self._summary.stopped = True
            self._stop(KILL_AFTER_MS, wait=True, group=True)

    def _message(self, message: dict[str, object]) -> None:
        if "progress" in message:
            self.progress.emit(float(message["progress"]), str(message.get("what", "")))  # type: ignore[arg-type]
        elif "items" in message:
            self._summary.items = int(message["items"])  # type: ignore[call-overload]  # the command's number
            self._summary.full = bool(message.get("full"))
        elif message.get("stopped"):
            self._summary.stopped = True

    def _ended(self, exit_code: int, errors: list[str]) -> None:
        if exit_code != 0 and not self._summary.stopped:
            self._summary.error = errors[-1] if errors else ("Related items could not be worked out "
                                                             f"(exit code {exit_code}).")

    def _not_started(self, sentence: str) -> None:
        self._summary.error = f"Related items could not be worked out: {sentence}."

    def _done(self) -> None:
        self.finished.emit(self._summary)
