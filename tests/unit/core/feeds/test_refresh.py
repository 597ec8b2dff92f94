"""Refreshing feeds: the real Refresher against a real HTTP server and a real library file.

Conditional requests, the body-hash shortcut, diff-based merges that keep the user's state, redirects, gone and
protected feeds, Retry-After and back-off, failures that stay with their feed, compression, cancelling, the
per-host limit, parsing in worker processes, and every shared fixture in one refresh.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from urllib.parse import urlparse

import pytest

import earmark.core.feeds.fetch as fetch_module
import earmark.core.feeds.refresh as refresh_module
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.items import get_item, save_progress
from earmark.core.db.merge import FEED_FIELDS
from earmark.core.db.sources import feed_targets, get_source, set_credentials, waiting_feeds
from earmark.core.db.tags import tag_item
from earmark.core.feeds.fetch import fetch
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed
from earmark.core.feeds.parse_worker import NICENESS
from earmark.core.feeds.refresh import INLINE_PARSE_BYTES, FeedOutcome, Refresher
from earmark.core.feeds.subscriptions import import_opml
from earmark.core.models import ProgressUpdate
from earmark.core.settings import set_setting
from earmark.core.timefmt import now_iso
from helpers.feed_server import (
    FeedServer,
    Route,
    basic_auth,
    closed_port,
    fixture_files,
    fixtures_dir,
    gzip_bomb,
    gzip_bytes,
    raw_deflate_bytes,
    rss,
)

Snapshot = Callable[[Database], dict[str, list[tuple[object, ...]]]]

ENTRIES = [
    {"title": "Episode one", "guid": "ep-1", "pubDate": "Mon, 01 Jan 2024 10:00:00 +0000", "duration": "10:00",
     "enclosure": "https://example.com/ep-1.mp3", "description": "The first episode."},
    {"title": "Episode two", "guid": "ep-2", "pubDate": "Tue, 02 Jan 2024 10:00:00 +0000", "duration": "20:00",
     "enclosure": "https://example.com/ep-2.mp3", "description": "The second episode."},
    {"title": "Episode three", "guid": "ep-3", "pubDate": "Wed, 03 Jan 2024 10:00:00 +0000", "duration": "30:00",
     "enclosure": "https://example.com/ep-3.mp3", "description": "The third episode."},
]
FEED = rss("Refresh test show", ENTRIES)
LAST_MODIFIED = "Mon, 01 Jan 2024 12:00:00 GMT"
FAST_TIMEOUT = 0.5  # seconds: what "a slow server" means in these tests


# Helpers: record subscriptions the way an OPML import does (not fetched yet), then refresh them.


@pytest.fixture
def passwords_in_library(library: Database) -> None:
    """Feed passwords kept in the library file, as the user may choose (no keyring in these tests)."""
    set_setting(library, "secrets.store_in_library", True)


def _record(db: Database, *urls: str) -> list[int]:
    """Subscribe to ``urls`` without fetching them; their source ids, in order."""
    result = import_opml(db, OpmlDocument(None, [OpmlFeed(url=url, title=url) for url in urls], []))
    assert result.existing == []
    return result.added


def _refresh(db: Database, source_ids: list[int] | None = None, **options: int) -> list[FeedOutcome]:
    """Refresh the named sources (or every due one) with a fresh Refresher."""
    with Refresher(**options) as refresher:
        return refresher.refresh(db, feed_targets(db, source_ids))


def _one(db: Database, source_id: int) -> FeedOutcome:
    [outcome] = _refresh(db, [source_id])
    assert outcome.source_id == source_id
    return outcome


def _item_ids(db: Database, source_id: int) -> dict[str, int]:
    """Item ids by guid."""
    return {guid: item_id for guid, item_id in
            db.execute("SELECT guid, id FROM items WHERE source_id = ?", [source_id])}


def _items(db: Database, source_id: int | None = None) -> list[tuple[object, ...]]:
    where, args = ("WHERE source_id = ?", [source_id]) if source_id is not None else ("", [])
    return db.execute(f"SELECT * FROM items {where} ORDER BY id", args).fetchall()


def _feed_columns(db: Database, source_id: int) -> list[tuple[object, ...]]:
    """Every item's identity, feed-owned fields and search text (no timestamps), in feed identity order."""
    return db.execute(f"SELECT identity, {', '.join(FEED_FIELDS)}, text FROM items WHERE source_id = ? "
                      "ORDER BY identity", [source_id]).fetchall()


def _add_note(db: Database, item_id: int, text: str) -> None:
    db.execute("INSERT INTO notes (item_id, at, text, created, updated) VALUES (?, 12.5, ?, ?, ?)",
               [item_id, text, now_iso(), now_iso()])
    db.conn.commit()


def _assert_sentence(message: str | None) -> None:
    assert message is not None and message.strip()
    assert "\n" not in message, f"not one line: {message!r}"
    assert "Traceback" not in message and "Error:" not in message and message.endswith((".", ")"))


def _when(iso: str | None) -> datetime:
    assert iso is not None
    return datetime.fromisoformat(iso)


@pytest.fixture
def fast_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refresher's fetches give up on a silent server after FAST_TIMEOUT seconds (the real fetch)."""
    monkeypatch.setattr(refresh_module, "fetch", partial(fetch, timeout=FAST_TIMEOUT))


# Storing, not-modified and merges.


def test_first_refresh_stores_the_items(library: Database, feed_server: FeedServer) -> None:
    url = feed_server.serve_feed("/show.xml", FEED, etag='"v1"')
    [source_id] = _record(library, url)
    assert _items(library) == []

    [outcome] = _refresh(library)

    assert (outcome.source_id, outcome.url, outcome.status, outcome.error) == (source_id, url, "ok", None)
    assert outcome.title == "Refresh test show" and outcome.updated == []
    ids = _item_ids(library, source_id)
    assert sorted(outcome.new) == sorted(ids.values()) and set(ids) == {"ep-1", "ep-2", "ep-3"}
    source = get_source(library, source_id)
    assert (source.title, source.status, source.item_count, source.failures) == ("Refresh test show", "ok", 3, 0)
    assert source.last_checked is not None and source.last_new is not None
    assert outcome.as_json() == {"source_id": source_id, "url": url, "title": "Refresh test show", "status": "ok",
                                 "new": 3, "updated": 0, "error": None, "warning": None}
    [request] = feed_server.received_for("/show.xml")
    assert request.header("If-None-Match") is None and request.header("Authorization") is None
    assert request.header("Accept-Encoding") == "gzip, deflate"


@pytest.mark.parametrize(("validator", "header"), [("etag", "If-None-Match"), ("last_modified", "If-Modified-Since")])
def test_304_is_not_modified_and_writes_no_item(library: Database, feed_server: FeedServer,
                                                snapshot: Snapshot, validator: str, header: str) -> None:
    value = '"v1"' if validator == "etag" else LAST_MODIFIED
    url = feed_server.serve_feed("/show.xml", FEED, etag=value if validator == "etag" else None,
                                 last_modified=value if validator == "last_modified" else None)
    [source_id] = _record(library, url)
    assert _one(library, source_id).status == "ok"
    before = snapshot(library)
    changes = library.conn.total_changes

    outcome = _one(library, source_id)

    assert (outcome.status, outcome.new, outcome.updated, outcome.error) == ("not_modified", [], [], None)
    first, second = feed_server.received_for("/show.xml")
    assert first.header(header) is None and second.header(header) == value
    after = snapshot(library)
    assert after["items"] == before["items"]
    assert library.conn.total_changes - changes == 1  # the source's row (last checked), no item
    assert [row[0] for row in after["sources"]] == [source_id]


def test_same_body_without_validators_is_not_modified_by_its_hash(
    library: Database, feed_server: FeedServer, snapshot: Snapshot,
) -> None:
    url = feed_server.serve_body("/plain.xml", FEED)
    [source_id] = _record(library, url)
    _one(library, source_id)
    before = snapshot(library)
    changes = library.conn.total_changes

    outcome = _one(library, source_id)

    # No 304 was possible (nothing conditional was sent), so "not_modified" means the body was not parsed.
    assert (outcome.status, outcome.new, outcome.updated) == ("not_modified", [], [])
    second = feed_server.received_for("/plain.xml")[1]
    assert second.header("If-None-Match") is None and second.header("If-Modified-Since") is None
    assert snapshot(library)["items"] == before["items"]
    assert library.conn.total_changes - changes == 1


def test_a_new_item_leaves_the_others_and_the_users_state_alone(
    library: Database, feed_server: FeedServer, snapshot: Snapshot,
) -> None:
    url = feed_server.serve_feed("/show.xml", FEED, etag='"v1"')
    [source_id] = _record(library, url)
    _one(library, source_id)
    ids = _item_ids(library, source_id)
    save_progress(library, ProgressUpdate(item_id=ids["ep-1"], position=300.0, duration=600.0))
    save_progress(library, ProgressUpdate(item_id=ids["ep-2"], position=1200.0, duration=1200.0))  # played
    tag_item(library, ids["ep-3"], ["Keepers"])
    _add_note(library, ids["ep-1"], "remember the compiler bit")
    before = snapshot(library)

    fourth = {"title": "Episode four", "guid": "ep-4", "pubDate": "Thu, 04 Jan 2024 10:00:00 +0000",
              "enclosure": "https://example.com/ep-4.mp3"}
    feed_server.serve_feed("/show.xml", rss("Refresh test show", [fourth, *ENTRIES]), etag='"v2"')
    outcome = _one(library, source_id)

    new_id = _item_ids(library, source_id)["ep-4"]
    assert (outcome.status, outcome.new, outcome.updated) == ("ok", [new_id], [])
    after = snapshot(library)
    assert [row for row in after["items"] if row[0] != new_id] == before["items"]
    for table in ("notes", "item_tags", "tags", "source_tags"):
        assert after[table] == before[table], table
    one, two = get_item(library, ids["ep-1"]), get_item(library, ids["ep-2"])
    assert (one.position, one.played, two.played, get_item(library, ids["ep-3"]).tags) == (300.0, False, True,
                                                                                           ["keepers"])
    assert get_source(library, source_id).item_count == 4


def test_an_upstream_change_updates_the_item_in_place(library: Database,
                                                      feed_server: FeedServer) -> None:
    url = feed_server.serve_body("/show.xml", FEED)
    [source_id] = _record(library, url)
    _one(library, source_id)
    ids = _item_ids(library, source_id)
    save_progress(library, ProgressUpdate(item_id=ids["ep-2"], position=77.0, duration=1200.0))
    tag_item(library, ids["ep-2"], ["later"])
    _add_note(library, ids["ep-2"], "note on two")
    untouched = [row for row in _items(library, source_id) if row[0] != ids["ep-2"]]

    changed = [dict(entry) for entry in ENTRIES]
    changed[1].update(title="Episode two (remastered)", description="Now with better audio.",
                      enclosure="https://cdn.example.com/ep-2-v2.mp3")
    feed_server.serve_body("/show.xml", rss("Refresh test show", changed))
    outcome = _one(library, source_id)

    assert (outcome.status, outcome.new, outcome.updated) == ("ok", [], [ids["ep-2"]])
    assert _item_ids(library, source_id) == ids
    item = get_item(library, ids["ep-2"])
    assert (item.title, item.enclosure_url) == ("Episode two (remastered)", "https://cdn.example.com/ep-2-v2.mp3")
    assert "better audio" in item.description
    assert (item.position, item.tags) == (77.0, ["later"])
    assert library.execute("SELECT text FROM notes WHERE item_id = ?", [ids["ep-2"]]).fetchall() == [("note on two",)]
    assert [row for row in _items(library, source_id) if row[0] != ids["ep-2"]] == untouched


def test_an_item_removed_upstream_stays_in_the_library(library: Database,
                                                       feed_server: FeedServer) -> None:
    url = feed_server.serve_body("/show.xml", FEED)
    [source_id] = _record(library, url)
    _one(library, source_id)
    before = _items(library, source_id)

    feed_server.serve_body("/show.xml", rss("Refresh test show", ENTRIES[:2]))
    outcome = _one(library, source_id)

    assert (outcome.status, outcome.new, outcome.updated) == ("ok", [], [])
    assert _items(library, source_id) == before
    assert get_source(library, source_id).item_count == 3


@pytest.mark.parametrize("with_enclosures", [True, False], ids=["matched-by-enclosure", "matched-by-title-and-day"])
def test_a_guid_scheme_change_keeps_the_items(library: Database, feed_server: FeedServer,
                                              with_enclosures: bool) -> None:
    entries = [dict(entry) for entry in ENTRIES]
    if not with_enclosures:
        for entry in entries:
            del entry["enclosure"]
    url = feed_server.serve_body("/show.xml", rss("Refresh test show", entries))
    [source_id] = _record(library, url)
    _one(library, source_id)
    ids = _item_ids(library, source_id)
    save_progress(library, ProgressUpdate(item_id=ids["ep-1"], position=99.0, duration=600.0))
    tag_item(library, ids["ep-3"], ["favourite"])
    _add_note(library, ids["ep-2"], "kept across the guid change")

    rekeyed = [{**entry, "guid": f"https://example.com/?p={n}"} for n, entry in enumerate(entries, 1)]
    feed_server.serve_body("/show.xml", rss("Refresh test show", rekeyed))
    outcome = _one(library, source_id)

    assert outcome.status == "ok" and outcome.new == []
    assert sorted(outcome.updated) == sorted(ids.values())  # the guid column is the feed's, so it changed
    assert _item_ids(library, source_id) == {f"https://example.com/?p={n}": ids[f"ep-{n}"] for n in (1, 2, 3)}
    assert get_source(library, source_id).item_count == 3
    assert get_item(library, ids["ep-1"]).position == 99.0
    assert get_item(library, ids["ep-3"]).tags == ["favourite"]
    assert library.execute("SELECT item_id FROM notes").fetchall() == [(ids["ep-2"],)]

    again = _one(library, source_id)  # and the new scheme is now the known one
    assert (again.status, again.new, again.updated) == ("not_modified", [], [])


# Redirects, gone, auth, Retry-After, back-off.


@pytest.mark.parametrize(("status", "moves"), [(301, True), (308, True), (302, False), (307, False)])
def test_only_a_permanent_redirect_moves_the_feed(library: Database, feed_server: FeedServer,
                                                  status: int, moves: bool) -> None:
    new_url = feed_server.serve_body("/new/show.xml", FEED)
    old_url = feed_server.serve_redirect("/old/show.xml", "/new/show.xml", status)
    [source_id] = _record(library, old_url)

    outcome = _one(library, source_id)

    assert outcome.status == "ok" and len(outcome.new) == 3
    assert get_source(library, source_id).url == (new_url if moves else old_url)
    assert outcome.url == (new_url if moves else old_url)
    _one(library, source_id)
    assert feed_server.requests[-1] == "/new/show.xml"
    assert feed_server.requests.count("/old/show.xml") == (1 if moves else 2)


def test_a_permanent_redirect_to_an_unchanged_feed_still_moves_it(library: Database,
                                                                  feed_server: FeedServer) -> None:
    """The feed moved without changing: the new address answers 304 to the old ETag, and the move is kept."""
    old_url = feed_server.serve_feed("/old.xml", FEED, etag='"same"')
    [source_id] = _record(library, old_url)
    _one(library, source_id)
    new_url = feed_server.serve_feed("/new.xml", FEED, etag='"same"')
    feed_server.serve_redirect("/old.xml", "/new.xml", 301)

    outcome = _one(library, source_id)

    assert outcome.status == "not_modified"
    assert feed_server.received_for("/new.xml")[0].header("If-None-Match") == '"same"'
    assert (outcome.url, get_source(library, source_id).url) == (new_url, new_url)


def test_410_is_gone_and_left_out_until_named(library: Database, feed_server: FeedServer) -> None:
    good_url = feed_server.serve_body("/good.xml", FEED)
    gone_url = feed_server.serve_body("/gone.xml", FEED)
    good_id, gone_id = _record(library, good_url, gone_url)
    _refresh(library)
    items = _items(library, gone_id)

    feed_server.serve_status("/gone.xml", 410)
    outcomes = {o.source_id: o for o in _refresh(library)}

    assert outcomes[gone_id].status == "gone" and "410" in (outcomes[gone_id].error or "")
    _assert_sentence(outcomes[gone_id].error)
    assert outcomes[good_id].status == "not_modified"
    source = get_source(library, gone_id)
    assert (source.status, source.last_error) == ("gone", outcomes[gone_id].error)
    assert _items(library, gone_id) == items  # its items stay
    assert [t.source_id for t in feed_targets(library)] == [good_id]
    assert [t.source_id for t in feed_targets(library, [gone_id])] == [gone_id]
    assert waiting_feeds(library) == 1

    feed_server.serve_body("/gone.xml", FEED)  # it came back: naming it refreshes it, and it is due again
    assert _one(library, gone_id).status == "not_modified"
    assert get_source(library, gone_id).status == "ok"
    assert [t.source_id for t in feed_targets(library)] == [good_id, gone_id]


def test_401_needs_credentials_and_then_sends_them(passwords_in_library: None, library: Database,
                                                  feed_server: FeedServer) -> None:
    url = feed_server.serve_feed("/private.xml", FEED, auth=("reader", "s3cret: with colon"))
    [source_id] = _record(library, url)

    outcome = _one(library, source_id)

    assert outcome.status == "error" and "user name and password" in (outcome.error or "")
    _assert_sentence(outcome.error)
    source = get_source(library, source_id)
    assert (source.status, source.has_credentials, source.item_count) == ("auth", False, 0)

    set_credentials(library, source_id, "reader", "s3cret: with colon")
    [outcome] = _refresh(library)  # an automatic refresh picks it up

    assert (outcome.status, len(outcome.new)) == ("ok", 3)
    first, second = feed_server.received_for("/private.xml")
    assert first.header("Authorization") is None
    assert second.header("Authorization") == basic_auth("reader", "s3cret: with colon")
    source = get_source(library, source_id)
    assert (source.status, source.has_credentials, source.item_count, source.last_error) == ("ok", True, 3, None)


def test_wrong_credentials_stay_an_auth_error(passwords_in_library: None, library: Database,
                                             feed_server: FeedServer) -> None:
    url = feed_server.serve_feed("/private.xml", FEED, auth=("reader", "right"))
    [source_id] = _record(library, url)
    set_credentials(library, source_id, "reader", "wrong")
    assert _one(library, source_id).status == "error"
    assert get_source(library, source_id).status == "auth"
    assert feed_server.received_for("/private.xml")[0].header("Authorization") == basic_auth("reader", "wrong")


def test_credentials_in_the_feed_address_are_sent_and_never_shown(passwords_in_library: None,
                                                                  library: Database,
                                                                  feed_server: FeedServer) -> None:
    """Private feeds are often shared as https://user:password@host/feed: the address's credentials are basic
    auth (urllib would look up "user:password@host" as a host name), and they stay out of error sentences."""
    feed_server.serve_feed("/private.xml", FEED, auth=("reader", "p@ss word"))
    base = f"127.0.0.1:{feed_server.port}"
    good_id, bad_id = _record(library, f"http://reader:p%40ss%20word@{base}/private.xml",
                              f"http://reader:p%40ss%20word@{base}/missing.xml")

    outcomes = {o.source_id: o for o in _refresh(library)}

    assert (outcomes[good_id].status, len(outcomes[good_id].new)) == ("ok", 3)
    assert feed_server.received_for("/private.xml")[0].header("Authorization") == basic_auth("reader", "p@ss word")
    assert outcomes[bad_id].status == "error"
    assert outcomes[bad_id].error == f"http://{base}/missing.xml answered with HTTP error 404 (File not found)."
    good = get_source(library, good_id)  # stored without them, the password kept apart (core/secrets)
    assert (good.url, good.has_credentials) == (f"http://{base}/private.xml", True)


def test_a_moved_feed_keeps_the_credentials_of_its_address(passwords_in_library: None,
                                                           library: Database,
                                                           feed_server: FeedServer) -> None:
    feed_server.serve_feed("/members/new.xml", FEED, auth=("reader", "secret"))
    feed_server.route("/members/old.xml", Route(status=301, location=feed_server.url("/members/new.xml"),
                                                auth=("reader", "secret"), content_type="text/plain"))
    base = f"127.0.0.1:{feed_server.port}"
    [source_id] = _record(library, f"http://reader:secret@{base}/members/old.xml")

    assert _one(library, source_id).status == "ok"

    moved = get_source(library, source_id)
    assert (moved.url, moved.has_credentials) == (f"http://{base}/members/new.xml", True)  # the same origin
    assert _one(library, source_id).status == "not_modified"  # the moved address still authenticates
    assert [r.header("Authorization") for r in feed_server.received] == [basic_auth("reader", "secret")] * 3


def test_credentials_are_not_handed_to_another_server_on_a_redirect(
    passwords_in_library: None, library: Database, feed_server: FeedServer, tmp_path: Path,
) -> None:
    with FeedServer(tmp_path) as other:
        elsewhere = other.serve_body("/feed.xml", FEED)
        url = feed_server.route("/private.xml", Route(status=302, location=elsewhere, auth=("reader", "secret"),
                                                      content_type="text/plain"))
        [source_id] = _record(library, url)
        set_credentials(library, source_id, "reader", "secret")

        assert _one(library, source_id).status == "ok"

        [request] = other.received
    assert feed_server.received[0].header("Authorization") == basic_auth("reader", "secret")
    assert request.header("Authorization") is None


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured(library: Database, feed_server: FeedServer, status: int) -> None:
    good_url = feed_server.serve_body("/good.xml", FEED)
    busy_url = feed_server.serve_status_with("/busy.xml", status, {"Retry-After": "120"})
    good_id, busy_id = _record(library, good_url, busy_url)

    start = datetime.now(UTC)
    outcomes = {o.source_id: o for o in _refresh(library)}

    busy = outcomes[busy_id]
    assert busy.status == "error" and f"HTTP {status}" in (busy.error or "") and "2 min" in (busy.error or "")
    _assert_sentence(busy.error)
    source = get_source(library, busy_id)
    assert (source.status, source.failures) == ("error", 1)
    wait = _when(source.retry_after) - start
    assert timedelta(seconds=118) <= wait <= timedelta(seconds=125), wait
    assert [t.source_id for t in feed_targets(library)] == [good_id]
    assert [t.source_id for t in feed_targets(library, [busy_id])] == [busy_id]
    assert waiting_feeds(library) == 1


def test_retry_after_as_an_http_date(library: Database, feed_server: FeedServer) -> None:
    later = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=3)
    url = feed_server.serve_status_with("/busy.xml", 503, {"Retry-After": later.strftime("%a, %d %b %Y %H:%M:%S GMT")})
    [source_id] = _record(library, url)
    _one(library, source_id)
    assert abs(_when(get_source(library, source_id).retry_after) - later) <= timedelta(seconds=5)


def test_repeated_failures_back_off(library: Database, feed_server: FeedServer) -> None:
    url = feed_server.serve_status("/broken.xml", 500)
    [source_id] = _record(library, url)

    waits = []
    for _ in range(4):
        start = datetime.now(UTC).replace(microsecond=0)
        assert _one(library, source_id).status == "error"
        source = get_source(library, source_id)
        waits.append(None if source.retry_after is None else _when(source.retry_after) - start)
    assert waits[0] is None  # one failure is not a pattern yet
    for wait, hours in zip(waits[1:], (1, 2, 4), strict=True):
        assert wait is not None and timedelta(hours=hours) <= wait <= timedelta(hours=hours, seconds=5)
    assert get_source(library, source_id).failures == 4
    assert feed_targets(library) == [] and waiting_feeds(library) == 1

    library.execute("UPDATE sources SET failures = 12 WHERE id = ?", [source_id])  # the cap: a day at most
    library.conn.commit()
    start = datetime.now(UTC).replace(microsecond=0)
    _one(library, source_id)
    assert timedelta(hours=24) <= _when(get_source(library, source_id).retry_after) - start <= timedelta(hours=24,
                                                                                                         seconds=5)

    feed_server.serve_body("/broken.xml", FEED)  # fixed: one success clears the back-off
    assert _one(library, source_id).status == "ok"
    source = get_source(library, source_id)
    assert (source.status, source.failures, source.retry_after, source.last_error) == ("ok", 0, None, None)
    assert [t.source_id for t in feed_targets(library)] == [source_id]


# One bad feed among good ones.

NOT_XML = b"<?xml version='1.0'?><rss version='2.0'><channel><title>Broken</title><item><title>cut"
BadFeed = Callable[[FeedServer, str], str]  # (server, path) -> the URL of a feed that fails that way
BAD_FEEDS: dict[str, BadFeed] = {
    "closed port": lambda _, path: f"http://127.0.0.1:{closed_port()}{path}",
    "500": lambda s, path: s.serve_status(path, 500),
    "404": lambda s, path: s.serve_status(path, 404),
    "html page": lambda s, path: s.serve_body(path, b"<html><body><p>Maintenance</p></body></html>", "text/html"),
    "malformed xml": lambda s, path: s.serve_body(path, NOT_XML),
    "binary": lambda s, path: s.serve_body(path, bytes(range(256)) * 16, "application/octet-stream"),
    "truncated body": lambda s, path: s.serve_truncated(path, rss("Cut", ENTRIES * 50), 700),
    "truncated gzip": lambda s, path: s.serve_encoded(path, gzip_bytes(rss("Cut", ENTRIES * 50))[:400], "gzip"),
    "bad gzip": lambda s, path: s.serve_encoded(path, b"this is not gzip at all", "gzip"),
    "slow server": lambda s, path: s.serve_slow(path, delay=5.0, body=FEED),
    "not http": lambda s, path: s.serve_raw(path, b"SSH-2.0-OpenSSH_9.0\r\n"),
    "redirect loop": lambda s, path: s.serve_redirect(path, path, 302),
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("case", list(BAD_FEEDS))
def test_one_failing_feed_never_stops_the_others(library: Database, feed_server: FeedServer,
                                                 fast_timeout: None, case: str) -> None:
    good_urls = [feed_server.serve_body(f"/good-{n}.xml", rss(f"Good {n}", ENTRIES)) for n in range(3)]
    bad_url = BAD_FEEDS[case](feed_server, "/bad.xml")
    ids = _record(library, good_urls[0], bad_url, *good_urls[1:])
    bad_id = ids[1]

    outcomes = {o.source_id: o for o in _refresh(library, workers=2)}

    assert sorted(outcomes) == sorted(ids)
    bad = outcomes.pop(bad_id)
    if case == "malformed xml" and bad.status == "ok":  # recovered as far as it goes, and said so
        _assert_sentence(bad.warning)
    else:
        assert (bad.status, bad.new) == ("error", [])
        _assert_sentence(bad.error)
        source = get_source(library, bad_id)
        assert (source.status, source.last_error, source.item_count) == ("error", bad.error, 0)
    for outcome in outcomes.values():
        assert (outcome.status, len(outcome.new), outcome.error) == ("ok", 3, None)


@pytest.mark.timeout(20)
def test_every_kind_of_failure_in_one_refresh(library: Database, feed_server: FeedServer,
                                              fast_timeout: None) -> None:
    bad_urls = [make(feed_server, f"/bad-{n}.xml") for n, make in enumerate(BAD_FEEDS.values())]
    good_urls = [feed_server.serve_body(f"/good-{n}.xml", rss(f"Good {n}", ENTRIES)) for n in range(3)]
    ids = _record(library, *bad_urls, *good_urls)

    outcomes = _refresh(library)

    assert sorted(o.source_id for o in outcomes) == sorted(ids)
    by_url = {o.url: o for o in outcomes}
    for url in good_urls:
        assert (by_url[url].status, len(by_url[url].new)) == ("ok", 3)
    for url in bad_urls:
        outcome = by_url[url]
        assert outcome.status in ("ok", "error")
        _assert_sentence(outcome.error if outcome.status == "error" else outcome.warning)
    assert sum(o.status == "error" for o in outcomes) >= len(bad_urls) - 1  # all but perhaps the malformed one


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw deflate"])
def test_compressed_bodies_parse(library: Database, feed_server: FeedServer, encoding: str) -> None:
    if encoding == "raw deflate":  # some servers send deflate without its zlib header
        url = feed_server.serve_encoded("/packed.xml", raw_deflate_bytes(FEED), "deflate")
    else:
        url = feed_server.serve_compressed("/packed.xml", FEED, encoding)
    plain_url = feed_server.serve_body("/plain.xml", FEED)
    packed_id, plain_id = _record(library, url, plain_url)

    outcomes = {o.source_id: o for o in _refresh(library)}

    assert (outcomes[packed_id].status, len(outcomes[packed_id].new)) == ("ok", 3)
    assert _feed_columns(library, packed_id) == _feed_columns(library, plain_id)
    assert feed_server.received_for("/packed.xml")[0].header("Accept-Encoding") == "gzip, deflate"


def test_a_gzip_bomb_is_a_clear_error(library: Database, feed_server: FeedServer,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetch_module, "MAX_FEED_BYTES", 1024 * 1024)
    bomb = gzip_bomb(64 * 1024 * 1024)
    assert len(bomb) < 100 * 1024
    bomb_url = feed_server.serve_encoded("/bomb.xml", bomb, "gzip")
    good_url = feed_server.serve_compressed("/good.xml", FEED, "gzip")
    bomb_id, good_id = _record(library, bomb_url, good_url)

    outcomes = {o.source_id: o for o in _refresh(library)}

    assert outcomes[bomb_id].status == "error"
    assert outcomes[bomb_id].error == f"{bomb_url} is larger than 1 MB, too large for a feed."
    assert (outcomes[good_id].status, len(outcomes[good_id].new)) == ("ok", 3)
    assert _items(library, bomb_id) == []


# Cancelling, the per-host limit, worker processes.


def test_cancel_stops_starting_feeds_and_leaves_the_library_consistent(library: Database,
                                                                        feed_server: FeedServer) -> None:
    # Each answer takes a moment, so the one worker is still fetching the second feed when the first outcome
    # cancels: without the delay it could fetch them all before the caller has seen the first.
    urls = [feed_server.serve_feed(f"/feed-{n}.xml", rss(f"Feed {n}", ENTRIES), delay=0.2) for n in range(6)]
    ids = _record(library, *urls)
    cancel = threading.Event()
    seen: list[FeedOutcome] = []

    def first_and_stop(outcome: FeedOutcome) -> None:
        seen.append(outcome)
        cancel.set()

    with Refresher(workers=1) as refresher:
        outcomes = refresher.refresh(library, feed_targets(library), on_outcome=first_and_stop, cancel=cancel)

    assert outcomes == seen
    assert 1 <= len(outcomes) <= 2  # the first, and at most the one the worker had already started
    assert len(feed_server.requests) == len(outcomes)
    done = {o.source_id for o in outcomes}
    for source_id in ids:
        source = get_source(library, source_id)
        if source_id in done:
            assert (source.status, source.item_count, source.title) == ("ok", 3, f"Feed {ids.index(source_id)}")
        else:
            assert (source.last_checked, source.item_count, source.failures) == (None, 0, 0)
    assert library.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert {t.source_id for t in feed_targets(library)} == set(ids)  # the skipped ones are still due


def test_a_finished_refresh_leaves_the_callers_event_alone(library: Database,
                                                           feed_server: FeedServer) -> None:
    """A caller may keep one Event for "cancel the refresh in progress": finishing must not trip it."""
    ids = _record(library, feed_server.serve_body("/a.xml", FEED), feed_server.serve_body("/b.xml", FEED))
    cancel = threading.Event()
    with Refresher() as refresher:
        assert len(refresher.refresh(library, feed_targets(library), cancel=cancel)) == 2
        assert not cancel.is_set()
        again = refresher.refresh(library, feed_targets(library), cancel=cancel)
    assert sorted(o.source_id for o in again) == ids


def test_an_error_in_the_callback_cancels_the_rest(library: Database, feed_server: FeedServer) -> None:
    _record(library, *(feed_server.serve_feed(f"/f{n}.xml", FEED, delay=0.2) for n in range(5)))
    cancel = threading.Event()

    def fail(_outcome: FeedOutcome) -> None:
        raise OSError("No space left on device")

    with Refresher(workers=1) as refresher, pytest.raises(OSError):
        refresher.refresh(library, feed_targets(library), on_outcome=fail, cancel=cancel)
    assert cancel.is_set()
    assert len(feed_server.requests) <= 2


@pytest.mark.parametrize("per_host", [1, 2])
def test_the_per_host_limit_is_respected(library: Database, feed_server: FeedServer,
                                         per_host: int) -> None:
    urls = [feed_server.serve_feed(f"/slow-{n}.xml", rss(f"Slow {n}", ENTRIES), delay=0.15) for n in range(6)]
    _record(library, *urls)

    outcomes = _refresh(library, workers=6, per_host=per_host)

    assert [o.status for o in outcomes] == ["ok"] * 6
    assert feed_server.max_concurrent == per_host


def _big_feed(count: int) -> bytes:
    entries = [{"title": f"Episode {n}: a fairly long title about compilers", "guid": f"big-{n}",
                "pubDate": f"Mon, 01 Jan 2024 {n % 24:02d}:{n % 60:02d}:00 +0000", "duration": f"{n % 90}:00",
                "enclosure": f"https://example.com/big/{n}.mp3",
                "description": f"Show notes for episode {n}. " + "Lorem ipsum dolor sit amet. " * 4}
               for n in range(count)]
    return rss("A big feed", entries)


@pytest.mark.timeout(60)
def test_a_big_feed_parses_in_a_worker_process_like_inline(tmp_path: Path, feed_server: FeedServer) -> None:
    body = _big_feed(1500)
    assert len(body) > INLINE_PARSE_BYTES
    url = feed_server.serve_body("/big.xml", body)
    results = {}
    for processes in (1, 2):  # one process: parsed inline; two: the pool
        db = open_library(tmp_path / f"library-{processes}.db")
        try:
            [source_id] = _record(db, url)
            with Refresher(processes=processes) as refresher:
                children = set(multiprocessing.active_children())
                [outcome] = refresher.refresh(db, feed_targets(db))
                started = set(multiprocessing.active_children()) - children
                niceness = {os.getpriority(os.PRIO_PROCESS, process.pid or 0) for process in started}
            assert (processes > 1) == bool(started), started
            # below this process's priority, so that its writer keeps a core
            assert niceness <= {min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)}, niceness
            assert (outcome.status, len(outcome.new), outcome.warning) == ("ok", 1500, None)
            results[processes] = _feed_columns(db, source_id)
        finally:
            db.close()
    assert results[2] == results[1]
    assert len(results[1]) == 1500


@pytest.mark.timeout(60)
def test_a_dead_parsing_process_fails_one_feed_not_the_refresh(library: Database,
                                                                feed_server: FeedServer) -> None:
    """A parsing process can die (the OOM killer, a crash in C code): that feed fails, the others go on, and
    the next big feed gets new processes."""
    url = feed_server.serve_body("/big.xml", _big_feed(1500))
    small_urls = [feed_server.serve_body(f"/small-{n}.xml", rss(f"Small {n}", ENTRIES)) for n in range(3)]
    [big_id] = _record(library, url)
    with Refresher(processes=2) as refresher:
        children = set(multiprocessing.active_children())
        assert refresher.refresh(library, feed_targets(library))[0].status == "ok"
        parsers = set(multiprocessing.active_children()) - children
        assert parsers
        for process in parsers:  # processes this test started (through the refresher), by their id
            assert process.pid is not None
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        feed_server.serve_body("/big.xml", _big_feed(1501))
        small_ids = _record(library, *small_urls)

        outcomes = {o.source_id: o for o in refresher.refresh(library, feed_targets(library))}

        assert (outcomes[big_id].status, outcomes[big_id].new) == ("error", [])
        _assert_sentence(outcomes[big_id].error)
        assert [(outcomes[i].status, len(outcomes[i].new)) for i in small_ids] == [("ok", 3)] * 3
        assert get_source(library, big_id).item_count == 1500

        [again] = refresher.refresh(library, feed_targets(library, [big_id]))
        assert (again.status, len(again.new)) == ("ok", 1)


# Every shared fixture, in one refresh.

NOT_FEEDS = {  # in feeds/, but not feeds (see the fixtures README and test_feeds.py)
    "ns__docs__schema__podcast-example.xml",
    "fp__wellformed__cdf__channel_abstract_map_description.xml",
}


@pytest.mark.timeout(120)
def test_every_fixture_in_one_refresh(library: Database, feed_server: FeedServer,
                                      snapshot: Snapshot) -> None:
    root = fixtures_dir()
    paths = fixture_files("feeds", "feeds-malformed", "hostile")
    urls = {feed_server.url(path.relative_to(root).as_posix()): path for path in paths}
    good_url = feed_server.serve_body("/earmark-tests/good.xml", FEED)
    [good_id] = _record(library, good_url)
    _refresh(library)
    good_before = snapshot(library)["items"]
    _record(library, *urls)
    targets = feed_targets(library)
    assert len(targets) == len(paths) + 1

    with Refresher() as refresher:
        outcomes = refresher.refresh(library, targets)

    assert len(outcomes) == len(targets)
    assert sorted(o.source_id for o in outcomes) == sorted(t.source_id for t in targets)
    failures = []
    for outcome in outcomes:
        if outcome.url == good_url:
            assert outcome.status == "not_modified"
            continue
        path = urls[outcome.url]
        assert outcome.status in ("ok", "error"), outcome
        if outcome.status == "error":
            _assert_sentence(outcome.error)
            failures.append(path)
        elif outcome.warning is not None:
            _assert_sentence(outcome.warning)
        source = get_source(library, outcome.source_id)
        assert (source.status, source.last_error) == (outcome.status, outcome.error)
    must_work = [p for p in paths if p.parent.name == "feeds" and p.suffix != ".json" and p.name not in NOT_FEEDS]
    assert [p.name for p in failures if p in must_work] == []
    assert all(p.suffix == ".json" for p in failures if p.parent.name == "feeds" and p.name not in NOT_FEEDS)
    for url, enclosure in library.execute("SELECT url, enclosure_url FROM items"):
        for link in (url, enclosure):  # a web feed points only at the web
            assert link is None or urlparse(link).scheme in ("http", "https"), link
    assert [row for row in snapshot(library)["items"] if row[1] == good_id] == good_before


# Small pieces the refresh relies on.


def test_as_json_is_the_cli_contract() -> None:
    outcome = FeedOutcome(7, "https://example.com/f.xml", "F", "error", error="It broke.")
    assert outcome.as_json() == {"source_id": 7, "url": "https://example.com/f.xml", "title": "F",
                                 "status": "error", "new": 0, "updated": 0, "error": "It broke.", "warning": None}


def test_items_stored_before_schema_11_learn_their_length_without_counting_as_updated(
        library: Database, feed_server: FeedServer) -> None:
    url = feed_server.serve_body("/show.xml", FEED)
    [source_id] = _record(library, url)
    _one(library, source_id)
    ids = _item_ids(library, source_id)
    with library.conn:  # as a library upgraded to schema 11 holds them: no length known
        library.execute("UPDATE items SET enclosure_length = NULL")
        library.execute("DELETE FROM graph_dirty")
    feed_server.serve_body("/show.xml", rss("Refresh test show", [*ENTRIES, {
        "title": "Episode four", "guid": "ep-4", "enclosure": "https://cdn.example.com/ep-4.mp3"}]))
    outcome = _one(library, source_id)
    assert (len(outcome.new), outcome.updated) == (1, [])  # the list does not say every episode changed
    assert library.execute("SELECT DISTINCT enclosure_length FROM items").fetchall() == [(1000,)]
    dirty = {row[0] for row in library.execute("SELECT item_id FROM graph_dirty")}
    assert not dirty & set(ids.values())  # nor are they searched and related again
