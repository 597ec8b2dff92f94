"""A library with something in every sidebar entry, for journeys that visit them all."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.downloads import add_download, update_download
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items, save_progress
from earmark.core.db.reading import set_archived
from earmark.core.db.smart_lists import save_smart_list
from earmark.core.models import ProgressUpdate

STARTED = "Compiler collectives"  # an episode half heard: Continue listening holds it
DOWNLOADED = "Higher order operators"  # an episode downloaded
ARCHIVED = "Pytorch Weekly - #1, May 2nd 2023"  # an article in the archive
ARTICLE = "PyTorch Shanghai Meetup Notes"  # the newest item: an article
SMART_LIST = "Inductor episodes"


@pytest.fixture
def every_view(library_path: Path, tmp_path: Path, sample: None) -> None:
    """The sample library with something in every sidebar entry: an episode begun, one downloaded, an article
    archived and a smart list."""
    db = open_library(library_path)
    ids = {item.title: item.id for item in list_items(db, ItemFilter())}
    save_progress(db, ProgressUpdate(ids[STARTED], 5.0))
    download = add_download(db, ids[DOWNLOADED], tmp_path / "downloads")
    Path(download.path).parent.mkdir(parents=True, exist_ok=True)
    Path(download.path).write_bytes(b"ID3")  # a downloaded file (never played here)
    update_download(db, ids[DOWNLOADED], "done", received=3, size=3)
    set_archived(db, [ids[ARCHIVED]], True)
    save_smart_list(db, SMART_LIST, ItemFilter(kind="episode", text="inductor"))
    db.close()
