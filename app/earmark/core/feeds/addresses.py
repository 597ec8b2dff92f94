"""Addresses as people paste them: a host without a scheme (https, then http), a podcast's web page (its feeds
found by ``<link rel="alternate">``), an Apple Podcasts page (its feed found through Apple's lookup API)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

from earmark.core.db.database import Database
from earmark.core.directory.apple import DEFAULT_URL as APPLE_URL
from earmark.core.directory.apple import AppleDirectory, apple_id
from earmark.core.errors import AuthRequiredError, EarmarkError, FeedError, UnreachableError
from earmark.core.feeds.fetch import Validators, canonical_source, fetch, is_web_url
from earmark.core.feeds.identity import Subscription, find_subscription
from earmark.core.feeds.subscribe import NeedsCredentials, ReadFeed, note_failure_at, store_read_feed, try_read_feed
from earmark.core.models import SubscribeResult
from earmark.core.records import record
from earmark.core.settings import get_setting
from earmark.core.urls import shown_address, split_userinfo

MAX_PAGE_BYTES = 5 * 1024 * 1024
FEED_TYPES = {"application/rss+xml": "RSS", "application/atom+xml": "Atom", "application/rdf+xml": "RSS",
              "application/feed+json": "JSON Feed", "application/json": "JSON Feed"}
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_HOST_FIRST = re.compile(r"^(?:localhost|[\w-]+(?:\.[\w-]+)+)(?::\d+)?(?:[/?#]|$)", re.IGNORECASE)
_HTML_START = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body|meta)\b",
                         re.IGNORECASE | re.DOTALL)


@record(frozen=True)
class FeedChoice:
    """A feed a web page names: its address, its title on the page, and its format in words."""

    url: str
    title: str
    kind: str  # "RSS", "Atom" or "JSON Feed"


@record
class PageFeeds:
    """A web page that names several feeds: the person chooses one."""

    page: str
    feeds: list[FeedChoice]


def looks_like_address(text: str) -> bool:
    """Whether what was typed into Add Podcast is an address or a path (else it is words to search for)."""
    text = text.strip()
    if not text or any(c.isspace() for c in text):
        return False
    return bool(_SCHEME.match(text)) or "." in text or "/" in text or "\\" in text or text.startswith("~")


def candidates(text: str) -> list[str]:
    """The addresses to try for ``text``, in order: as it is, or (a host and path without a scheme that is not a
    file here) over https, then over http."""
    text = text.strip()
    if _HOST_FIRST.match(text) and not _is_existing_path(text):
        return [f"https://{text}", f"http://{text}"]
    return [text]


def subscription_at(db: Database, source: str) -> Subscription | None:
    """The subscription to the address (or file) ``source`` as typed, however written, a host without a scheme
    over either; None when there is none. An address that is none raises the UnreachableError that subscribing
    would."""
    return find_subscription(db, [split_userinfo(canonical_source(address)).url for address in candidates(source)])


def _is_existing_path(text: str) -> bool:
    try:
        return Path(text).expanduser().exists()
    except (OSError, ValueError, RuntimeError):
        return False


def feed_links(page: str, base: str) -> list[FeedChoice]:
    """The feeds a web page names in ``<link rel="alternate" type="…">`` (RSS, Atom, JSON Feed), resolved against
    ``base`` (or the page's ``<base href>``), each once, in the page's order."""
    finder = _LinkFinder()
    finder.feed(page)
    finder.close()
    base = (_joined(base, finder.base) or base) if finder.base else base
    found: dict[str, FeedChoice] = {}
    for href, kind, title in finder.links:
        url = _joined(base, href.strip())
        if url and is_web_url(url) and url not in found:
            found[url] = FeedChoice(url, title.strip() or kind, kind)
    return list(found.values())


def _joined(base: str, href: str) -> str:
    """``href`` resolved against ``base``; "" when it is no address (a malformed IPv6 host)."""
    try:
        return urljoin(base, href)
    except ValueError:
        return ""


class _LinkFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str, str]] = []
        self.base = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): value or "" for name, value in attrs}
        if tag == "base" and not self.base:
            self.base = values.get("href", "")
        kind = FEED_TYPES.get(values.get("type", "").split(";")[0].strip().lower())
        if tag == "link" and kind and "alternate" in values.get("rel", "").lower().split() and values.get("href"):
            self.links.append((values["href"], kind, values.get("title", "")))


def read_address(source: str, user: str | None = None, password: str | None = None,
                 apple_url: str = APPLE_URL) -> ReadFeed | NeedsCredentials | PageFeeds:
    """Read what ``source`` names as a feed: the feed itself, the one feed its web page names, or the page's
    several feeds to choose from. UnreachableError or FeedError with a sentence otherwise."""
    if apple_id(source) is not None:
        source = AppleDirectory(apple_url).feed_of_page(source)
    tried = candidates(source)
    for attempt, address in enumerate(tried, 1):
        try:
            return _read_one(address, user, password)
        except AuthRequiredError:
            raise
        except UnreachableError:
            if attempt == len(tried):
                raise
    raise AssertionError("unreachable: candidates() names at least one address")


def _read_one(address: str, user: str | None, password: str | None) -> ReadFeed | NeedsCredentials | PageFeeds:
    try:
        return try_read_feed(address, user, password)
    except FeedError as not_a_feed:
        url = split_userinfo(canonical_source(address)).url
        if not is_web_url(url):
            raise
        page = fetch(address, Validators(user=user, password=password), what="page", max_bytes=MAX_PAGE_BYTES)
        if "html" not in (page.content_type or "").lower() and not _HTML_START.match(page.data[:2048]):
            raise not_a_feed
        feeds = feed_links(page.data.decode("utf-8", "replace"), page.url)
        if not feeds:
            raise FeedError(f"{shown_address(page.url)} is a web page that names no feed: look on the page for a "
                            "link called RSS or Feed and paste that address, or type the podcast's name to search "
                            "for it.") from None
        if len(feeds) == 1:
            return try_read_feed(feeds[0].url)
        return PageFeeds(page.url, feeds)


def read_address_in(db: Database, source: str, user: str | None = None,
                    password: str | None = None) -> ReadFeed | NeedsCredentials | PageFeeds:
    """``read_address`` with Apple's address from the library's settings (a pool task of the window)."""
    return read_address(source, user, password, apple_url=str(get_setting(db, "directory.apple_url")))


def subscribe_address(db: Database, source: str) -> SubscribeResult | PageFeeds:
    """Subscribe to what ``source`` names (``earmark subscribe``): a page naming several feeds comes back for the
    caller to choose; a server asking for a password is an error saying so."""
    try:
        read = read_address_in(db, source)
        if isinstance(read, NeedsCredentials):
            raise AuthRequiredError(read.message)
    except EarmarkError as exc:
        note_failure(db, source, str(exc))
        raise
    if isinstance(read, PageFeeds):
        return read
    return store_read_feed(db, read.url, read)


def note_failure(db: Database, source: str, message: str) -> None:
    """Keep a failure on the subscription ``source`` names, when it is one."""
    try:
        note_failure_at(db, split_userinfo(canonical_source(source)).url, message)
    except UnreachableError:
        pass  # no address at all: no subscription has it
