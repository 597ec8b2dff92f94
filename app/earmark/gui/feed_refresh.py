"""Feed refreshes in a child process (``earmark refresh --jsonl``), reported through signals.

A separate process keeps hundreds of fetches and parses off this process's GIL entirely, so the window
never stalls; the child writes to the library in short transactions of its own, as a cron job would.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QTimer, Signal, Slot

from earmark.gui.child_process import earmark_process, error_lines

KILL_AFTER_MS = 5000  # a cancelled refresh finishes the feeds in flight; after this it is killed


@dataclass(slots=True)
class RefreshSummary:
    """How a refresh ended: feeds checked, what they brought, and the sentences to show."""

    total: int = 0
    checked: int = 0
    new: int = 0
    failed: int = 0
    cancelled: bool = False
    error: str | None = None  # the refresh could not run at all
    notes: list[str] = field(default_factory=list)  # what the command said on the side (skipped outlines…)


class FeedRefresh(QObject):
    """Starts and watches one refresh at a time.

    Signals: ``started(int)`` with the number of feeds, ``feed_done(dict)`` per feed (the ``refresh --json``
    object), ``finished(RefreshSummary)``.
    """

    started = Signal(int)
    feed_done = Signal(dict)
    finished = Signal(object)

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library_path = library_path
        self._process: QProcess | None = None
        self._summary = RefreshSummary()
        self._stderr = b""

    def is_running(self) -> bool:
        """Whether a refresh is under way."""
        return self._process is not None

    def refresh(self, source_ids: list[int] | None = None) -> bool:
        """Refresh the given sources (even if backing off), or every due feed; False when one is running."""
        args = ["refresh", "--jsonl", "--background"]
        for source_id in source_ids or []:
            args += ["--source", str(source_id)]
        return self._start(args)

    def import_opml(self, path: Path) -> bool:
        """Subscribe to every feed of an OPML file and fetch them; False when a refresh is running."""
        return self._start(["import-opml", str(path), "--jsonl", "--background"])

    def cancel(self) -> None:
        """Start no more feeds; those in flight finish and are stored."""
        if self._process is not None:
            self._summary.cancelled = True
            process = self._process
            process.terminate()
            QTimer.singleShot(KILL_AFTER_MS, self, lambda: process.kill() if self._process is process else None)

    def shutdown(self) -> None:
        """Stop a running refresh and wait for it (on quit): what was stored stays stored."""
        process = self._process
        if process is None:
            return
        self._summary.cancelled = True
        process.terminate()
        if not process.waitForFinished(KILL_AFTER_MS):
            process.kill()
            process.waitForFinished(1000)

    def _start(self, args: list[str]) -> bool:
        if self._process is not None:
            return False
        self._summary = RefreshSummary()
        self._stderr = b""
        process = earmark_process(self, self._library_path, args)
        process.readyReadStandardOutput.connect(self._read_lines)
        process.readyReadStandardError.connect(self._read_errors)
        process.finished.connect(self._on_finished)
        process.errorOccurred.connect(self._on_error)
        self._process = process
        process.start()
        return True

    @Slot()
    def _read_lines(self) -> None:
        process = self._process
        while process is not None and process.canReadLine():
            line = bytes(process.readLine().data()).strip()
            try:
                message = json.loads(line)
            except ValueError:
                continue  # not ours (a library warning on stdout): ignore
            if not isinstance(message, dict):
                continue
            if set(message) == {"total"}:
                self._summary.total = int(message["total"])
                self.started.emit(self._summary.total)
                continue
            self._summary.checked += 1
            self._summary.new += int(message.get("new") or 0)
            self._summary.failed += message.get("status") in ("error", "gone")
            self.feed_done.emit(message)

    @Slot()
    def _read_errors(self) -> None:
        if self._process is not None:
            self._stderr += bytes(self._process.readAllStandardError().data())

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, exit_code: int, _status: QProcess.ExitStatus) -> None:
        self._read_lines()
        self._read_errors()
        lines = error_lines(self._stderr)
        if exit_code != 0 and not self._summary.cancelled:
            self._summary.error = lines[-1] if lines else f"The refresh stopped unexpectedly (exit code {exit_code})."
            lines = lines[:-1]
        self._summary.notes = lines
        self._finish()

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._process is not None:
            self._summary.error = f"The refresh could not start: {self._process.errorString()}."
            self._finish()

    def _finish(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        process.deleteLater()
        self.finished.emit(self._summary)
