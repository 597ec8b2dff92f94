"""One podcast, one subscription (core/feeds/identity.py): how addresses compare, and a feed that moves (a permanent
redirect, ``itunes:new-feed-url``) keeping its subscription, episodes, positions and notes. Real library file, real
HTTP server on 127.0.0.1."""

from __future__ import annotations

import pytest

from earmark.core.db.database import Database
from earmark.core.db.items import get_item, save_progress
from earmark.core.db.notes import add_note, list_notes
from earmark.core.db.sources import feed_targets, list_sources
from earmark.core.feeds.identity import find_subscription
from earmark.core.feeds.refresh import FeedOutcome, Refresher
from earmark.core.feeds.subscribe import subscribe
from earmark.core.models import ProgressUpdate
from earmark.core.urls import address_key
from helpers.feed_server import FeedServer, rss

ENTRIES = [{"title": f"Episode {n}", "guid": f"e-{n}", "enclosure": f"https://cdn.example.com/{n}.mp3"}
           for n in range(1, 4)]
FEED = rss("Moving Show", ENTRIES)


@pytest.mark.parametrize(("one", "other"), [
    ("https://www.example.com/feed.xml", "http://example.com/feed.xml"),
    ("https://example.com/feed.xml", "https://EXAMPLE.com/feed.xml/"),
    ("https://example.com:443/feed.xml", "http://example.com:80/feed.xml"),
    ("https://example.com/feed", "https://alice:pw@example.com/feed"),
    ("https://example.com/a%20b", "https://example.com/a b"),
    ("https://example.com", "https://example.com/"),
])
def test_addresses_of_one_feed_compare_equal(one: str, other: str) -> None:
    assert address_key(one) == address_key(other)


@pytest.mark.parametrize(("one", "other"), [
    ("https://example.com/feed.xml", "https://example.com/Feed.xml"),  # paths are case-sensitive
    ("https://example.com/feed.xml", "https://example.com:8443/feed.xml"),
    ("https://example.com/feed?id=1", "https://example.com/feed?id=2"),
    ("https://feeds.example.com/feed", "https://example.com/feed"),
    ("file:///home/a/feed.xml", "file:///home/a/Feed.xml"),
])
def test_other_addresses_do_not(one: str, other: str) -> None:
    assert address_key(one) != address_key(other)


def refresh(db: Database) -> list[FeedOutcome]:
    with Refresher(processes=1) as refresher:
        return refresher.refresh(db, feed_targets(db))


def listened(db: Database, feed_server: FeedServer, path: str) -> tuple[int, int]:
    """Subscribe to the feed at ``path``; its second episode half heard and noted. Its source and that episode."""
    result = subscribe(db, feed_server.serve_body(path, FEED))
    item_id = result.item_ids["guid:e-2"]
    save_progress(db, ProgressUpdate(item_id=item_id, position=125.0, duration=3600.0))
    add_note(db, item_id, "Keep this", 120.0)
    return result.source_id, item_id


def assert_kept(db: Database, source_id: int, item_id: int, url: str) -> None:
    [source] = list_sources(db)
    assert (source.id, source.url, source.item_count) == (source_id, url, 3)
    assert get_item(db, item_id).position == 125.0
    assert [note.text for note in list_notes(db)] == ["Keep this"]


def test_a_permanent_redirect_moves_the_subscription_with_everything(library: Database,
                                                                    feed_server: FeedServer) -> None:
    source_id, item_id = listened(library, feed_server, "old.xml")
    new = feed_server.serve_body("new.xml", FEED)
    feed_server.serve_redirect("old.xml", "new.xml", 301)
    [outcome] = refresh(library)
    assert (outcome.status, outcome.url) == ("not_modified", new)
    assert_kept(library, source_id, item_id, new)
    known = find_subscription(library, [feed_server.url("old.xml")])  # added by its old address: the same
    assert known is not None and known.source_id == source_id


def test_a_feed_naming_its_new_address_moves_the_subscription_with_everything(library: Database,
                                                                              feed_server: FeedServer) -> None:
    source_id, item_id = listened(library, feed_server, "old.xml")
    new = feed_server.serve_body("new.xml", FEED.replace(b"Moving Show", b"Moved Show"))
    moved = FEED.replace(b"<channel>", f"<channel><itunes:new-feed-url>{new}</itunes:new-feed-url>".encode())
    feed_server.serve_body("old.xml", moved)
    [outcome] = refresh(library)
    assert (outcome.status, outcome.url, outcome.new) == ("ok", new, [])
    assert_kept(library, source_id, item_id, new)
    before = len(feed_server.requests)
    [outcome] = refresh(library)  # read from its new address from now on
    assert feed_server.requests[before:] == ["/new.xml"] and outcome.title == "Moved Show"
    assert_kept(library, source_id, item_id, new)
    again = subscribe(library, feed_server.url("old.xml"))
    assert (again.source_id, again.already, again.new) == (source_id, True, [])
    assert_kept(library, source_id, item_id, new)


def test_a_feed_naming_its_own_address_as_new_stays(library: Database, feed_server: FeedServer) -> None:
    url = feed_server.url("feed.xml")
    body = FEED.replace(b"<channel>", f"<channel><itunes:new-feed-url>{url}/</itunes:new-feed-url>".encode())
    feed_server.serve_body("feed.xml", body)
    result = subscribe(library, url)
    assert [source.url for source in list_sources(library)] == [url]
    assert not result.already


@pytest.mark.parametrize("how", ["301", "new-feed-url", "301, subscribed again"])
def test_a_feed_moving_to_another_subscriptions_address_is_merged_into_it(library: Database, feed_server: FeedServer,
                                                                         how: str) -> None:
    """The podcast was subscribed to twice (its old and its new address): once the old one says where it moved, the
    two become one, every episode once, the position and note heard on the old one kept."""
    new = subscribe(library, feed_server.serve_body("new.xml", FEED))
    source_id, item_id = listened(library, feed_server, "old.xml")
    if how.startswith("301"):
        feed_server.serve_redirect("old.xml", "new.xml", 301)
    else:
        feed_server.serve_body("old.xml", FEED.replace(
            b"<channel>", f"<channel><itunes:new-feed-url>{feed_server.url('new.xml')}</itunes:new-feed-url>".encode()))
    if how.endswith("subscribed again"):
        assert subscribe(library, feed_server.url("old.xml")).source_id == new.source_id
    else:
        assert {outcome.source_id for outcome in refresh(library)} == {new.source_id}
    kept = new.item_ids["guid:e-2"]
    assert_kept(library, new.source_id, kept, feed_server.url("new.xml"))
    assert library.execute("SELECT count(*) FROM items WHERE id = ?", [item_id]).fetchone()[0] == 0
    assert [note.item_id for note in list_notes(library)] == [kept]
    again = subscribe(library, feed_server.url("old.xml"))
    assert (again.source_id, again.already, again.new) == (new.source_id, True, [])
    assert source_id != new.source_id
