"""Running an ``earmark`` command on the window's library in a child process (refreshes, syncs): the network
and the parsing stay off this process's GIL; the child writes the library in short transactions of its own."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QProcess

from earmark.core.records import record


@record(frozen=True)
class Children:
    """How many ``earmark`` children this process started so far, and how many of them ended. What they commit to
    the library is this window's own work (the library watch leaves it to the code that started them)."""

    started: int = 0
    ended: int = 0

    @property
    def running(self) -> int:
        return self.started - self.ended


_counts = Children()


def children() -> Children:
    """This process's children so far."""
    return _counts


def _started() -> None:
    global _counts
    _counts = Children(_counts.started + 1, _counts.ended)


def _ended() -> None:
    global _counts
    _counts = Children(_counts.started, _counts.ended + 1)


def earmark_process(parent: QObject, library: Path, args: list[str]) -> QProcess:
    """A QProcess (not started) that runs ``earmark --library LIBRARY ARGS…`` with this Python (or this
    bundle's own executable)."""
    process = QProcess(parent)
    process.setProgram(sys.executable)
    # -P: "-m" alone would put the working directory first on the child's import path, and a folder named
    # earmark there (a clone in ~/earmark, apps started in $HOME) would be what it runs. The child's own
    # worker processes inherit its import path, so they are safe too.
    launcher = [] if getattr(sys, "frozen", False) else ["-P", "-m", "earmark"]
    process.setArguments([*launcher, "--library", str(library), *args])
    process.started.connect(_started)
    process.finished.connect(_ended)  # also after a crash; a process that failed to start never started
    return process


def error_lines(stderr: bytes) -> list[str]:
    """The sentences a command printed on stderr, without their ``earmark:`` prefix."""
    return [line.removeprefix("earmark: ") for line in stderr.decode(errors="replace").splitlines() if line.strip()]


def run_command(parent: QObject, library: Path, args: list[str], stdin: str,
                on_done: Callable[[int, str, list[str]], None]) -> QProcess:
    """Run one short command in the background, ``stdin`` written to it (a password: never on its command line);
    ``on_done(exit code, standard output, sentences on stderr)`` when it ends."""
    process = earmark_process(parent, library, args)

    def finished(code: int, _status: QProcess.ExitStatus) -> None:
        out = bytes(process.readAllStandardOutput().data()).decode(errors="replace")
        said = error_lines(bytes(process.readAllStandardError().data()))
        process.deleteLater()
        on_done(code, out, said)

    def failed(error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart:
            process.deleteLater()
            on_done(-1, "", [f"Earmark could not start a command: {process.errorString()}."])

    process.finished.connect(finished)
    process.errorOccurred.connect(failed)
    process.start()
    process.write(stdin.encode())
    process.closeWriteChannel()
    return process
