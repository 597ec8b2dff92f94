"""The relation pass in a child process (``earmark update-relations --jsonl --background``), reported through
signals.

A process of its own at the lowest priority keeps the work (and its memory) out of the window: the window stays
small and quick however large the library, and quitting never waits for the pass: the child is told to stop
(SIGTERM: it stops where it is, keeping what it stored) and killed if it has not within KILL_AFTER_MS.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, Signal, Slot

KILL_AFTER_MS = 1000  # a pass told to stop has this long to do so before it is killed


@dataclass(slots=True)
class PassSummary:
    """How a pass ended: items worked out, whether in full, and the sentence to show when it could not run."""

    items: int = 0
    full: bool = False
    stopped: bool = False
    error: str | None = None


class RelationPass(QObject):
    """Starts and watches one pass at a time. Signals: ``progress(float, str)`` (share done, what it does),
    ``finished(PassSummary)``."""

    progress = Signal(float, str)
    finished = Signal(object)

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library_path = library_path
        self._process: QProcess | None = None
        self._summary = PassSummary()
        self._stderr = b""

    def is_running(self) -> bool:
        """Whether a pass is under way."""
        return self._process is not None

    def start(self) -> bool:
        """Bring the relations up to date in the background; False when a pass is running already."""
        if self._process is not None:
            return False
        self._summary = PassSummary()
        self._stderr = b""
        process = QProcess(self)
        process.setProgram(sys.executable)
        launcher = [] if getattr(sys, "frozen", False) else ["-m", "earmark"]
        process.setArguments([*launcher, "--library", str(self._library_path), "update-relations", "--jsonl",
                              "--background"])
        process.readyReadStandardOutput.connect(self._read_lines)
        process.readyReadStandardError.connect(self._read_errors)
        process.finished.connect(self._on_finished)
        process.errorOccurred.connect(self._on_error)
        self._process = process
        process.start()
        return True

    def shutdown(self) -> None:
        """Stop a running pass and wait for it to end, killing it if it takes longer than KILL_AFTER_MS (on quit:
        what it stored stays stored, the rest is worked out next time)."""
        process = self._process
        if process is None:
            return
        self._summary.stopped = True
        process.terminate()
        if not process.waitForFinished(KILL_AFTER_MS):
            process.kill()
            process.waitForFinished(KILL_AFTER_MS)

    @Slot()
    def _read_lines(self) -> None:
        process = self._process
        while process is not None and process.canReadLine():
            try:
                message = json.loads(bytes(process.readLine().data()))
            except ValueError:
                continue  # not ours (a library's warning on stdout)
            if not isinstance(message, dict):
                continue
            if "progress" in message:
                self.progress.emit(float(message["progress"]), str(message.get("what", "")))
            elif "items" in message:
                self._summary.items = int(message["items"])
                self._summary.full = bool(message.get("full"))
            elif message.get("stopped"):
                self._summary.stopped = True

    @Slot()
    def _read_errors(self) -> None:
        if self._process is not None:
            self._stderr += bytes(self._process.readAllStandardError().data())

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, exit_code: int, _status: QProcess.ExitStatus) -> None:
        self._read_lines()
        self._read_errors()
        if exit_code != 0 and not self._summary.stopped:
            lines = [line.removeprefix("earmark: ") for line in self._stderr.decode(errors="replace").splitlines()
                     if line.strip()]
            self._summary.error = lines[-1] if lines else ("Related items could not be worked out "
                                                           f"(exit code {exit_code}).")
        self._finish()

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._process is not None:
            self._summary.error = f"Related items could not be worked out: {self._process.errorString()}."
            self._finish()

    def _finish(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        process.deleteLater()
        self.finished.emit(self._summary)
