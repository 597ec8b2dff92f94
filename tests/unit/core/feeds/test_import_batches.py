"""A first import writes feeds in batches, works HTML out once per item, where the parsing runs, and reports each
feed once its batch is committed: the real Refresher against a real HTTP server and a real library file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import earmark.core.feeds.refresh as refresh_module
import earmark.core.html as html_module
from earmark.core.db.compaction import compaction_due
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.sources import feed_targets
from earmark.core.feeds.fetch import Fetched
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed
from earmark.core.feeds.parse import parse_with_text
from earmark.core.feeds.refresh import INLINE_PARSE_BYTES, CheckedFeed, FeedOutcome, Refresher, store_batch
from earmark.core.feeds.subscriptions import import_opml
from helpers.feed_server import FeedServer, rss


def _episodes(feed: int, count: int, notes: str = "") -> bytes:
    return rss(f"Show {feed}", [{"title": f"Show {feed}, episode {n}", "guid": f"s{feed}-e{n}",
                                 "enclosure": f"https://cdn.example/{feed}/{n}.mp3",
                                 "pubDate": f"Mon, {1 + n % 28:02d} Jan 2024 10:00:00 +0000",
                                 "description": f"<p>Episode <b>{n}</b> of show {feed}.</p>{notes}"}
                                for n in range(count)])


def _subscribe(db: Database, urls: list[str]) -> None:
    import_opml(db, OpmlDocument(None, [OpmlFeed(url=url, title=url) for url in urls], []))


class Flattened:
    """Counts the HTML fragments flattened to text in this process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.markups: list[str] = []
        real = html_module._to_text

        def counting(markup: str) -> str:
            self.markups.append(markup)
            return real(markup)

        monkeypatch.setattr(html_module, "_to_text", counting)


@pytest.mark.timeout(60)
def test_a_first_import_flattens_show_notes_in_the_parsing_processes(library: Database,
                                                                      feed_server: FeedServer,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    body = _episodes(1, 400, "<ul><li>a link</li></ul>" * 10)
    assert len(body) > INLINE_PARSE_BYTES  # parsed in a worker process
    url = feed_server.serve_body("/big.xml", body)
    _subscribe(library, [url])
    flattened = Flattened(monkeypatch)
    with Refresher(processes=2) as refresher:
        [outcome] = refresher.refresh(library, feed_targets(library))
    assert (outcome.status, len(outcome.new)) == ("ok", 400)
    assert flattened.markups == []  # not one in this process: the writer only wrote rows
    texts = [row[0] for row in library.execute("SELECT text FROM items ORDER BY id")]
    assert texts == [f"Episode {n} of show 1.\n" + "\n".join(["a link"] * 10) for n in range(400)]


@pytest.mark.timeout(60)
def test_a_known_feed_flattens_only_its_new_items(library: Database, feed_server: FeedServer,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    url = feed_server.serve_body("/big.xml", _episodes(1, 400, "<p>notes</p>" * 20))
    _subscribe(library, [url])
    with Refresher(processes=2) as refresher:
        refresher.refresh(library, feed_targets(library))
        feed_server.serve_body("/big.xml", _episodes(1, 401, "<p>notes</p>" * 20))
        flattened = Flattened(monkeypatch)
        [outcome] = refresher.refresh(library, feed_targets(library))
    assert len(outcome.new) == 1
    assert [markup[:30] for markup in flattened.markups] == ["<p>Episode <b>400</b> of show "]


def test_an_article_body_is_flattened_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An article without a duration: its body gives its reading time and its search text."""
    body = ('<rss version="2.0"><channel><title>Blog</title>' + "".join(
        f"<item><title>Post {n}</title><guid>p{n}</guid><description>&lt;p&gt;Post {n} body, with words.&lt;/p&gt;"
        "</description></item>" for n in range(5)) + "</channel></rss>").encode()
    flattened = Flattened(monkeypatch)
    feed = parse_with_text(body, "https://blog.example/feed.xml")
    bodies = [markup for markup in flattened.markups if markup.startswith("<p>")]
    assert len(bodies) == len(set(bodies)) == 5
    assert [entry.kind for entry in feed.entries] == ["article"] * 5
    assert [entry.text for entry in feed.entries] == [f"Post {n} body, with words." for n in range(5)]
    assert all(entry.duration for entry in feed.entries)  # the reading time, from the same text


@pytest.mark.timeout(60)
def test_feeds_that_arrive_together_are_stored_and_reported_each_whole(tmp_path: Path,
                                                                        feed_server: FeedServer) -> None:
    """Progress is per feed: each outcome is reported once its batch has committed, with that feed's items
    all readable by another connection (the window's) at that moment."""
    urls = [feed_server.serve_body(f"/feed-{n}.xml", _episodes(n, 30)) for n in range(40)]
    path = tmp_path / "batches.db"
    db = open_library(path)
    _subscribe(db, urls)
    reader = sqlite3.connect(path)
    seen: list[tuple[FeedOutcome, int]] = []

    def on_outcome(outcome: FeedOutcome) -> None:
        count = reader.execute("SELECT count(*) FROM items WHERE source_id = ?", [outcome.source_id]).fetchone()[0]
        seen.append((outcome, count))

    try:
        with Refresher() as refresher:
            outcomes = refresher.refresh(db, feed_targets(db), on_outcome=on_outcome)
    finally:
        reader.close()
        db.close()
    assert sorted(outcome.url for outcome in outcomes) == sorted(urls)
    assert [outcome for outcome, _count in seen] == outcomes  # each feed reported once, as it is stored
    assert [(outcome.status, len(outcome.new), count) for outcome, count in seen] == [("ok", 30, 30)] * 40


def test_a_batch_that_fails_keeps_none_of_its_feeds(library: Database, feed_server: FeedServer) -> None:
    """The feeds of a batch share one transaction: when storing one fails (here a bug: an item kind the library
    refuses), the feeds before it in the batch are not kept half-done either, and nothing is left open."""
    urls = [feed_server.serve_body(f"/feed-{n}.xml", _episodes(n, 3)) for n in range(2)]
    _subscribe(library, urls)
    checked = []
    for target in feed_targets(library):
        body = _episodes(target.source_id, 3)
        checked.append(CheckedFeed(target, Fetched(body, target.url), parse_with_text(body, target.url)))
    broken = checked[1].feed
    assert broken is not None
    broken.entries[2].kind = "video"  # type: ignore[assignment]  # not an ItemKind: the library's CHECK refuses it
    with pytest.raises(sqlite3.IntegrityError):
        store_batch(library, checked)
    assert not library.conn.in_transaction
    assert library.execute("SELECT count(*) FROM items").fetchone()[0] == 0
    assert [row[0] for row in library.execute("SELECT last_checked FROM sources")] == [None, None]
    broken.entries[2].kind = "episode"
    assert [outcome.status for outcome in store_batch(library, checked)] == ["ok", "ok"]
    assert library.execute("SELECT count(*) FROM items").fetchone()[0] == 6


def test_an_import_of_many_items_leaves_a_compaction_due(library: Database, feed_server: FeedServer,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refresh_module, "COMPACT_AFTER_NEW", 30)
    _subscribe(library, [feed_server.serve_body("/small.xml", _episodes(1, 20))])
    with Refresher(processes=1) as refresher:
        assert len(refresher.refresh(library, feed_targets(library))[0].new) == 20
        assert not compaction_due(library.conn)  # 20 new items: no
        _subscribe(library, [feed_server.serve_body("/big.xml", _episodes(2, 40))])
        assert [len(outcome.new) for outcome in refresher.refresh(library, feed_targets(library))] == [0, 40]
    assert compaction_due(library.conn)  # 40 in one refresh
