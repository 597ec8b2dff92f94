"""Whole local files in and out, with a plain sentence when the disk says no."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from earmark.core.errors import UnreachableError
from earmark.core.privacy import make_private


def read_file(path: Path, kind: str, max_bytes: int | None = None, purpose: str = "") -> bytes:
    """The bytes of ``path``; UnreachableError with a sentence when it is missing, a folder, unreadable, or
    (with ``max_bytes``) larger than that. ``kind`` says what the file should be ("an OPML file"), ``purpose``
    what it would be too large for ("a subscription list")."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):  # a device or a pipe could read forever
            raise UnreachableError(f"{path} is not a file (a device or a pipe), so it is not {kind}.")
        if max_bytes is not None and info.st_size > max_bytes:
            raise UnreachableError(f"{path} is larger than {max_bytes // (1024 * 1024)} MB, too large for {purpose}.")
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise UnreachableError(f"There is no file {path}.") from exc
    except IsADirectoryError as exc:
        raise UnreachableError(f"{path} is a folder, not {kind}.") from exc
    except OSError as exc:
        raise UnreachableError(f"{path} cannot be read: {exc.strerror}.") from exc


def write_file(path: Path, data: str | bytes) -> None:
    """Write ``path`` whole or not at all (through a temporary file beside it); UnreachableError with a
    sentence when the disk says no."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        # Created its user's only (0600) whatever the umask: exports hold notes, listening history, feeds.
        with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        make_private(partial)  # an older partial file kept its mode
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise UnreachableError(f"Could not write {path}: {exc.strerror or exc}.") from exc
