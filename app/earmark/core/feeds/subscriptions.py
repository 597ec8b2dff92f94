"""Subscription lists in and out: OPML import (feeds recorded with their folder tags) and export."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.sources import set_credentials
from earmark.core.db.tags import tag_source, tags_for_sources
from earmark.core.errors import NoKeyringError
from earmark.core.feeds.identity import find_subscription
from earmark.core.feeds.opml import OpmlDocument, OpmlFeed, read_opml
from earmark.core.feeds.opml_write import write_opml, written_title
from earmark.core.files import read_file, write_file
from earmark.core.records import record
from earmark.core.timefmt import now_iso
from earmark.core.urls import Userinfo, shown_address, split_userinfo

MAX_OPML_BYTES = 10 * 1024 * 1024


@record
class ImportResult:
    """What an OPML import recorded: new subscriptions, ones already there, and outlines it could not use."""

    added: list[int] = field(default_factory=list)
    existing: list[int] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def source_ids(self) -> list[int]:
        """Every subscription the file lists, new or not."""
        return [*self.added, *self.existing]


def read_opml_file(path: Path) -> OpmlDocument:
    """Read and parse an OPML file; a sentence (UnreachableError or FeedError) when that fails."""
    return read_opml(read_file(path, "an OPML file", MAX_OPML_BYTES, "a subscription list"), path.name)


def import_opml(db: Database, document: OpmlDocument) -> ImportResult:
    """Record every feed of the document as a subscription (not fetched yet) and tag it with its folders.

    The title the list gives a new feed is kept as the user's (``user_title``): refreshes leave it unless the
    feed itself has that title. Feeds already subscribed keep their data and gain the folder tags. One
    transaction; then the passwords that came inside addresses (``https://alice:pw@host/feed``) go to the
    keyring, the addresses stored without.
    """
    result = ImportResult(skipped=list(document.skipped))
    credentials: list[tuple[int, Userinfo]] = []
    with write_transaction(db):
        for feed in document.feeds:
            titled = feed.title != feed.url  # an outline without a title is shown by its address
            source_id, new, parts = record_subscription_of(db, feed.url, feed.title if titled else None,
                                                           feed.html_url, user_title=titled)
            (result.added if new else result.existing).append(source_id)
            tag_source(db, source_id, feed.tags)
            if parts.user is not None:
                credentials.append((source_id, parts))
    result.skipped += keep_credentials(db, credentials)
    return result


def record_subscription_of(db: Database, typed: str, title: str | None = None,
                           html_url: str | None = None, *, user_title: bool = False
                           ) -> tuple[int, bool, Userinfo]:
    """``record_subscription`` of an address as typed or received, the credentials it may carry
    (``https://alice:pw@host/feed``) taken out: they are returned, to go to the keyring (``keep_credentials``)."""
    parts = split_userinfo(typed)
    return (*record_subscription(db, parts.url, title, html_url, user_title=user_title), parts)


def keep_credentials(db: Database, credentials: list[tuple[int, Userinfo]]) -> list[str]:
    """Keep the credentials that came inside subscriptions' addresses (in the keyring: call it outside a
    transaction); a sentence for each password that could not be kept."""
    said = []
    for source_id, parts in credentials:
        try:
            set_credentials(db, source_id, parts.user, parts.password)
        except NoKeyringError as exc:
            said.append(f"The password of {parts.url} was not stored: {exc}")
    return said


def record_subscription(db: Database, url: str, title: str | None = None,
                        html_url: str | None = None, *, user_title: bool = False) -> tuple[int, bool]:
    """The id of the subscription to ``url`` (however written), recorded (not fetched yet) when new; and whether it
    is new.
    ``user_title``: ``title`` is the user's choice, which refreshes keep. Without a title it is shown by its
    address, never with a password the address carries."""
    with write_transaction(db):
        known = find_subscription(db, [url])  # the same podcast however its address is written (identity.py)
        if known is not None:
            return known.source_id, False
        shown = title or shown_address(url)
        cursor = db.execute("INSERT INTO sources (kind, title, user_title, url, link, added) "
                            "VALUES ('podcast', ?, ?, ?, ?, ?)", [shown, user_title, url, html_url, now_iso()])
        return int(cursor.lastrowid or 0), True


def export_opml(db: Database) -> bytes:
    """Every feed subscription as an OPML 2.0 document, tags as folders and categories, by title (then address,
    so that a list imported and exported again is the same)."""
    tags = tags_for_sources(db)
    rows = db.execute("SELECT id, url, title, link FROM sources WHERE url IS NOT NULL")
    feeds = [OpmlFeed(url=url, title=title, tags=tags.get(source_id, []), html_url=link)
             for source_id, url, title, link in rows]
    feeds.sort(key=lambda feed: (written_title(feed).casefold(), written_title(feed), feed.url))
    return write_opml(feeds, "Earmark subscriptions")


def save_opml(db: Database, path: Path) -> int:
    """Write every subscription to ``path`` as OPML, never leaving half a file; returns how many."""
    write_file(path, export_opml(db))
    return int(db.execute("SELECT count(*) FROM sources WHERE url IS NOT NULL").fetchone()[0])
