"""One podcast, one subscription: the addresses and ids a feed is known by, and the subscription they name.

Two addresses name one feed when they differ only in scheme (http/https), a leading ``www.``, a trailing slash,
a default port, the host's letter case or credentials (``urls.address_key``). A subscription is also known by the
addresses it was read from before a permanent redirect, its feed's own ``atom:link rel="self"`` and
``itunes:new-feed-url`` (kept in ``source_addresses``), and by its ``podcast:guid``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from earmark.core.db.bulk import settle
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.source_merge import merge_sources
from earmark.core.db.sources import move_source
from earmark.core.models import FeedData, SourceKind
from earmark.core.records import record
from earmark.core.urls import address_key

_COLUMNS = "s.id, s.title, s.url, s.kind"


@record
class Subscription:
    """A subscription a feed was recognised as: its id, title, stored address and kind (podcast or site)."""

    source_id: int
    title: str
    url: str
    kind: SourceKind = "podcast"


def feed_addresses(url: str, feed: FeedData) -> list[str]:
    """The addresses a feed read from ``url`` is known by: that one, its self link and its new address."""
    return [address for address in (url, feed.self_url, feed.new_feed_url) if address]


def find_subscription(db: Database, addresses: Iterable[str], guid: str | None = None,
                      besides: int | None = None) -> Subscription | None:
    """The subscription known by any of ``addresses`` (however written) or by the podcast ``guid`` (other than
    ``besides``); None when there is none."""
    keys = {address_key(address) for address in addresses}
    hosts = {re.split(r"[/?]", key, maxsplit=1)[0] for key in keys}  # a cheap first cut, in SQL: the host named
    rows = sorted({row for host in hosts for row in db.execute(
        f"SELECT {_COLUMNS} FROM sources s WHERE url IS NOT NULL AND id IS NOT ? AND instr(lower(url), ?)",
        [besides, host])})
    found = next((row for row in rows if address_key(row[2]) in keys), None)
    if found is None and keys:
        marks = ", ".join("?" * len(keys))
        found = db.execute(f"""SELECT {_COLUMNS} FROM source_addresses a JOIN sources s ON s.id = a.source_id
                               WHERE a.address IN ({marks}) AND s.id IS NOT ? ORDER BY s.id""",
                           [*sorted(keys), besides]).fetchone()
    if found is None and guid:
        found = db.execute(f"""SELECT {_COLUMNS} FROM sources s WHERE url IS NOT NULL AND podcast_guid = ?
                               AND id IS NOT ? ORDER BY id""", [guid, besides]).fetchone()
    return Subscription(int(found[0]), str(found[1]), str(found[2]), found[3]) if found else None


@record
class KnownFeeds:
    """What the library's subscriptions are known by, read once (off the UI thread) to be asked of many feeds
    without the database: ``addresses`` their ``address_key``s (stored, then kept in ``source_addresses``),
    ``guids`` their podcast:guids (lower case), each to its source id."""

    addresses: dict[str, int]
    guids: dict[str, int]

    def source_of(self, address: str, guid: str = "") -> int | None:
        """The subscription ``address`` (however written) or ``guid`` names, as ``find_subscription`` finds it;
        None when there is none."""
        found = self.addresses.get(address_key(address)) if address else None
        return found if found is not None else self.guids.get(guid.strip().lower()) if guid else None


def known_feeds(db: Database) -> KnownFeeds:
    """Every subscription's addresses and podcast:guid (see ``KnownFeeds``)."""
    rows = db.execute("SELECT id, url, podcast_guid FROM sources WHERE url IS NOT NULL ORDER BY id DESC").fetchall()
    addresses = {str(key): int(source_id) for key, source_id in db.execute(
        "SELECT address, source_id FROM source_addresses ORDER BY source_id DESC")}
    addresses |= {address_key(str(url)): int(source_id) for source_id, url, _guid in rows}  # the stored win
    guids = {str(guid).strip().lower(): int(source_id) for source_id, _url, guid in rows if guid}
    return KnownFeeds(addresses, guids)


def remember_addresses(db: Database, source_id: int, addresses: Iterable[str]) -> None:
    """Keep ``addresses`` as ones the subscription is known by (an address another one claimed stays theirs)."""
    db.conn.executemany("INSERT OR IGNORE INTO source_addresses (address, source_id) VALUES (?, ?)",
                        [(address_key(address), source_id) for address in set(addresses)])


def join_known(db: Database, source_id: int, addresses: Iterable[str], guid: str | None) -> Subscription | None:
    """A subscription recorded but never read (from a subscription list) whose feed, once read, is a podcast
    subscribed to already: it is dropped, that one taking its tags and address. Returns that one; None when the
    feed is another podcast (or the subscription holds episodes)."""
    if db.execute("SELECT 1 FROM items WHERE source_id = ? LIMIT 1", [source_id]).fetchone():
        return None
    addresses = list(addresses)
    known = find_subscription(db, addresses, guid, besides=source_id)
    if known is None:
        return None
    url = db.execute("SELECT url FROM sources WHERE id = ?", [source_id]).fetchone()[0]
    db.execute("UPDATE OR IGNORE source_tags SET source_id = ? WHERE source_id = ?", [known.source_id, source_id])
    db.execute("DELETE FROM sources WHERE id = ?", [source_id])
    remember_addresses(db, known.source_id, [url, *addresses])
    return known


def new_address(url: str, feed: FeedData) -> str | None:
    """Where the feed read from ``url`` says it moved (``itunes:new-feed-url``), unless that is ``url`` written
    otherwise."""
    moved = feed.new_feed_url
    return moved if moved and address_key(moved) != address_key(url) else None


def move_subscription(db: Database, source_id: int, new_url: str) -> int:
    """Move the subscription to ``new_url`` (a permanent redirect, or its feed's new address) with its episodes,
    positions and notes; when another subscription has that address (the podcast subscribed to twice), this one is
    merged into it. Returns the subscription now at ``new_url``."""
    old_url = db.execute("SELECT url FROM sources WHERE id = ?", [source_id]).fetchone()[0]
    if move_source(db, source_id, new_url):
        kept = source_id
    else:
        kept = int(db.execute("SELECT id FROM sources WHERE url = ?", [new_url]).fetchone()[0])
        with write_transaction(db):
            for staged in (source_id, kept):
                settle(db, staged)  # the items a refresh batch staged for them are in the library first
            merge_sources(db.conn, source_id, kept)
    with write_transaction(db):
        remember_addresses(db, kept, [old_url])
    return kept
