"""A refresh or import run in a terminal that leaves a compaction due (many new items: the indexes grew a page
split at a time) compacts the library before it ends, so the file it leaves is the size it stays; the window's
own refreshes (--jsonl) leave it to the window, which compacts in the background."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.compaction import compaction_due
from earmark.core.db.connection import open_library
from earmark.core.feeds import refresh as refresh_module
from helpers.cli import Cli
from helpers.feed_server import FeedServer, rss


def _opml_of(tmp_path: Path, feed_server: FeedServer, name: str) -> Path:
    entries = [{"title": f"Episode {n}", "guid": f"{name}-{n}", "enclosure": f"https://example.com/{name}{n}.mp3",
                "description": f"<p>Show notes of episode {n}, long enough to be worth packing.</p>"}
               for n in range(40)]
    url = feed_server.serve_body(f"/{name}.xml", rss(name.title(), entries))
    path = tmp_path / f"{name}.opml"
    path.write_text(f'<opml version="2.0"><body><outline type="rss" text="{name}" xmlUrl="{url}"/></body></opml>')
    return path


def _due(library: Path) -> bool:
    db = open_library(library)
    try:
        return compaction_due(db.conn)
    finally:
        db.close()


def test_an_import_in_a_terminal_compacts_what_it_grew_before_it_ends(
        cli: Cli, feed_server: FeedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refresh_module, "COMPACT_AFTER_NEW", 30)
    code, out, err = cli("import-opml", str(_opml_of(tmp_path, feed_server, "big")))
    assert code == 0, err
    assert "40 new items" in out
    assert "Compacting the library: 0 %" in err and "Compacted the library:" in err
    assert not _due(cli.library)


def test_the_windows_import_leaves_the_compaction_to_the_window(
        cli: Cli, feed_server: FeedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refresh_module, "COMPACT_AFTER_NEW", 30)
    code, _out, err = cli("import-opml", str(_opml_of(tmp_path, feed_server, "big")), "--jsonl")
    assert code == 0, err
    assert "Compact" not in err
    assert _due(cli.library)
