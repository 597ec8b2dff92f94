"""Web pages for the reading list: fetched with a size cap, told apart from feeds, decoded to text."""

from __future__ import annotations

import codecs
import re
from typing import Literal

from earmark.core.feeds.fetch import Fetched, fetch
from earmark.core.records import record

MAX_PAGE_BYTES = 10 * 1024 * 1024
MAX_IMAGE_BYTES = 5 * 1024 * 1024
PageKind = Literal["html", "feed", "text", "markdown", "other"]
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
_FEED_ROOT = re.compile(rb"<(rss|feed|rdf:RDF)[\s>]", re.IGNORECASE)
_HTML_START = re.compile(rb"^\s*(<\?xml[^>]*>\s*)?(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body|p|div|article|h1)\b",
                         re.IGNORECASE | re.DOTALL)
_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/feed+json")


@record
class Page:
    """A fetched page: where it finally came from, what kind of document it is, and its text."""

    url: str
    kind: PageKind
    text: str
    media_type: str  # as the server said, without parameters ("" when it said nothing)


def fetch_page(url: str) -> Page:
    """Fetch ``url`` (at most MAX_PAGE_BYTES); UnreachableError with a sentence when that fails."""
    fetched = fetch(url, what="page", max_bytes=MAX_PAGE_BYTES)
    return read_page(fetched)


def read_page(fetched: Fetched) -> Page:
    """Classify and decode fetched bytes."""
    media_type = (fetched.content_type or "").split(";")[0].strip().lower()
    kind = page_kind(fetched.data, media_type)
    return Page(fetched.url, kind, decode(fetched.data, fetched.content_type) if kind != "other" else "", media_type)


def page_kind(data: bytes, media_type: str) -> PageKind:
    """What the bytes are: a web page, a feed, plain text or Markdown, or something Earmark does not read."""
    head = data[:4096].lstrip(codecs.BOM_UTF8)
    if media_type in _FEED_TYPES or (media_type in ("application/xml", "text/xml", "")
                                     and _FEED_ROOT.search(head) and not re.search(rb"<html", head, re.I)):
        return "feed"
    if media_type in ("text/html", "application/xhtml+xml") or _HTML_START.match(head):
        return "html"
    if media_type in ("text/markdown", "text/x-markdown"):
        return "markdown"
    if media_type.startswith("text/") or (not media_type and _is_text(head)):
        return "text"
    return "other"


def _is_text(head: bytes) -> bool:
    return b"\x00" not in head and bool(head.strip())


def decode(data: bytes, content_type: str | None = None) -> str:
    """The document's text: by the server's charset, else a byte order mark, else the page's own
    ``<meta charset>``, else UTF-8 when it is valid, else Windows-1252 (what browsers assume for Latin-1)."""
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", errors="replace")
    for declared in (_HEADER_CHARSET.search(content_type or ""), _CHARSET.search(data[:4096])):
        codec = _codec(declared.group(1)) if declared else None
        if codec:
            return data.decode(codec, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _codec(name: str | bytes) -> str | None:
    label = (name.decode("ascii", errors="ignore") if isinstance(name, bytes) else name).strip().lower()
    if label in ("iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii"):
        return "cp1252"  # the WHATWG encoding standard reads these labels as windows-1252
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def fetch_image(url: str) -> bytes:
    """An article's image from the web (at most MAX_IMAGE_BYTES); UnreachableError when that fails."""
    return fetch(url, what="image", max_bytes=MAX_IMAGE_BYTES).data
