"""``earmark:`` links: a moment of an item, ``earmark:item/KEY?t=SECONDS``, that opens Earmark there (Obsidian and
browsers hand such links to the app the desktop registers for the scheme: packaging/install).

KEY names the item by what its feed says of it, its podcast's address and its guid (else its enclosure), as the
first 16 hex digits of their SHA-256: it survives a re-import into another library (where the item's number
differs), and a note that travels (a synced vault, a shared page) carries no feed address, which can hold a
private token."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from earmark.core.db.database import Database
from earmark.core.errors import EarmarkError
from earmark.core.records import record

SCHEME = "earmark"
KEY_DIGITS = 16


@record
class Moment:
    """Where a link points: the item (by key) and, when given, the second to start from."""

    key: str
    seconds: float | None


def item_key(source_url: str | None, identity: str) -> str:
    """The item's key: stable across libraries, since it is made of what the feed says."""
    import hashlib  # here: its OpenSSL costs every start ~3 ms, and the window needs it only for a link

    digest = hashlib.sha256(f"{source_url or ''}\n{identity}".encode()).hexdigest()
    return digest[:KEY_DIGITS]


def moment_url(source_url: str | None, identity: str, seconds: float | None = None) -> str:
    """``earmark:item/KEY?t=SECONDS`` (whole seconds), or ``earmark:item/KEY`` for the item itself."""
    url = f"{SCHEME}:item/{item_key(source_url, identity)}"
    return url if seconds is None else f"{url}?t={int(seconds)}"


def is_moment_link(text: str) -> bool:
    """Whether ``text`` is an ``earmark:`` link (well made or not: those are ours to explain)."""
    return text[:len(SCHEME) + 1].lower() == f"{SCHEME}:"


def parse_moment(url: str) -> Moment:
    """The moment an ``earmark:`` link names; EarmarkError, saying what is wrong, for one Earmark cannot read."""
    parts = urlsplit(url.strip())
    kind, _, key = parts.path.lstrip("/").partition("/")
    key = key.strip("/").lower()
    if parts.scheme.lower() != SCHEME or kind != "item" or len(key) != KEY_DIGITS \
            or any(char not in "0123456789abcdef" for char in key):
        raise EarmarkError(f"“{url}” is not a link Earmark can open; its links read earmark:item/KEY?t=SECONDS, "
                           "as the Markdown export writes them.")
    given = parse_qs(parts.query).get("t", [""])[0].removesuffix("s")
    try:
        seconds = max(0.0, float(given)) if given else None
    except ValueError:
        seconds = None  # the item still opens, from where it was left
    return Moment(key, seconds)


def find_moment(db: Database, url: str) -> tuple[int, float | None]:
    """The item an ``earmark:`` link names in this library, and the second to start from; EarmarkError with a
    sentence when the link cannot be read or its item is not here."""
    moment = parse_moment(url)
    db.conn.create_function("earmark_item_key", 2, item_key, deterministic=True)
    row = db.execute("""SELECT i.id FROM items i LEFT JOIN sources s ON s.id = i.source_id
                        WHERE earmark_item_key(s.url, i.identity) = ? LIMIT 1""", [moment.key]).fetchone()
    if row is None:
        raise EarmarkError("The link is to an item that is not in this library (it was deleted, or its feed is "
                           "not subscribed here).")
    return int(row[0]), moment.seconds
