"""The links an article or an episode's show notes contain, with their link text, and choosing among them."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit, urlunsplit

from earmark.core.db.database import Database
from earmark.core.db.items import get_item
from earmark.core.errors import EarmarkError
from earmark.core.html import looks_like_html
from earmark.core.plurals import counted
from earmark.core.records import record

_URL = re.compile(r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]")


@record(frozen=True)
class Link:
    """A link: its text (the address itself when it has none) and where it goes; ``saved`` when an article at
    that address is already in the library."""

    text: str
    url: str
    saved: bool = False


class _Collector(HTMLParser):
    """Collects ``<a href>`` links with their text (an image's alt text counts), and bare web addresses in the
    text outside links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a":
            self._close()
            self._href, self._text = values.get("href") or "", []
        elif tag == "img" and self._href is not None:
            self._text.append(values.get("alt") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._close()

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)
        else:
            self.found.extend((match.group(0), match.group(0)) for match in _URL.finditer(data))

    def _close(self) -> None:
        if self._href is not None:
            self.found.append((" ".join("".join(self._text).split()), self._href))
        self._href, self._text = None, []

    def close(self) -> None:
        super().close()
        self._close()


def links_in(markup: str, base: str | None = None) -> list[Link]:
    """The web links of an HTML fragment (or plain text) in order, each address once (its first text wins).
    Relative links are resolved against ``base``; links to ``base`` itself and to anything but http(s) are left
    out."""
    if looks_like_html(markup):
        collector = _Collector()
        collector.feed(markup)
        collector.close()
        pairs = collector.found
    else:
        pairs = [(match.group(0), match.group(0)) for match in _URL.finditer(markup)]
    own = _without_fragment(base) if base else None
    links: dict[str, Link] = {}
    for text, href in pairs:
        url = _absolute(href, base)
        if url is None or url == own or url in links:
            continue
        links[url] = Link(text or _readable(url), url)
    return list(links.values())


def _absolute(href: str, base: str | None) -> str | None:
    try:
        url = urljoin(base, href.strip()) if base and is_web(base) else href.strip()
        return _without_fragment(url) if is_web(url) else None
    except ValueError:  # a malformed address (bad IPv6 brackets...)
        return None


def is_web(url: str) -> bool:
    """Whether ``url`` is an http(s) address with a host."""
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _without_fragment(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(fragment=""))


def _readable(url: str) -> str:
    parts = urlsplit(url)
    return (parts.netloc.removeprefix("www.") + parts.path).rstrip("/")


def item_links(db: Database, item_id: int) -> list[Link]:
    """The links of an item's article text or show notes, marked when already saved."""
    item = get_item(db, item_id)
    links = links_in(item.content or item.description, item.url)
    if not links:
        return []
    saved = _saved_urls(db, [link.url for link in links])
    return [Link(link.text, link.url, link.url in saved) for link in links]


def _saved_urls(db: Database, urls: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(urls), 500):
        chunk = urls[start:start + 500]
        rows = db.execute(f"SELECT url FROM items WHERE kind = 'article' AND url IN ({','.join('?' * len(chunk))})",
                          chunk)
        found.update(row[0] for row in rows)
    return found


def choose_links(links: list[Link], numbers: list[int] | None = None, matches: list[str] | None = None,
                 everything: bool = False) -> list[Link]:
    """The links chosen by number (1 = the first listed), by words in their text or address (case ignored),
    or all of them; links already saved are never chosen again. EarmarkError for a number out of range."""
    for number in numbers or []:
        if not 1 <= number <= len(links):
            raise EarmarkError(f"There is no link {number}: this item has {counted(len(links), 'link')}.")
    wanted = {number - 1 for number in numbers or []}
    needles = [match.casefold() for match in matches or []]
    chosen = [link for index, link in enumerate(links)
              if everything or index in wanted
              or any(needle in link.text.casefold() or needle in link.url.casefold() for needle in needles)]
    return [link for link in chosen if not link.saved]
