"""Subscribing to a feed: fetch and parse (no library access), then store in one transaction."""

from __future__ import annotations

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.merge import CacheState, store_feed
from earmark.core.db.sources import record_failure, set_credentials
from earmark.core.errors import AuthRequiredError, EarmarkError, NoKeyringError, UnreachableError
from earmark.core.feeds.fetch import Fetched, Validators, body_hash, canonical_source, fetch, plain_http_fallback
from earmark.core.feeds.identity import (
    feed_addresses,
    find_subscription,
    move_subscription,
    new_address,
    remember_addresses,
)
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import FeedData, SubscribeResult
from earmark.core.records import record
from earmark.core.secrets.feeds import forget_on_move
from earmark.core.urls import origin, split_userinfo


@record
class ReadFeed:
    """A feed fetched and parsed, with the address to store it under and what the next fetch sends."""

    url: str
    feed: FeedData
    cache: CacheState
    user: str | None = None  # the credentials it took, stored with the subscription
    password: str | None = None
    final_url: str | None = None  # where redirects led, even temporary ones (not stored, but the same podcast)
    read_from: str = ""  # the address asked, before redirects (a moved podcast is known by it too)


@record
class NeedsCredentials:
    """The feed's server asked for a user name and password."""

    url: str
    message: str


def cache_state(fetched: Fetched) -> CacheState:
    """The validators and body hash to store after a successful fetch."""
    return CacheState(fetched.etag, fetched.last_modified, body_hash(fetched.data))


def read_feed(source: str, user: str | None = None, password: str | None = None) -> ReadFeed:
    """Fetch and parse the feed at ``source`` (network and CPU work; touches no library). Credentials typed
    into the address (``https://alice:pw@host/feed``) are taken out of it: the address is stored without
    them, the password goes to the keyring. They are kept only while the feed stays on that origin."""
    parts = split_userinfo(canonical_source(source))
    url, user, password = parts.url, user if user is not None else parts.user, password or parts.password
    try:
        fetched = fetch(url, Validators(user=user, password=password))
    except AuthRequiredError:
        raise
    except UnreachableError:
        if (http_url := plain_http_fallback(source)) is None:
            raise
        url = http_url  # a link naming no scheme, to a feed served over plain http only
        fetched = fetch(url, Validators(user=user, password=password))
    feed = parse_feed(fetched.data, fetched.url, fetched.content_type)
    moved = fetched.moved_to or url
    if origin(moved) != origin(url):
        user = password = None  # never given to the new server (fetch did not send them there either)
    return ReadFeed(moved, feed, cache_state(fetched), user, password, fetched.url, url)


def try_read_feed(source: str, user: str | None = None, password: str | None = None) -> ReadFeed | NeedsCredentials:
    """``read_feed``, with a server's request for credentials as a result instead of an error."""
    try:
        return read_feed(source, user, password)
    except AuthRequiredError as exc:
        return NeedsCredentials(split_userinfo(canonical_source(source)).url, str(exc))


def store_read_feed(db: Database, source: str, read: ReadFeed) -> SubscribeResult:
    """Store a feed read by ``read_feed``; a subscription whose feed moved for good follows it. A podcast
    subscribed to under another address (identity.py) is not stored again: ``already`` says so."""
    old_url = read.read_from or split_userinfo(canonical_source(source)).url  # as read: a scheme tried
    if read.url != old_url and (row := db.execute("SELECT id FROM sources WHERE url = ?", [old_url]).fetchone()):
        if move_subscription(db, int(row[0]), read.url) == int(row[0]):  # else merged into the one there
            forget_on_move(db, int(row[0]), old_url, read.url)
    fetched_from = [old_url, read.url, *([read.final_url] if read.final_url else [])]
    addresses = [*fetched_from, *feed_addresses(read.final_url or read.url, read.feed)]
    known = find_subscription(db, addresses, read.feed.podcast_guid)
    url = read.url
    if known is not None and known.url != url:
        if find_subscription(db, fetched_from) != known:  # known by its self link, new address or guid: kept as is
            with write_transaction(db):
                remember_addresses(db, known.source_id, addresses)  # known at once by these addresses next time
            return SubscribeResult(known.source_id, known.title, already=True)
        url = known.url  # its own address written otherwise: read again into it
    result = store_feed(db, url, read.feed, read.cache)
    result.already = known is not None
    with write_transaction(db):
        remember_addresses(db, result.source_id, addresses)
    if (moved := new_address(url, read.feed)) is not None:  # itunes:new-feed-url: followed as a permanent redirect
        kept = move_subscription(db, result.source_id, moved)  # another subscription's address: merged into it
        if kept == result.source_id:
            forget_on_move(db, kept, url, moved)
        result.source_id = kept
    if read.user is not None:
        try:
            set_credentials(db, result.source_id, read.user, read.password)
        except NoKeyringError as exc:
            raise NoKeyringError(f"Subscribed to {result.title}, but without its password: {exc}") from exc
    return result


def subscribe(db: Database, source: str) -> SubscribeResult:
    """Subscribe to (or re-read) the feed at an http(s) URL or a local path; nothing is stored on failure
    except the failure itself on an existing subscription."""
    url = split_userinfo(canonical_source(source)).url
    try:
        read = read_feed(source)
    except EarmarkError as exc:
        note_failure_at(db, url, str(exc))
        raise
    return store_read_feed(db, url, read)


def note_failure_at(db: Database, url: str, message: str) -> None:
    """Keep a failure on the subscription at ``url``, however its address is written there (identity.py)."""
    known = find_subscription(db, [url])
    record_failure(db, known.url if known else url, message)
