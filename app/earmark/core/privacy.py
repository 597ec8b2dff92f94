"""Private by default: what Earmark writes (the library, its -wal and -shm, backups, downloads, exports) can be
read by its user only, whatever the umask; folders 0700, files 0600, and those made by older versions are
tightened when the library opens."""

from __future__ import annotations

import glob
import logging
import os
import stat
import tempfile
from pathlib import Path

from earmark.core.user_folders import user_folder

log = logging.getLogger(__name__)

PRIVATE_UMASK = 0o077
FOLDER_MODE = 0o700
FILE_MODE = 0o600
LIBRARY_SUFFIXES = ("", "-wal", "-shm", "-journal")


def private_umask() -> None:
    """Every file and folder this process creates from now on is its user's only (the entry point calls it)."""
    os.umask(PRIVATE_UMASK)


def make_private(path: Path) -> None:
    """Take group's and others' permissions off a file or folder of the user's (never follows a symlink, never
    touches what belongs to someone else); a failure is logged, not raised: it must not stop Earmark."""
    try:
        info = path.lstat()
    except OSError:
        return
    if stat.S_ISLNK(info.st_mode) or info.st_uid != os.getuid() or not info.st_mode & 0o077:
        return
    try:
        path.chmod(stat.S_IMODE(info.st_mode) & (FOLDER_MODE if stat.S_ISDIR(info.st_mode) else FILE_MODE))
    except OSError as exc:
        log.warning("Could not make %s private: %s", path, exc)


def private_folder(folder: Path) -> Path:
    """Create ``folder`` (and missing parents) as 0700; tighten it when it exists."""
    missing = [parent for parent in (folder, *folder.parents) if not parent.exists()]
    folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    for created in missing:
        make_private(created)  # mkdir's mode reaches the last folder only
    make_private(folder)
    return folder


def make_tree_private(folder: Path) -> None:
    """Tighten a folder Earmark owns and everything in it."""
    if not folder.is_dir() or folder.is_symlink():
        return
    make_private(folder)
    for root, folders, files in os.walk(folder):
        for name in (*folders, *files):
            make_private(Path(root) / name)


_TIGHTENED: set[Path] = set()  # libraries tightened by this process: the window opens a connection per thread


def tighten_library(library: Path, backups: Path) -> None:
    """The library file and its companions, and its backups folder (once per process)."""
    if library.absolute() in _TIGHTENED:
        return
    _TIGHTENED.add(library.absolute())
    for suffix in LIBRARY_SUFFIXES:
        make_private(library.with_name(library.name + suffix))
    for leftover in library.parent.glob(f"{glob.escape(library.name)}.*"):  # migration backups, restores waiting
        make_private(leftover)
    make_tree_private(backups)


def tighten_downloads(folder: Path, files: list[Path]) -> None:
    """The downloads folder, and the files Earmark downloaded into it with their folders (never the user's own
    files that share the folder)."""
    make_private(folder)
    for file in files:
        make_private(file)
        parent = file.parent
        while folder in parent.parents:  # the podcasts' folders inside it
            make_private(parent)
            parent = parent.parent


# Of the 107 bytes a Unix socket's path may have, what the folder may take: the rest is the socket's name,
# "/earmark-" and 16 hex digits (gui/single_instance.py); a longer folder left no room (a home of ~80 characters
# gave 110 bytes: the window could not listen, and every link opened a window of its own).
SOCKET_PATH_ROOM = 107 - len("/earmark-") - 16


def runtime_folder() -> Path:
    """A folder for this user's sockets and lock files that no one else can write into or even look into:
    ``$XDG_RUNTIME_DIR/earmark`` (when that folder is really the user's), else ``~/.cache/earmark/run``, else
    ``/tmp/earmark-<uid>``; each is checked to be a real folder of this user's, mode 0700. When none can be
    had (someone else made them first), a new private folder of this process's own: the window then runs on
    its own, without handing over to another."""
    candidates = []
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and _owned_and_closed(Path(runtime)):
        candidates.append(Path(runtime) / "earmark")
    candidates.append(user_folder("cache") / "run")
    candidates.append(Path(tempfile.gettempdir()) / f"earmark-{os.getuid()}")
    for folder in candidates:
        if len(str(folder)) <= SOCKET_PATH_ROOM and _claim(folder):
            return folder
    log.warning("No private folder for Earmark's socket could be had; this window runs on its own")
    return Path(tempfile.mkdtemp(prefix="earmark-"))


def _owned_and_closed(folder: Path) -> bool:
    """Whether ``folder`` is a real folder of this user's that no one else may write into."""
    try:
        info = folder.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o022


def _claim(folder: Path) -> bool:
    """Create ``folder`` 0700, or accept it when it is already this user's own (tightened to 0700)."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        folder.mkdir(mode=FOLDER_MODE)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        info = folder.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return False  # a symlink or someone else's folder: never used
    make_private(folder)
    return not folder.lstat().st_mode & 0o077
