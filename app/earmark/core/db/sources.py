"""Sources (podcasts, feeds, sites): listing them and keeping each feed's refresh state."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, timedelta

from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import NotFoundError
from earmark.core.models import Source
from earmark.core.records import record
from earmark.core.timefmt import now_iso

_SOURCE_QUERY = """SELECT s.id, s.kind, s.title, s.url, s.link, s.status, s.last_error, s.last_checked,
    (SELECT count(*) FROM items i WHERE i.source_id = s.id), s.last_new, s.failures, s.retry_after,
    s.auth_user IS NOT NULL, s.image_url, c.file FROM sources s LEFT JOIN covers c ON c.url = s.image_url"""
BACKOFF_CAP = timedelta(hours=24)
_DIGITS = re.compile(r"([0-9]+)")  # ASCII digits only: int() of other digits (say "²") would fail or surprise


@record
class FeedTarget:
    """A subscribed feed as a refresh needs it: where to fetch it and what to send along."""

    source_id: int
    url: str
    title: str
    etag: str | None = None
    last_modified: str | None = None
    content_hash: str | None = None
    user: str | None = None
    password: str | None = None


def list_sources(db: Database) -> list[Source]:
    """Every source with its item count, by title as a person orders them ("Show 2" before "Show 10")."""
    sources = [_source(row) for row in db.execute(f"{_SOURCE_QUERY} ORDER BY s.id")]
    return sorted(sources, key=lambda source: natural_key(source.title))


def natural_key(title: str) -> list[str | int]:
    """A sort key that compares the numbers in a title by value and its letters without their case and accents
    ("Ärzte" beside "Arzt", not after "Zebra"): text and numbers alternate in it (text first, maybe empty), so
    that two keys compare text with text and numbers with numbers."""
    letters = "".join(c for c in unicodedata.normalize("NFKD", title.casefold()) if not unicodedata.combining(c))
    parts: list[str | int] = []
    for index, part in enumerate(_DIGITS.split(letters)):
        parts.append(int(part) if index % 2 else part)
    return parts


def get_source(db: Database, source_id: int) -> Source:
    """The source with this id; NotFoundError when there is none."""
    row = db.execute(f"{_SOURCE_QUERY} WHERE s.id = ?", [source_id]).fetchone()
    if row is None:
        raise NotFoundError(f"There is no source with id {source_id}.")
    return _source(row)


def _source(row: tuple[object, ...]) -> Source:
    values = list(row)
    values[-3] = bool(values[-3])  # auth_user IS NOT NULL
    return Source(*values)  # type: ignore[arg-type]  # the query's columns are the fields, in order


def site_source(db: Database, title: str, link: str | None = None) -> int:
    """The id of the site source with this title, created when new (sites have no feed URL)."""
    row = db.execute("SELECT id FROM sources WHERE kind = 'site' AND url IS NULL AND title = ?", [title]).fetchone()
    if row:
        return int(row[0])
    cursor = db.execute(
        "INSERT INTO sources (kind, title, link, added) VALUES ('site', ?, ?, ?)", [title, link, now_iso()]
    )
    return int(cursor.lastrowid or 0)


def feed_targets(db: Database, source_ids: list[int] | None = None, every: bool = False) -> list[FeedTarget]:
    """The feeds to refresh: the given sources (whatever their state), every feed (``every``, as when a person
    asks for all now), or every feed that is due.

    A feed is not due while it is gone (HTTP 410) or backing off after failures or a server's Retry-After.
    """
    columns = "id, url, title, etag, last_modified, content_hash, auth_user, auth_password"
    if source_ids is not None:
        for source_id in source_ids:
            get_source(db, source_id)  # NotFoundError for an unknown id
        marks = ", ".join("?" * len(source_ids))
        rows = db.execute(f"SELECT {columns} FROM sources WHERE url IS NOT NULL AND id IN ({marks}) ORDER BY id",
                          source_ids)
    elif every:
        rows = db.execute(f"SELECT {columns} FROM sources WHERE url IS NOT NULL ORDER BY id")
    else:
        rows = db.execute(
            f"""SELECT {columns} FROM sources WHERE url IS NOT NULL AND status != 'gone'
                AND (retry_after IS NULL OR retry_after <= ?) ORDER BY id""",
            [now_iso()],
        )
    targets = [FeedTarget(*row) for row in rows]
    if any(target.user is not None for target in targets):
        _fill_passwords(db, targets)
    return targets


def _fill_passwords(db: Database, targets: list[FeedTarget]) -> None:
    """The passwords of protected feeds, from the keyring (or the library when the user opted in to that)."""
    from earmark.core.secrets.feeds import feed_key  # the keyring is reached only for protected feeds
    from earmark.core.secrets.store import Secrets

    secrets = Secrets(db)
    for target in targets:
        if target.user is not None and target.password is None:
            target.password = secrets.get(feed_key(target.url, target.user))


def waiting_feeds(db: Database) -> int:
    """How many feeds a refresh of everything leaves out (gone, or backing off)."""
    row = db.execute(
        "SELECT count(*) FROM sources WHERE url IS NOT NULL AND (status = 'gone' OR retry_after > ?)", [now_iso()]
    ).fetchone()
    return int(row[0])


def record_checked(db: Database, source_id: int, etag: str | None, last_modified: str | None) -> None:
    """The feed answered but has not changed (HTTP 304 or the same body as last time)."""
    with write_transaction(db):
        db.execute(
            """UPDATE sources SET last_checked = ?, status = 'ok', last_error = NULL, failures = 0,
                   retry_after = NULL, etag = coalesce(?, etag), last_modified = coalesce(?, last_modified)
               WHERE id = ?""",
            [now_iso(), etag, last_modified, source_id],
        )


def record_failure(db: Database, url: str, message: str, status: str = "error",
                   retry_after: float | None = None) -> None:
    """Note on an already subscribed source that its last check failed (new sources are not created).

    Repeated failures back off: after the second in a row the feed waits 1 h, then 2 h, 4 h... up to a day
    before automatic refreshes try it again; a server's Retry-After (seconds) is honoured when longer.
    """
    with write_transaction(db):
        row = db.execute("SELECT failures FROM sources WHERE url = ?", [url]).fetchone()
        if row is None:
            return
        failures = int(row[0]) + 1
        now = datetime.now(UTC).replace(microsecond=0)
        wait = min(timedelta(hours=2 ** (failures - 2)), BACKOFF_CAP) if failures >= 2 else timedelta(0)
        if retry_after:
            wait = max(wait, timedelta(seconds=min(retry_after, BACKOFF_CAP.total_seconds())))
        db.execute(
            """UPDATE sources SET status = ?, last_error = ?, last_checked = ?, failures = ?, retry_after = ?
               WHERE url = ?""",
            [status, message, now.isoformat(), failures, (now + wait).isoformat() if wait else None, url],
        )


def follow_feed_title(db: Database, source_id: int, feed_title: str) -> None:
    """Before a refresh stores the feed's title: a title the user chose (``user_title``) stays, unless the feed
    now has that very title, from when on the feed's own title is followed again."""
    db.execute("UPDATE sources SET user_title = 0 WHERE id = ? AND user_title AND title = ?", [source_id, feed_title])


def move_source(db: Database, source_id: int, new_url: str) -> bool:
    """Store a feed's new address after a permanent redirect; False (nothing changed) when another
    subscription already has that address."""
    with write_transaction(db):
        if db.execute("SELECT 1 FROM sources WHERE url = ? AND id != ?", [new_url, source_id]).fetchone():
            return False
        db.execute("UPDATE sources SET url = ? WHERE id = ?", [new_url, source_id])
    return True


def set_credentials(db: Database, source_id: int, user: str | None, password: str | None) -> None:
    """Store (or with ``user`` None, forget) the basic-auth credentials of a feed, and make it due again: the
    user name in the library, the password in the keyring (NoKeyringError when it cannot be kept)."""
    from earmark.core.secrets.feeds import set_feed_credentials

    set_feed_credentials(db, source_id, user, password)


def source_id_of(db: Database, url: str) -> int | None:
    """The id of the subscription to ``url``, if there is one."""
    row = db.execute("SELECT id FROM sources WHERE url = ?", [url]).fetchone()
    return int(row[0]) if row else None
