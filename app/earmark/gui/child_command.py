"""An ``earmark`` command run in a child process, one at a time, talking JSON lines: the base of the window's
feed refreshes and relation passes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, Slot

from earmark.gui.child_process import earmark_process, error_lines


class ChildCommand(QObject):
    """Runs ``earmark --library PATH ARGS…``: each JSON object it prints goes to ``_message``, and when it ends
    ``_ended(exit code, its standard error's lines)`` (or ``_not_started(sentence)``), then ``_done()``.
    Subclasses fill those in and emit their own signals."""

    def __init__(self, library_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library_path = library_path
        self._process: QProcess | None = None
        self._stderr = b""

    def is_running(self) -> bool:
        """Whether the command is under way."""
        return self._process is not None

    def _message(self, message: dict[str, object]) -> None:
        """One JSON object the command printed."""

    def _ended(self, exit_code: int, errors: list[str]) -> None:
        """The command ended (``errors``: its standard error's lines, "earmark: " left out)."""

    def _not_started(self, sentence: str) -> None:
        """The command could not start."""

    def _done(self) -> None:
        """The command is over (after _ended or _not_started)."""

    def _run(self, args: list[str]) -> bool:
        """Start the command; False when one is running already."""
        if self._process is not None:
            return False
        self._stderr = b""
        process = earmark_process(self, self._library_path, args)
        process.readyReadStandardOutput.connect(self._read_lines)
        process.readyReadStandardError.connect(self._read_errors)
        process.finished.connect(self._on_finished)
        process.errorOccurred.connect(self._on_error)
        self._process = process
        process.start()
        return True

    def _stop(self, kill_after_ms: int, wait: bool, group: bool = False) -> QProcess | None:
        """Ask the command to stop (SIGTERM); with ``wait``, wait for it and kill it after ``kill_after_ms``, with
        ``group`` its whole process group (a command that made one for itself and its workers). Returns the
        process (None when none runs)."""
        process = self._process
        if process is None:
            return None
        process.terminate()
        if wait and not process.waitForFinished(kill_after_ms):
            pid = process.processId()
            if group and pid > 0 and hasattr(os, "killpg"):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)  # the kernel's doing: however little CPU they get
            process.kill()
            process.waitForFinished(kill_after_ms)
        return process

    @Slot()
    def _read_lines(self) -> None:
        process = self._process
        while process is not None and process.canReadLine():
            try:
                message = json.loads(bytes(process.readLine().data()))
            except ValueError:
                continue  # not ours (a library's warning on stdout): ignore
            if isinstance(message, dict):
                self._message(message)

    @Slot()
    def _read_errors(self) -> None:
        if self._process is not None:
            self._stderr += bytes(self._process.readAllStandardError().data())

    @Slot(int, QProcess.ExitStatus)
    def _on_finished(self, exit_code: int, _status: QProcess.ExitStatus) -> None:
        self._read_lines()
        self._read_errors()
        self._ended(exit_code, error_lines(self._stderr))
        self._finish()

    @Slot(QProcess.ProcessError)
    def _on_error(self, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and self._process is not None:
            self._not_started(self._process.errorString())
            self._finish()

    def _finish(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        process.deleteLater()
        self._done()
