"""Running an ``earmark`` command on the window's library in a child process (refreshes, syncs): the network
and the parsing stay off this process's GIL; the child writes the library in short transactions of its own."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QObject, QProcess


def earmark_process(parent: QObject, library: Path, args: list[str]) -> QProcess:
    """A QProcess (not started) that runs ``earmark --library LIBRARY ARGS…`` with this Python (or this
    bundle's own executable)."""
    process = QProcess(parent)
    process.setProgram(sys.executable)
    launcher = [] if getattr(sys, "frozen", False) else ["-m", "earmark"]
    process.setArguments([*launcher, "--library", str(library), *args])
    return process


def error_lines(stderr: bytes) -> list[str]:
    """The sentences a command printed on stderr, without their ``earmark:`` prefix."""
    return [line.removeprefix("earmark: ") for line in stderr.decode(errors="replace").splitlines() if line.strip()]
