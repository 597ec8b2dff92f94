"""At start, what an older version left readable by others is tightened: Earmark's own data folder and the
downloads (the library and its backups are tightened whenever the library opens, see connection.py)."""

from __future__ import annotations

from pathlib import Path

from earmark.core.db.database import Database
from earmark.core.privacy import make_private, tighten_downloads
from earmark.core.settings import default_data_folder, downloads_folder


def tighten_data(db: Database) -> None:
    """The user data folder (``~/.local/share/earmark``) and the downloads folder with what was downloaded."""
    make_private(default_data_folder())
    tighten_downloads(downloads_folder(db), [Path(path) for (path,) in db.execute("SELECT path FROM downloads")])
