"""Where a library's backups lie (``backups/`` beside it) and where a backup being restored waits, and finishing
a restore that stopped part-way. Both connection.py (which finishes such a restore before it opens a library)
and backups.py (which makes and restores backups) build on this module."""

from __future__ import annotations

import re
from pathlib import Path

FOLDER = "backups"


def backups_folder(library: Path) -> Path:
    """The folder beside the library that holds its backups."""
    return library.parent / FOLDER


def restoring_path(library: Path) -> Path:
    """Where a backup being restored waits, complete, for the library's name (see core/db/backups.py)."""
    return library.with_name(library.name + ".restoring")


def finish_interrupted_restore(library: Path) -> None:
    """Complete a restore that stopped part-way (called by open_library before it opens ``library``).

    The checked copy waits as ``library.restoring``. If the library's -wal was already moved aside but not the
    library, the library follows it; if the library is already gone, the copy takes its place. A copy made
    but with nothing moved yet is dropped: that restore did not happen."""
    waiting = restoring_path(library)
    if not waiting.exists():
        return
    if library.exists():
        pattern = re.compile(rf"{re.escape(library.stem)}-\d{{4}}-\d\d-\d\d-\d{{6}}-before-restore(?:-\d+)?"
                             rf"{re.escape(library.suffix)}(?:-wal|-shm)")
        try:
            sides = [p for p in backups_folder(library).iterdir() if pattern.fullmatch(p.name)]
        except OSError:
            sides = []
        mains = {side.with_name(side.name[:-len("-wal")]) for side in sides}  # "-wal" and "-shm": same length
        orphans = sorted((main for main in mains if not main.exists()), reverse=True)
        if not orphans:
            waiting.unlink()
            return
        library.replace(orphans[0])
    waiting.replace(library)
