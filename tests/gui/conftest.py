"""GUI fixtures: the real main window on a real library, with real VLC (audio to a dummy output)."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.feeds.subscribe import subscribe
from helpers.gui import launch, sample  # noqa: F401 - fixtures for every GUI test
from helpers.podcast import Episode, write_podcast

EPISODES = [Episode("Newest episode", 6.0), Episode("Middle episode", 6.0), Episode("Short episode", 2.0)]


@pytest.fixture
def podcast_feed(tmp_path: Path) -> Path:
    return write_podcast(tmp_path / "cast", EPISODES)


@pytest.fixture
def with_podcast(library_path: Path, podcast_feed: Path) -> None:
    """The library holds the test podcast (3 WAV episodes)."""
    subscribe(open_library(library_path), str(podcast_feed))
