"""The window's log file: its warnings and errors (a feed that could not be read, a quit that hung…) go to
standard error, which nobody sees when the desktop starts Earmark, and to ``earmark.log`` in the cache folder,
where Help ▸ About says it is."""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

from earmark.core.user_folders import user_folder

LOG_BYTES, LOG_KEEP = 512 * 1024, 2  # the file, then two older ones: at most 1.5 MB
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_path() -> Path:
    """Where the window's log is written."""
    return user_folder("cache") / "earmark.log"


def log_to_file() -> Path | None:
    """Write warnings and errors to ``log_path()`` too (opened at the first one: a start writes nothing); None,
    standard error alone, when its folder cannot be made."""
    path = log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    handler = RotatingFileHandler(path, maxBytes=LOG_BYTES, backupCount=LOG_KEEP, encoding="utf-8", delay=True)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    logging.getLogger().addHandler(handler)
    return path
