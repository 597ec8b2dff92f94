"""The fast parser's way through the items of a plain RSS 2.0 channel: each item's children read straight from the
tree into the entry dictionary feedparser's handlers would have made, for the keys FeedData reads (entries.py).

Most of a big feed is its items, and most items hold the same few elements. Those are read here as feedparser
reads them (its value clean-up, its rules for guids as links, descriptions and content:encoded, enclosures,
categories); an element without a feedparser handler is left out when FeedData never reads what it would store.
Anything else (a handler not reproduced here, an element inside an element, attributes other than the usual
ones, an element repeated where feedparser's depth rules would decide) raises NotPlainError, and the whole document
takes feedparser's handlers instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from xml.etree.ElementTree import Element

from feedparser.datetimes import _parse_date
from feedparser.html import _cp1252

if TYPE_CHECKING:
    import time

_MONTHS = {name: number for number, name in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(), 1)}
_RFC822_DATE = re.compile(r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) (" + "|".join(_MONTHS) + r") ([0-9]{4}) "
                          r"([0-9]{2}):([0-9]{2}):([0-9]{2}) (?:([+-])([0-9]{2})([0-9]{2})|GMT|UTC?|Z)")
_QUERY_ENTITY = re.compile("&([A-Za-z0-9_]+);")
# What feed_data and without_made_up_links read of an entry: an element feedparser has no handler for is
# stored under its own key, harmless unless it is one of these.
_READ_KEYS = frozenset({"title", "summary", "content", "link", "links", "id", "guidislink", "published",
                        "published_parsed", "updated", "updated_parsed", "itunes_duration", "author", "enclosures",
                        "media_content", "tags", "category", "itunes_keywords"})
# Elements whose feedparser handlers store only keys FeedData never reads (given no attributes).
_IGNORED_HANDLERS = frozenset({"itunes_explicit", "itunes_image", "itunes_subtitle", "itunes_block"})
_AUTHORS = frozenset({"author", "itunes_author", "dc_creator"})  # the last one wins, as in feedparser
_SUMMARIES = frozenset({"description", "itunes_summary"})
_REPEATABLE = _AUTHORS | {"category", "itunes_keywords", "enclosure"}


class NotPlainError(Exception):
    """An item holds something only feedparser's own handlers can read exactly."""


def feed_date(value: str | None) -> time.struct_time | None:
    """feedparser's _parse_date(value): for the common "Wed, 01 Jan 2025 12:39:00 +0000" form, the answer its
    RFC 822 parser gives (its W3C-DTF parser, tried first, never takes a string that starts with a day name)."""
    match = _RFC822_DATE.fullmatch(value) if value else None
    if match is None:
        return _parse_date(value)
    day, month, year, hour, minute, second, sign, zone_hours, zone_minutes = match.groups()
    try:
        stamp = datetime(int(year), _MONTHS[month], int(day), int(hour), int(minute), int(second))
        if zone_hours is None or zone_hours == zone_minutes == "00":  # UTC, the usual zone: no arithmetic
            return stamp.utctimetuple()
        offset = timedelta(minutes=int(zone_hours) * 60 + int(zone_minutes))
        return (stamp + offset if sign == "-" else stamp - offset).utctimetuple()
    except (ValueError, OverflowError):
        return _parse_date(value)


def cleaned(text: str | None, resolve: Callable[[str], str] | None = None) -> str:
    """An element's text as feedparser's ``pop`` leaves it: stripped, resolved when it is a link, UTF-8 read
    as ISO-8859-1 upstream repaired, Windows-1252 controls mapped to their characters."""
    output = (text or "").strip()
    if output and resolve is not None:
        output = resolve(output)
    if not output.isascii():
        try:
            output = output.encode("iso-8859-1").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            pass
        output = output.translate(_cp1252)
    return output


class ItemReader:
    """Reads items for a parser that names elements as feedparser does (``key``: its handler key and whether it
    has handlers), gives their attribute dictionaries and resolves links against the feed."""

    def __init__(self, key: Callable[[str], tuple[str, bool]], attributes: Callable[[Element], dict[str, str]],
                 resolve: Callable[[str], str]) -> None:
        self._named = key
        self._keys: dict[str, tuple[str, bool]] = {}  # element name -> key(name), asked once per name
        self._attributes = attributes
        self._resolve = resolve

    def _key(self, name: str) -> tuple[str, bool]:
        known = self._keys.get(name)
        if known is None:
            known = self._keys[name] = self._named(name)
        return known

    def read(self, item: Element) -> dict[str, Any]:
        """The entry feedparser makes of ``item`` (its keys that FeedData reads)."""
        if item.attrib:
            raise NotPlainError("attributes on an item")
        entry: dict[str, Any] = {"links": []}
        has_content = False
        seen: set[str] = set()
        keys = self._keys
        for child in item:
            key, handled = keys.get(child.tag) or self._key(child.tag)
            attrs = self._attributes(child) if child.attrib else {}
            if not handled and key not in _READ_KEYS:  # feedparser stores it where FeedData never looks
                self._check_unread(child)
                continue
            if len(child):
                raise NotPlainError("an element inside an item's element")
            if key in seen and key not in _REPEATABLE:
                raise NotPlainError("an element repeated")
            seen.add(key)
            if key in _SUMMARIES:
                if attrs:
                    raise NotPlainError("a description with attributes")
                value = cleaned(child.text)
                if "summary" in entry and not has_content:  # feedparser reads the second one as content
                    has_content = True
                    entry.setdefault("content", []).append({"type": "text/plain", "value": value})
                else:
                    entry["summary"] = value
            elif key == "content_encoded":
                if attrs:
                    raise NotPlainError("content:encoded with attributes")
                has_content = True
                value = cleaned(child.text)
                entry.setdefault("content", []).append({"type": "text/html", "value": value})
                entry.setdefault("summary", value)
            elif key == "enclosure":
                attrs["rel"] = "enclosure"
                href = attrs.get("url", attrs.get("uri", attrs.get("href")))
                if href:
                    attrs["href"] = href
                entry["links"].append(attrs)
            else:
                self._read_text_element(entry, key, handled, attrs, child.text)
        entry["enclosures"] = [{name: value for name, value in link.items() if name != "rel"}
                               for link in entry["links"] if link["rel"] == "enclosure"]
        return entry

    def _check_unread(self, element: Element) -> None:
        """An element FeedData never reads: so must be everything inside it (each one's attributes are made,
        as feedparser makes them, for what they refuse, such as xml:base)."""
        for inner in element:
            key, handled = self._key(inner.tag)
            if inner.attrib:
                self._attributes(inner)
            if handled or key in _READ_KEYS:
                raise NotPlainError(f"<{key}> inside an element of an item")
            self._check_unread(inner)

    def _read_text_element(self, entry: dict[str, Any], key: str, handled: bool, attrs: dict[str, str],
                           text: str | None) -> None:
        if key == "guid":
            if set(attrs) - {"ispermalink"}:
                raise NotPlainError("guid with attributes")
            is_link = attrs.get("ispermalink", "true") == "true"
            value = entry["id"] = cleaned(text, self._resolve if is_link else None)
            entry.setdefault("guidislink", is_link and "link" not in entry)
            if is_link:
                entry.setdefault("link", value)
        elif key == "category":
            if set(attrs) - {"domain"}:
                raise NotPlainError("category with attributes")
            if value := cleaned(text):
                entry.setdefault("tags", []).append({"term": value})
        elif attrs:
            if key in _READ_KEYS or key not in _IGNORED_HANDLERS:
                raise NotPlainError("attributes")
        elif key == "title":
            entry["title"] = cleaned(text)
        elif key == "link":
            value = cleaned(text, self._resolve)
            entry["link"] = _QUERY_ENTITY.sub(r"&\g<1>", value.replace("&amp;", "&")) if "&" in value else value
            entry["links"].append({"rel": "alternate", "type": "text/html"})
        elif key == "pubdate":
            value = entry["published"] = cleaned(text)
            entry["published_parsed"] = feed_date(value)
        elif key == "itunes_duration":
            entry["itunes_duration"] = cleaned(text)
        elif key in _AUTHORS:
            entry["author"] = cleaned(text)
        elif key == "itunes_keywords":
            entry.setdefault("tags", []).extend({"term": term.strip()} for term in cleaned(text).split(",")
                                                if term.strip())
        elif key not in _IGNORED_HANDLERS:
            raise NotPlainError(f"<{key}> in an item")
