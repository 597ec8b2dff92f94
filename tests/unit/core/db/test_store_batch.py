"""A batch of feeds inserts the new items of all its feeds with one statement, and stores the search vocabulary the
parsing worked out with their text instead of reading it back: the same library as before, item for item."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import earmark.core.db.bulk as bulk
import earmark.core.db.search_words as search_words
from earmark.core.db.database import Database
from earmark.core.db.sources import feed_targets
from earmark.core.feeds.fetch import Fetched
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed
from earmark.core.feeds.parse import parse_feed, parse_with_text
from earmark.core.feeds.refresh import CheckedFeed, store_batch
from earmark.core.feeds.subscriptions import import_opml
from helpers.feed_server import rss
from helpers.search_index import assert_index_in_step

NOTES = ["<p>Fully Sharded Data Parallel (FSDP) meets AOTAutograd and TorchDynamo.</p>",
         "<p>(PT2) and CUDAGraphs, with torch.compile.</p>", "<p>Plain words only.</p>"]


def _feed(feed: int, count: int) -> bytes:
    return rss(f"Show {feed}", [{"title": f"PyTorch 2 in TensorAccessor {feed}.{n}" if n % 2 else f"Episode {n}",
                                 "guid": f"s{feed}-e{n}", "enclosure": f"https://cdn.example/{feed}/{n}.mp3",
                                 "description": NOTES[(feed + n) % len(NOTES)]} for n in range(count)])


def _checked(db: Database, counts: list[int], with_text: bool = True) -> list[CheckedFeed]:
    """Feed n (subscribed on first use) checked with ``counts[n]`` items, parsed as a first import or a refresh
    does."""
    if not db.execute("SELECT count(*) FROM sources").fetchone()[0]:
        import_opml(db, OpmlDocument(None, [OpmlFeed(url=f"https://feeds.example/{n}.xml", title=f"Feed {n}")
                                            for n in range(len(counts))], []))
    parse = parse_with_text if with_text else parse_feed
    checked = []
    for n, target in enumerate(feed_targets(db)):
        body = _feed(target.source_id, counts[n])
        checked.append(CheckedFeed(target, Fetched(body, target.url), parse(body, target.url)))
    return checked


def test_a_batch_inserts_its_feeds_new_items_with_one_statement(library: Database,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _checked(library, [3, 0, 4, 2])
    inserts: list[int] = []
    real = bulk._insert

    def counted(db: Database, columns: Sequence[str], rows: Sequence[bulk.Row]) -> dict[bulk.ItemKey, int]:
        inserts.append(len(rows))
        return real(db, columns, rows)

    monkeypatch.setattr(bulk, "_insert", counted)
    outcomes = store_batch(library, checked)
    assert inserts == [9]
    assert [len(outcome.new) for outcome in outcomes] == [3, 0, 4, 2]
    stored = [row[0] for row in library.execute("SELECT id FROM items ORDER BY source_id, id")]
    assert [item for outcome in outcomes for item in outcome.new] == stored  # ids grow in the feeds' order
    news = dict(library.execute("SELECT id, last_new IS NOT NULL FROM sources").fetchall())
    assert [news[outcome.source_id] for outcome in outcomes] == [1, 0, 1, 1]


def test_a_feed_stored_twice_in_one_batch_sees_its_items_of_the_first_time(library: Database) -> None:
    [first] = _checked(library, [3])
    [again] = _checked(library, [5])
    outcomes = store_batch(library, [first, again])
    assert [(len(outcome.new), outcome.updated) for outcome in outcomes] == [(3, []), (2, [])]
    assert library.execute("SELECT count(*) FROM items").fetchone()[0] == 5


def test_the_vocabulary_found_with_the_text_is_the_one_learnt_from_the_library(library: Database,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Compound names and acronyms, one defined across the title and the show notes ("... Parallel" / "(FSDP)"):
    stored without reading a text back, and exactly what learning every stored item again gives."""
    checked = _checked(library, [6, 5, 4])
    assert any(entry.vocabulary and entry.vocabulary[1] for one in checked for entry in one.feed.entries)
    learnt_texts: list[str] = []
    monkeypatch.setattr(search_words, "learn_texts", lambda _conn, texts: learnt_texts.extend(texts))
    store_batch(library, checked)
    monkeypatch.undo()
    assert learnt_texts == []
    words = library.execute("SELECT * FROM search_words ORDER BY 1, 2").fetchall()
    aliases = library.execute("SELECT * FROM search_aliases ORDER BY 1, 2").fetchall()
    assert ("autograd", "aotautograd") in words and ("fsdp", "fully sharded data parallel") in aliases
    assert_index_in_step(library)
    search_words.relearn_all(library.conn)
    assert library.execute("SELECT * FROM search_words ORDER BY 1, 2").fetchall() == words
    assert library.execute("SELECT * FROM search_aliases ORDER BY 1, 2").fetchall() == aliases


def test_items_parsed_without_their_vocabulary_are_learnt_from_their_text(library: Database) -> None:
    store_batch(library, _checked(library, [4, 3], with_text=False))
    assert library.execute("SELECT count(*) FROM search_words WHERE word = 'aotautograd'").fetchone()[0] > 0
    assert_index_in_step(library)
