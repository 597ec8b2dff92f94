"""A sync in a child process (``earmark sync --json``), reported through a signal: the window never waits for
the server, and quitting stops the child (what it committed stays; the rest is done by the next sync)."""

from __future__ import annotations

import json
from dataclasses import field
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, Signal, Slot

from earmark.core.plurals import counted
from earmark.core.records import record
from earmark.gui.child_process import earmark_process, error_lines

STOP_WAIT_MS = 3000


@record
class SyncOutcome:
    """How a sync ended: the ``earmark sync --json`` object's counts and sentences."""

    counts: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def sentence(self) -> str:
        """What the status bar says."""
        if self.errors:
            return f"Sync failed: {self.errors[0]}"
        parts = [f"{counted(count, noun)} {done}" for key, noun, done in (
            ("subscriptions_added", "subscription", "added"), ("subscriptions_removed", "subscription", "removed"),
            ("positions_applied", "position", "applied"),
            ("earlier_applied", "earlier position", "applied to episodes new here"), ("actions_sent", "change", "sent"))
            if (count := self.counts.get(key, 0))]
        return "Synced: " + (", ".join(parts) if parts else "everything was already in step") + "."


class SyncProcess(QObject):
    """Runs one sync at a time. Signal: ``finished(SyncOutcome)``."""

    finished = Signal(object)

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library_path = library_path
        self._process: QProcess | None = None

    def is_running(self) -> bool:
        return self._process is not None

    def start(self) -> bool:
        """Start a sync; False when one is running."""
        if self._process is not None:
            return False
        process = earmark_process(self, self._library_path, ["sync", "--json"])
        process.finished.connect(self._on_finished)
        process.errorOccurred.connect(self._on_error)
        self._process = process
        process.start()
        return True

    def shutdown(self) -> None:
        """Stop a running sync (on quit)."""
        process, self._process = self._process, None
        if process is None:
            return
        process.terminate()
        if not process.waitForFinished(STOP_WAIT_MS):
            process.kill()
            process.waitForFinished(1000)

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, exit_code: int, _status: QProcess.ExitStatus) -> None:
        process = self._process
        if process is None:
            return
        outcome = SyncOutcome()
        try:
            report = json.loads(bytes(process.readAllStandardOutput().data()) or b"null")
        except ValueError:
            report = None
        if isinstance(report, dict):
            outcome.counts = {k: v for k, v in report.items() if isinstance(v, int) and not isinstance(v, bool)}
            outcome.errors = [str(e) for e in report.get("errors", [])]
            outcome.warnings = [str(w) for w in report.get("warnings", [])]
        if exit_code != 0 and not outcome.errors:
            said = error_lines(bytes(process.readAllStandardError().data()))
            outcome.errors = [said[-1] if said else f"The sync stopped unexpectedly (exit code {exit_code})."]
        self._finish(outcome)

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._process is not None:
            self._finish(SyncOutcome(errors=[f"The sync could not start: {self._process.errorString()}."]))

    def _finish(self, outcome: SyncOutcome) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.deleteLater()
        self.finished.emit(outcome)
