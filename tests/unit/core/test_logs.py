"""The window's warnings also go to a log file in the cache folder (Help ▸ About says where): created at the first
warning, not before."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.logs import log_path, log_to_file


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    before = list(logging.getLogger().handlers)
    yield tmp_path / "cache"
    for handler in set(logging.getLogger().handlers) - set(before):
        logging.getLogger().removeHandler(handler)
        handler.close()


def test_warnings_reach_the_log_file_and_a_quiet_start_writes_none(cache: Path) -> None:
    path = log_to_file()
    assert path == log_path() == cache / "earmark" / "earmark.log"
    logging.getLogger("earmark.test").info("not kept")
    assert not path.exists()
    logging.getLogger("earmark.test").warning("The feed %s could not be read.", "https://example.com/f.xml")
    assert "WARNING earmark.test: The feed https://example.com/f.xml could not be read." in path.read_text()


def test_no_folder_for_it_leaves_standard_error_alone(cache: Path) -> None:
    cache.write_text("a file where the folder would be")
    assert log_to_file() is None
