"""Writing OPML subscription lists that read_opml (and gPodder, feed readers) read back as written."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from datetime import UTC, datetime
from email.utils import format_datetime

from earmark.core.db.tags import normalize_tag
from earmark.core.feeds.opml import MAX_PATH_CHARS, OpmlFeed, category_tag, clean_label

_NOT_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def write_opml(feeds: Iterable[OpmlFeed], title: str) -> bytes:
    """An OPML 2.0 document (UTF-8) listing ``feeds``; read_opml gives back the feeds it returned itself.

    Tags are folders: a tag ``tech/deep`` of a feed that also has ``tech`` is the folder "deep" inside "tech",
    any other tag a folder of its own name. A feed sits in the folder of each of its tags that holds no other
    (so "tech" is not repeated beside "tech/deep"), and lists every comma-free tag in ``category`` for apps that
    read categories. Folders appear where their first feed does, so feeds come back grouped by folder.
    """
    opml = ET.Element("opml", version="2.0")
    head = ET.SubElement(opml, "head")
    ET.SubElement(head, "title").text = _xml_safe(title)
    ET.SubElement(head, "dateCreated").text = format_datetime(datetime.now(UTC), usegmt=True)
    body = ET.SubElement(opml, "body")
    tree = _Folder()
    for feed in feeds:
        tags = list(dict.fromkeys(filter(None, map(normalize_tag, feed.tags))))
        categories = [tag for tag in tags if "," not in tag and tag == category_tag(tag)]
        for path in folder_paths(tags) or [[]]:
            tree.add(path, feed, categories)
    tree.write(body)
    ET.indent(opml, space="  ")
    return ET.tostring(opml, encoding="UTF-8", xml_declaration=True) + b"\n"


def folder_paths(tags: list[str]) -> list[list[str]]:
    """The folders a feed with these tags is written in: one per tag that is no other tag's parent. A tag
    ``a/b/c`` is nested (folders a, b, c) when ``a`` and ``a/b`` are tags too, since reading that nesting gives
    all three; otherwise it is one folder of its own name (which reads back as the same tag)."""
    present = set(tags)

    def nested(tag: str) -> bool:
        parts = tag.split("/")
        return (1 < len(parts) and len(tag) <= MAX_PATH_CHARS and all(part and part == part.strip() for part in parts)
                and all("/".join(parts[:n]) in present for n in range(1, len(parts))))

    parents = {tag.rsplit("/", 1)[0] for tag in tags if nested(tag)}
    return [tag.split("/") if nested(tag) else [tag] for tag in tags if tag not in parents]


class _Folder:
    """Folders and feeds in first-appearance order, for writing."""

    def __init__(self) -> None:
        self.items: list[tuple[str, _Folder] | tuple[OpmlFeed, list[str]]] = []
        self.folders: dict[str, _Folder] = {}

    def add(self, path: list[str], feed: OpmlFeed, categories: list[str]) -> None:
        folder = self
        for name in path:
            inner = folder.folders.get(name)
            if inner is None:
                inner = folder.folders[name] = _Folder()
                folder.items.append((name, inner))
            folder = inner
        folder.items.append((feed, categories))

    def write(self, parent: ET.Element) -> None:
        for first, second in self.items:
            if isinstance(first, str) and isinstance(second, _Folder):
                name = _xml_safe(first)
                second.write(ET.SubElement(parent, "outline", text=name, title=name))
            elif isinstance(first, OpmlFeed) and isinstance(second, list):
                parent.append(_feed_outline(first, second))


def written_title(feed: OpmlFeed) -> str:
    """The title a feed's outline gets: its own as XML can hold it (single-spaced, as it is read), else its
    address."""
    return clean_label(_xml_safe(feed.title)) or _xml_safe(feed.url)


def _feed_outline(feed: OpmlFeed, categories: list[str]) -> ET.Element:
    title = written_title(feed)
    outline = ET.Element("outline", type="rss", text=title, title=title, xmlUrl=_xml_safe(feed.url))
    if feed.html_url:
        outline.set("htmlUrl", _xml_safe(feed.html_url))
    if categories:
        outline.set("category", _xml_safe(",".join(categories)))
    return outline


def _xml_safe(text: str) -> str:
    """Text without the characters XML 1.0 cannot hold (control characters, lone surrogates)."""
    return _NOT_XML_CHARS.sub("", text)
