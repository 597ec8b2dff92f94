"""Reading OPML subscription lists (pure functions: no database, no network); opml_write.py writes them."""

from __future__ import annotations

import codecs
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import field
from html.entities import html5
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

import defusedxml.ElementTree as DefusedET  # type: ignore[import-untyped]
from defusedxml import DefusedXmlException

from earmark.core.db.tags import normalize_tag
from earmark.core.errors import FeedError
from earmark.core.records import record

MAX_BYTES = 10 * 1024 * 1024
MAX_DEPTH = 64  # outlines nested deeper than this are not a subscription list (and would make tag lists explode)
MAX_PATH_CHARS = 1000  # a folder in folders is the tag "outer/inner": no longer than this
_LABEL_CHARS = 80
_WEB_SCHEMES = {"http", "https"}
_FEED_SCHEMES = {"feed", "itpc", "podcast"}  # aliases apps register for "subscribe to this feed" links
_LIST_TYPES = {"include", "source"}  # outlines that point at another OPML list rather than a feed
_SUBSCRIPTION_TYPES = {"rss", "atom", "link", "feed", "podcast"}
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_ENTITY_BYTES = re.compile(rb"&([A-Za-z][A-Za-z0-9]{0,31});")
_ENTITY_TEXT = re.compile(r"&([A-Za-z][A-Za-z0-9]{0,31});")
_DECLARED_ENCODING = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._:-]{1,40})[\"']")
_SUPERSETS = {"gb2312": "gb18030", "gbk": "gb18030"}  # real "GB2312" documents use the wider character set
_DECLARATION = re.compile(r"\A\ufeff?\s*<\?xml[^>]*\?>")


@record
class OpmlFeed:
    """One subscription: its feed address, display title, tags (folders first, "outer/inner" for a folder in a
    folder, then categories) and website."""

    url: str
    title: str
    tags: list[str] = field(default_factory=list)
    html_url: str | None = None


@record
class OpmlDocument:
    """What an OPML file holds: its title, its feeds in document order, and one sentence per skipped outline."""

    title: str | None
    feeds: list[OpmlFeed]
    skipped: list[str]


def read_opml(data: bytes, name: str) -> OpmlDocument:
    """Read an OPML document; ``name`` (a file name or URL) is used in error sentences.

    Raises FeedError when the bytes are not a readable, safe OPML document. Outlines that cannot become
    feeds are reported in ``skipped`` instead.
    """
    if len(data) > MAX_BYTES:
        raise FeedError(
            f"{name} is larger than {MAX_BYTES // (1024 * 1024)} MB, which is too big for a subscription list."
        )
    root = _parse(data, name)
    if not isinstance(root.tag, str) or _local(root.tag).lower() != "opml":
        raise FeedError(f"{name} is not an OPML file: it is XML, but not an <opml> subscription list.")
    head = _child(root, "head")
    title_element = _child(head, "title") if head is not None else None
    title = clean_label(title_element.text) if title_element is not None else ""
    body = _child(root, "body")
    reader = _Reader(name)
    if body is not None:
        reader.walk(body)
    return OpmlDocument(title=title or None, feeds=reader.feeds(), skipped=reader.skipped)


def _parse(data: bytes, name: str) -> ET.Element:
    """The document's root element, parsed safely; every failure becomes a FeedError."""
    source: bytes | str = data
    entities_fixed = False
    while True:
        try:
            root: ET.Element = DefusedET.fromstring(source, forbid_dtd=True)
            return root
        except DefusedXmlException:
            raise FeedError(f"{name} declares XML entities or a DTD, which Earmark refuses for safety.") from None
        except ET.ParseError as err:
            if not entities_fixed and str(err).startswith("undefined entity"):
                entities_fixed = True  # HTML entities such as &eacute; are common in hand-written lists
                source = _replace_html_entities(source)
                continue
            raise FeedError(f"{name} is not a valid OPML file ({err}).") from None
        except (ValueError, LookupError) as err:  # an encoding expat cannot read itself: Big5, Shift_JIS, unknown
            if isinstance(source, str):
                raise FeedError(f"{name} is not a valid OPML file ({err}).") from None
            source = _decode(data, name, err)


def _decode(data: bytes, name: str, err: Exception) -> str:
    """The document as text, decoded with the encoding its XML declaration names."""
    match = _DECLARED_ENCODING.match(data)
    if match is None:
        raise FeedError(f"{name} is not a valid OPML file ({err}).")
    encoding = match.group(1).decode("ascii")
    try:
        codec = codecs.lookup(encoding).name
        text = data.decode(_SUPERSETS.get(codec, codec), errors="replace")
    except LookupError:
        raise FeedError(f"{name} is written in a text encoding Earmark does not know ({encoding}).") from None
    except (ValueError, UnicodeError) as decode_err:  # codecs that are not text encodings
        raise FeedError(f"{name} is not a valid OPML file ({decode_err}).") from None
    return _DECLARATION.sub("", text, count=1)


def _replace_html_entities(source: bytes | str) -> bytes | str:
    """Entity references made harmless: HTML names (and XML's own) become character references, others literal text."""

    def replacement(entity: str) -> str:
        chars = html5.get(f"{entity};")
        return "".join(f"&#{ord(c)};" for c in chars) if chars else f"&amp;{entity};"

    if isinstance(source, str):
        return _ENTITY_TEXT.sub(lambda m: replacement(m.group(1)), source)
    return _ENTITY_BYTES.sub(lambda m: replacement(m.group(1).decode("ascii")).encode("ascii"), source)


class _Reader:
    """Collects feeds (merging duplicates) and skip sentences while walking the outline tree."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.skipped: list[str] = []
        self._feeds: dict[str, tuple[OpmlFeed, dict[str, None]]] = {}
        self._long_path = False

    def feeds(self) -> list[OpmlFeed]:
        """The feeds found so far, in document order, with their tag lists filled in."""
        result = []
        for feed, tags in self._feeds.values():
            feed.tags = list(tags)
            result.append(feed)
        return result

    def walk(self, body: ET.Element) -> None:
        """Visit every outline under ``body`` in document order (iteratively: nesting depth is untrusted)."""
        stack: list[tuple[Iterator[ET.Element], tuple[str, ...]]] = [(_outlines(body), ())]
        while stack:
            outlines, folders = stack[-1]
            outline = next(outlines, None)
            if outline is None:
                stack.pop()
                continue
            children = list(_outlines(outline))
            inner = self._visit(outline, folders, bool(children))
            if inner is not None and children:
                if len(stack) >= MAX_DEPTH:
                    raise FeedError(
                        f"{self.name} nests outlines more than {MAX_DEPTH} levels deep, "
                        "so it is not a subscription list Earmark can read."
                    )
                stack.append((iter(children), inner))

    def _visit(self, outline: ET.Element, folders: tuple[str, ...], has_children: bool) -> tuple[str, ...] | None:
        """Record one outline; returns the folder tags its children get, or None to leave them unread."""
        attrs = _attributes(outline)
        kind = attrs.get("type", "").strip().lower()
        label = clean_label(attrs.get("title")) or clean_label(attrs.get("text"))
        raw_url = attrs.get("xmlurl", "").strip()
        if kind in _LIST_TYPES:
            address = (attrs.get("url") or raw_url).strip()
            where = f" ({_shorten(address)})" if address else ""
            self.skipped.append(
                f"{_subject(label)} includes another subscription list{where}, "
                "which Earmark does not fetch, so it was skipped."
            )
            return None
        if raw_url:
            url, problem = _feed_url(raw_url)
            if url is None:
                self.skipped.append(f"{_subject(label or raw_url)} {problem}, so it was skipped.")
            else:
                self._add(url, label or url, folders, attrs)
            return folders
        if has_children:
            return self._folder(folders, normalize_tag(label))
        if "xmlurl" in attrs or kind in _SUBSCRIPTION_TYPES or attrs.get("htmlurl", "").strip() or "url" in attrs:
            fallback = clean_label(attrs.get("url")) or clean_label(attrs.get("htmlurl"))
            self.skipped.append(f"{_subject(label or fallback)} has no feed address (xmlUrl), so it was skipped.")
        return None

    def _folder(self, folders: tuple[str, ...], name: str) -> tuple[str, ...]:
        """The tags of a folder's feeds: its parents' and its own path (folder "deep" in "tech": "tech/deep")."""
        if not name:
            return folders
        path = f"{folders[-1]}/{name}" if folders else name
        if not folders or len(path) <= MAX_PATH_CHARS:  # a top folder's name is not copied: any length
            return (*folders, path)
        if not self._long_path:  # a bound on what hostile nesting can build: paths are copied at every level
            self._long_path = True
            self.skipped.append(f"Folders nested under “{_shorten(folders[-1])}” make a tag longer than "
                                f"{MAX_PATH_CHARS} characters, so their feeds only have the outer folders' tags.")
        return folders

    def _add(self, url: str, title: str, folders: tuple[str, ...], attrs: dict[str, str]) -> None:
        tags = dict.fromkeys(folders)
        for category in attrs.get("category", "").split(","):
            tag = category_tag(category)
            if tag:
                tags.setdefault(tag)
        html_url = attrs.get("htmlurl", "").strip() or None
        known = self._feeds.get(url)
        if known is None:
            self._feeds[url] = (OpmlFeed(url=url, title=title, html_url=html_url), tags)
            return
        feed, known_tags = known
        for tag in tags:
            known_tags.setdefault(tag)
        if feed.html_url is None:
            feed.html_url = html_url


def _feed_url(raw: str) -> tuple[str | None, str]:
    """The web address to fetch for an xmlUrl value, or None and what is wrong with it."""
    not_web = "has a feed address that is not a full web address"
    match = _SCHEME.match(raw)
    if match is None:
        return None, not_web
    scheme = match.group(1).lower()
    rest = raw[match.end() :]
    if scheme in _FEED_SCHEMES:
        if rest.lower().startswith(("http://", "https://")):
            url = rest  # feed:https://example.com/rss
        elif rest.startswith("//"):
            url = "https:" + rest  # feed://example.com/rss
        else:
            url = "https://" + rest
    elif scheme in _WEB_SCHEMES:
        url = scheme + ":" + rest
    elif scheme == "file":
        return _file_url(rest)
    else:
        return None, f"has a “{_shorten(scheme)}:” feed address, which Earmark cannot subscribe to"
    try:
        parts = urlsplit(url)
    except ValueError:
        return None, not_web
    if parts.scheme.lower() not in _WEB_SCHEMES or not parts.hostname:
        return None, not_web
    return url, ""


def _file_url(rest: str) -> tuple[str | None, str]:
    """A feed file on this computer (``file:///path``, as ``subscribe`` stores one), or None and why not."""
    try:
        parts = urlsplit("file:" + rest)
    except ValueError:
        parts = None
    if parts is None or parts.netloc.lower() not in ("", "localhost") or not parts.path.startswith("/"):
        return None, "has a “file:” feed address that is not a file on this computer"
    return PurePosixPath(unquote(parts.path)).as_uri(), ""


def _outlines(element: ET.Element) -> Iterator[ET.Element]:
    return (child for child in element if isinstance(child.tag, str) and _local(child.tag) == "outline")


def _child(element: ET.Element, name: str) -> ET.Element | None:
    return next((c for c in element if isinstance(c.tag, str) and _local(c.tag) == name), None)


def _local(tag: str) -> str:
    """An element name without its namespace (some exporters put OPML in a default namespace)."""
    return tag.rpartition("}")[2]


def _attributes(outline: ET.Element) -> dict[str, str]:
    """Outline attributes by lower-cased name (xmlurl, XMLURL and xmlUrl are all seen in the wild)."""
    attrs: dict[str, str] = {}
    for key, value in outline.attrib.items():
        if not key.startswith("{"):
            attrs.setdefault(key.lower(), value)
    return attrs


def clean_label(text: str | None) -> str:
    """An outline's text as read: single-spaced."""
    return " ".join(text.split()) if text else ""


def category_tag(name: str) -> str:
    """A category as a tag: normalized, without the slashes around OPML category paths ("/Boston/Weather")."""
    return normalize_tag(name).strip("/ ")


def _shorten(text: str) -> str:
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"


def _subject(label: str) -> str:
    return f"The outline “{_shorten(label)}”" if label else "An outline without a name"
