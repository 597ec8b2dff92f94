"""The window's child processes run the installed Earmark, whatever folder it was started from: a folder holding
an ``earmark/`` of its own (a clone of the repository in ~/earmark, with the desktop starting apps in $HOME)
must not be what they import."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.feeds.refresh import INLINE_PARSE_BYTES
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import set_setting
from earmark.gui.feed_refresh import RefreshSummary
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch

REFRESH_MS = 30_000


@pytest.fixture
def decoy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A start folder holding a decoy ``earmark`` package that leaves a mark and fails when imported."""
    folder = tmp_path / "home"
    package = folder / "earmark"
    package.mkdir(parents=True)
    mark = tmp_path / "decoy-imported"
    (package / "__init__.py").write_text(f"open({str(mark)!r}, 'a').write('imported\\n')\n"
                                         "raise ImportError('the decoy earmark package was imported')\n")
    (package / "__main__.py").write_text("raise SystemExit('the decoy earmark ran')\n")
    monkeypatch.chdir(folder)
    return mark


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def test_a_refresh_started_from_a_folder_with_an_earmark_package_runs_the_real_one(
        qtbot: QtBot, launch: Launch, library_path: Path, server: FeedServer, decoy: Path) -> None:
    entries = [{"title": f"Episode {n}", "guid": f"e-{n}", "description": "Words. " * 60,
                "enclosure": f"https://example.com/{n}.mp3"} for n in range(120)]
    db = open_library(library_path)
    subscribe(db, server.serve_body("/small.xml", rss("Small Show", entries[:1])))
    big = rss("Big Show", entries)
    assert len(big) > INLINE_PARSE_BYTES  # parsed in the refresh's worker processes: their start is checked too
    subscribe(db, server.serve_body("/big.xml", rss("Big Show", entries[:1])))
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    server.serve_body("/small.xml", rss("Small Show", entries[:2]))
    server.serve_body("/big.xml", big)
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2)

    with qtbot.waitSignal(window.feeds.refresher.finished, timeout=REFRESH_MS) as blocker:
        qtbot.keyClick(window.item_list, Qt.Key.Key_F5)
    summary: RefreshSummary = blocker.args[0]
    assert summary.error is None, summary.error
    assert (summary.checked, summary.new, summary.failed) == (2, 120, 0)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 122)
    assert not decoy.exists()
