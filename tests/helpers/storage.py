"""Real storage failures for tests: a small tmpfs that fills up or turns read-only (when this process may
mount one), and running a command without root's power to ignore file permissions.

Mounting needs root (or CAP_SYS_ADMIN); where it is not allowed, the tests that need it are skipped and the
SQLite-level simulations (``PRAGMA max_page_count``, ``mode=ro``) still run.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

FILL_CHUNK = 4096
# Room for a new library (about 2 MB empty: one 32 KiB page per table and index) and a few transactions of its WAL.
SMALL_DISK_KIB = 8192


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=30)


@contextmanager
def small_disk(folder: Path, size_kib: int = SMALL_DISK_KIB) -> Iterator[Path]:
    """A tmpfs of ``size_kib`` mounted on ``folder`` for the duration; skips the test when mounting fails."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small disk needs root")
    mounted = _run("mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=0755", "tmpfs", str(folder))
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        if _run("umount", str(folder)).returncode != 0:
            _run("umount", "-l", str(folder))  # something still holds a file: detach it anyway


def fill(folder: Path) -> Path:
    """Write a file in ``folder`` until its disk is full; returns the file (delete it to make room)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * FILL_CHUNK)
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise
    finally:
        os.close(fd)
    return filler


def remount_read_only(folder: Path) -> None:
    """Make the tmpfs on ``folder`` read-only (as a disk mounted read-only, or a failing disk, is)."""
    result = _run("mount", "-o", "remount,ro", str(folder))
    assert result.returncode == 0, result.stderr


def remount_writable(folder: Path) -> None:
    result = _run("mount", "-o", "remount,rw", str(folder))
    assert result.returncode == 0, result.stderr


def honouring_permissions() -> list[str]:
    """A prefix for a command that must obey file permissions: as root, ``setpriv`` drops the capabilities that
    let root write a read-only file; as anyone else, nothing is needed."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file permissions cannot be made to apply")
    caps = "-dac_override,-dac_read_search,-fowner"
    return ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}"]
