"""Refreshing many feeds: fetches in parallel (bounded overall and per host), big parses in worker
processes, and every write on the caller's connection, one short transaction per feed."""

from __future__ import annotations

import concurrent.futures
import concurrent.futures.process
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import field
from urllib.parse import urlparse

from earmark.core.db.bulk import inserted_together
from earmark.core.db.compaction import mark_compaction_due
from earmark.core.db.connection import batch_transaction, write_transaction
from earmark.core.db.database import Database
from earmark.core.db.sources import FeedTarget, record_checked, record_failure
from earmark.core.errors import AuthRequiredError, EarmarkError, FeedError, GoneError, RetryLaterError
from earmark.core.feeds.fetch import Fetched, Validators, body_hash, fetch
from earmark.core.feeds.identity import (
    feed_addresses,
    join_known,
    move_subscription,
    new_address,
    remember_addresses,
)
from earmark.core.feeds.parse_worker import parse_packed, parsed, start_parser, unpacked
from earmark.core.models import FeedData
from earmark.core.records import record
from earmark.core.secrets.feeds import forget_on_move

WORKERS = 8  # connections at once
PER_HOST = 3  # connections at once to one server
# Smaller bodies are parsed in the fetching thread; bigger ones in worker processes, one per core: feedparser
# holds the GIL, so threads alone would leave all but one core idle (measured: 26 s instead of ~15 s for 300 feeds).
# They run at a lower priority (parse_worker.NICENESS), so that this process's writer (or GUI) keeps its core.
INLINE_PARSE_BYTES = 32 * 1024
# Feeds whose checks arrive while a batch is written are stored together in one transaction, up to this many
# entries (about 0.2 s of writing): a first import writes few big transactions, and its progress still moves.
BATCH_ENTRIES = 5000
# A small batch waits this long for more feeds before it is written (each transaction costs a commit; 300 feeds
# answering 304 are recorded in a few transactions instead of 150).
GATHER_SECONDS = 0.05
WRITE_CACHE_KIB = 64 * 1024
# A refresh adding this many items (a first import) leaves a compaction due: the window runs it next, in the
# background (about 7 MB of a 100,000-item import's 300 are its indexes' half-filled pages).
COMPACT_AFTER_NEW = 10_000


@record
class FeedOutcome:
    """What refreshing one feed did; ``as_json`` is the object ``refresh --json`` prints."""

    source_id: int
    url: str
    title: str
    status: str  # ok, not_modified, error, gone
    new: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    error: str | None = None
    warning: str | None = None

    def as_json(self) -> dict[str, object]:
        """A contract: add fields, never rename them."""
        return {
            "source_id": self.source_id,
            "url": self.url,
            "title": self.title,
            "status": self.status,
            "new": len(self.new),
            "updated": len(self.updated),
            "error": self.error,
            "warning": self.warning,
        }


@record
class CheckedFeed:
    """The network and parsing half of a refresh, for one feed (no library access)."""

    target: FeedTarget
    fetched: Fetched | None = None
    feed: FeedData | None = None
    unchanged: bool = False
    error: EarmarkError | None = None
    content_hash: str | None = None  # body_hash of the fetched body, worked out where it was fetched


class Refresher:
    """Runs refreshes; owns the thread pool and, once a big feed needs one, the parsing processes."""

    def __init__(self, workers: int = WORKERS, per_host: int = PER_HOST, processes: int | None = None) -> None:
        """``processes``: how many parsing processes (one per core by default); with fewer than 2, every feed is
        parsed in its fetching thread."""
        self._workers = workers
        self._per_host = per_host
        self._processes = processes or max(1, multiprocessing.cpu_count())
        self._hosts: dict[str, threading.BoundedSemaphore] = {}
        self._lock = threading.Lock()
        self._parsers: concurrent.futures.ProcessPoolExecutor | None = None

    def refresh(self, db: Database, targets: list[FeedTarget],
                on_outcome: Callable[[FeedOutcome], None] | None = None,
                cancel: threading.Event | None = None) -> list[FeedOutcome]:
        """Refresh ``targets``; each result is stored as it arrives and passed to ``on_outcome``.

        One feed's failure is recorded on that feed and never stops the others. With ``cancel`` set, feeds
        not started yet are skipped; those in flight finish (they are bounded by the fetch timeouts).
        """
        cancel = cancel or threading.Event()
        outcomes: list[FeedOutcome] = []
        with write_cache(db), concurrent.futures.ThreadPoolExecutor(self._workers,
                                                                     thread_name_prefix="refresh") as pool:
            order = {pool.submit(self._check, target, cancel): index for index, target in enumerate(targets)}
            pending = set(order)
            try:
                while pending:
                    done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                    if pending and _entries(done) < BATCH_ENTRIES:  # and what finishes meanwhile: fewer commits
                        more, pending = concurrent.futures.wait(pending, timeout=GATHER_SECONDS)
                        done |= more
                    checked = [future.result() for future in sorted(done, key=order.__getitem__)]
                    for batch in batches([one for one in checked if one is not None]):
                        stored = store_batch(db, batch)
                        outcomes += stored
                        if on_outcome is not None:
                            for outcome in stored:
                                on_outcome(outcome)
            except BaseException:
                # On an error in the loop (a full disk): drop what has not started. Only then: a finished
                # refresh must not trip the caller's Event, which may be reused for the next refresh.
                cancel.set()
                raise
        if sum(len(outcome.new) for outcome in outcomes) >= COMPACT_AFTER_NEW:
            with write_transaction(db):  # its indexes grew a page split at a time: the window compacts it next
                mark_compaction_due(db.conn)
        return outcomes

    def close(self) -> None:
        """Stop the parsing processes, if any were started."""
        if self._parsers is not None:
            self._parsers.shutdown(cancel_futures=True)
            self._parsers = None

    def __enter__(self) -> Refresher:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _check(self, target: FeedTarget, cancel: threading.Event) -> CheckedFeed | None:
        if cancel.is_set():
            return None
        checked = CheckedFeed(target)
        try:
            with self._host_slot(target.url):
                if cancel.is_set():
                    return None
                validators = Validators(target.etag, target.last_modified, target.user, target.password)
                checked.fetched = fetch(target.url, validators)
            if not checked.fetched.not_modified:
                checked.content_hash = body_hash(checked.fetched.data)
            if checked.fetched.not_modified or checked.content_hash == target.content_hash:
                checked.unchanged = True
            else:
                checked.feed = self._parse(checked.fetched, with_text=target.content_hash is None)
        except EarmarkError as exc:
            checked.error = exc
        return checked

    def _host_slot(self, url: str) -> threading.BoundedSemaphore:
        host = (urlparse(url).hostname or "").lower()
        with self._lock:
            if host not in self._hosts:
                self._hosts[host] = threading.BoundedSemaphore(self._per_host)
            return self._hosts[host]

    def _parse(self, fetched: Fetched, with_text: bool) -> FeedData:
        """Small feeds parse here; big ones in a worker process, so that parsing uses every core and a
        GUI in this process keeps its share of the GIL. ``with_text``: the feed was never stored (no body hash
        yet), so every entry is new: their search text is worked out where the parsing runs too."""
        if len(fetched.data) < INLINE_PARSE_BYTES or self._processes < 2:
            return parsed(with_text, fetched.data, fetched.url, fetched.content_type)
        with self._lock:
            if self._parsers is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["earmark.core.feeds.parse", "earmark.core.feeds.fast_parse",
                                                "feedparser", "earmark.core.feeds.parse_worker"])
                self._parsers = concurrent.futures.ProcessPoolExecutor(
                    self._processes, mp_context=context, initializer=start_parser, initargs=(os.getpid(),))
            parsers = self._parsers
        try:
            return unpacked(parsers.submit(parse_packed, with_text, fetched.data, fetched.url,
                                           fetched.content_type).result())
        except concurrent.futures.process.BrokenProcessPool as exc:
            # A parsing process died (killed, out of memory): a broken pool would fail every later big feed and,
            # not being an EarmarkError, end the whole refresh. This feed fails; the next one gets a new pool.
            with self._lock:
                if self._parsers is parsers:
                    self._parsers = None
            parsers.shutdown(wait=False, cancel_futures=True)
            raise FeedError(f"{fetched.url} could not be read: the process parsing it stopped unexpectedly; "
                            "Earmark will try again at the next refresh.") from exc


@contextmanager
def write_cache(db: Database) -> Iterator[None]:
    """A page cache of WRITE_CACHE_KIB on the connection while the refresh writes (then the previous size): a
    first import writes into every index of items at once, and SQLite's default 2 MB made it read the same
    index pages again and again (storing 30,000 items: 2.1 s instead of 2.5 s)."""
    previous = db.execute("PRAGMA cache_size").fetchone()[0]
    db.execute(f"PRAGMA cache_size = -{WRITE_CACHE_KIB}")
    try:
        yield
    finally:
        db.execute(f"PRAGMA cache_size = {int(previous)}")


def _entries(done: set[concurrent.futures.Future[CheckedFeed | None]]) -> int:
    return sum(len(checked.feed.entries) for future in done
               if (checked := future.result()) is not None and checked.feed is not None)


def batches(checked: list[CheckedFeed]) -> Iterator[list[CheckedFeed]]:
    """The feeds checked so far in groups of at most BATCH_ENTRIES entries (a bigger feed alone)."""
    batch: list[CheckedFeed] = []
    entries = 0
    for one in checked:
        size = len(one.feed.entries) if one.feed is not None else 0
        if batch and entries + size > BATCH_ENTRIES:
            yield batch
            batch, entries = [], 0
        batch.append(one)
        entries += size
    if batch:
        yield batch


def store_batch(db: Database, batch: list[CheckedFeed]) -> list[FeedOutcome]:
    """Record several feeds' checks in one transaction: a crash keeps the batches before it, whole, and none
    of this one. Their new items are inserted together at the end (core/db/bulk.py); the outcomes' lists of new
    items are complete once it returns."""
    with batch_transaction(db), inserted_together(db):
        return [store_checked(db, checked) for checked in batch]


def store_checked(db: Database, checked: CheckedFeed) -> FeedOutcome:
    """Record one feed's check in the library (in the caller's transaction, or one of its own) and say what
    happened."""
    target = checked.target
    outcome = FeedOutcome(target.source_id, target.url, target.title, "ok")
    if checked.error is not None:
        return _store_failure(db, outcome, checked.error)
    fetched = checked.fetched
    assert fetched is not None  # a check without an error has fetched
    source_id, url, asks = target.source_id, target.url, None
    if fetched.moved_to:  # for good: its episodes, positions and notes go along (into its other subscription, if any)
        source_id, asks = _move(db, outcome, url, fetched.moved_to)
        url = fetched.moved_to
    if checked.unchanged:
        record_checked(db, source_id, fetched.etag, fetched.last_modified)
        outcome.status = "not_modified"
    else:
        assert checked.feed is not None  # a changed body was parsed
        from earmark.core.db.merge import CacheState, store_feed  # deferred: as the parsers, for changed feeds only

        addresses = [url, *feed_addresses(fetched.url, checked.feed)]
        if target.content_hash is None and (known := join_known(db, source_id, addresses,
                                                                checked.feed.podcast_guid)) is not None:
            outcome.source_id, outcome.url, outcome.title = known.source_id, known.url, known.title
            outcome.warning = f"{target.url} is {known.title}, subscribed to already: it was not added again."
            return outcome
        if (moved := new_address(url, checked.feed)) is not None:  # itunes:new-feed-url: as a permanent redirect
            source_id, forgotten = _move(db, outcome, url, moved)
            asks, url = forgotten or asks, moved
        content_hash = checked.content_hash or body_hash(fetched.data)
        result = store_feed(db, url, checked.feed, CacheState(fetched.etag, fetched.last_modified, content_hash))
        outcome.title = result.title
        outcome.new, outcome.updated = result.new, result.updated
        outcome.warning = checked.feed.warning
        remember_addresses(db, source_id, addresses)
    if asks is not None:
        record_failure(db, url, asks, status="auth")  # the feed asks for its credentials again
        outcome.warning = asks
    return outcome


def _move(db: Database, outcome: FeedOutcome, url: str, new_url: str) -> tuple[int, str | None]:
    """Move the subscription ``outcome`` is about from ``url`` to ``new_url`` (identity.move_subscription); the
    subscription now there, and the sentence asking for credentials the move made Earmark forget."""
    kept = move_subscription(db, outcome.source_id, new_url)
    asks = forget_on_move(db, kept, url, new_url) if kept == outcome.source_id else None
    outcome.source_id, outcome.url = kept, new_url
    return kept, asks


def _store_failure(db: Database, outcome: FeedOutcome, error: EarmarkError) -> FeedOutcome:
    status = "gone" if isinstance(error, GoneError) else "auth" if isinstance(error, AuthRequiredError) else "error"
    retry_after = error.retry_after if isinstance(error, RetryLaterError) else None
    record_failure(db, outcome.url, str(error), status=status, retry_after=retry_after)
    outcome.status = "gone" if status == "gone" else "error"
    outcome.error = str(error)
    return outcome
