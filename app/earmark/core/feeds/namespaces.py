"""Podcasting 2.0 and iTunes extras that feedparser drops, read in a second, defused pass over the feed bytes."""

from __future__ import annotations

import re
from dataclasses import field
from functools import lru_cache
from html.entities import name2codepoint
from urllib.parse import urljoin, urlsplit, urlunsplit
from xml.etree.ElementTree import Element, ParseError
from xml.parsers.expat import errors as expat_errors

import defusedxml.ElementTree as SafeET  # type: ignore[import-untyped]
from defusedxml import DefusedXmlException

from earmark.core.feeds.feed_images import largest_image, widest
from earmark.core.records import record


@record
class ItemExtras:
    """What one <item>/<entry> carries beyond feedparser's view of it."""

    guid: str | None = None
    chapters_url: str | None = None
    chapters_type: str | None = None
    transcripts: list[dict[str, str]] = field(default_factory=list)
    persons: list[dict[str, str]] = field(default_factory=list)
    season: int | None = None
    episode: int | None = None
    episode_type: str | None = None
    explicit: bool | None = None
    image_url: str | None = None
    remote_items: list[dict[str, str]] = field(default_factory=list)  # podcast:remoteItem: what it points at


@record
class ChannelExtras:
    """What the channel (or Atom feed) carries beyond feedparser's view of it."""

    podcast_guid: str | None = None
    funding: list[dict[str, str]] = field(default_factory=list)
    persons: list[dict[str, str]] = field(default_factory=list)
    itunes_type: str | None = None
    explicit: bool | None = None
    locked: bool | None = None
    podroll: list[dict[str, str]] = field(default_factory=list)  # the podcasts it recommends (podcast:podroll)
    new_feed_url: str | None = None  # itunes:new-feed-url: where the feed moved
    image_url: str | None = None  # the channel's itunes:image, else the largest of podcast:images


@record
class NamespaceData:
    """Channel extras plus one ItemExtras per item, in document order."""

    channel: ChannelExtras
    items: list[ItemExtras]


_ITUNES = "itunes"
_PODCAST = "podcast"
# Known namespace URIs, compared without scheme, trailing slash or letter case.
_NAMESPACES = {
    "www.itunes.com/dtds/podcast-1.0.dtd": _ITUNES,
    "itunes.com/dtds/podcast-1.0.dtd": _ITUNES,
    "podcastindex.org/namespace/1.0": _PODCAST,
    "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": _PODCAST,
}
# URIs given to prefixes a feed uses without declaring them (see _declare_prefixes).
_PREFIX_URIS = {
    "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
    "podcast": "https://podcastindex.org/namespace/1.0",
}
_XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
_RDF_ABOUT = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}about"

# Cheap test for "could this feed have anything for us" before parsing at all.
_MARKERS = (
    b"itunes",
    b"iTunes",
    b"ITUNES",
    b"podcastindex",
    b"Podcastindex",
    b"PodcastIndex",
    b"podcast-namespace",
    b"podcast:",
)

_UNBOUND_PREFIX = expat_errors.codes[expat_errors.XML_ERROR_UNBOUND_PREFIX]
_UNDEFINED_ENTITY = expat_errors.codes[expat_errors.XML_ERROR_UNDEFINED_ENTITY]
_ENTITY_REF = re.compile(rb"&([A-Za-z][A-Za-z0-9]{0,31});")
_XML_ENTITIES = frozenset((b"amp", b"lt", b"gt", b"quot", b"apos"))
_USED_PREFIX = re.compile(rb"<([A-Za-z_][\w.-]{0,63}):[A-Za-z_]|\s([A-Za-z_][\w.-]{0,63}):[\w.-]+\s*=\s*[\"']")
_START_TAG = re.compile(rb"<([A-Za-z_][\w.:-]*)(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*/?>")
_DECLARED_PREFIX = re.compile(rb"xmlns:([\w.-]+)\s*=")
_MAX_PREFIXES = 64

_PLAIN_WEB_URL = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d{1,5})?(?:[/?#][^\x00-\x20\x7f-\x9f]*)?")
_NUMBER = re.compile(r"\+?(\d{1,9})(?:\.\d*)?")
_YES, _NO = frozenset(("yes",)), frozenset(("no",))
_TRUE = frozenset(("yes", "true", "explicit"))
_FALSE = frozenset(("no", "false", "clean"))
_EPISODE_TYPES = frozenset(("full", "trailer", "bonus"))
_ITUNES_TYPES = frozenset(("episodic", "serial"))


def read_extras(data: bytes, base_url: str) -> NamespaceData:
    """Podcasting 2.0 / iTunes extras of a feed document; empty data (never an exception) for anything unreadable.

    ``base_url`` is the feed's URL; relative links resolve against it and only http(s) links come out.
    """
    if not any(marker in data for marker in _MARKERS):
        return _empty()
    try:
        root = _parse(data)
        return _extract(root, base_url) if root is not None else _empty()
    except Exception:  # a broken or hostile feed must never break the main import
        return _empty()


def extras_from_tree(root: Element, data: bytes, base_url: str) -> NamespaceData:
    """``read_extras`` for a document whose tree was already built from ``data`` (the fast parser's)."""
    if not any(marker in data for marker in _MARKERS):
        return _empty()
    try:
        return _extract(root, base_url)
    except Exception:  # as in read_extras: a broken feed never breaks the import
        return _empty()


def _empty() -> NamespaceData:
    return NamespaceData(ChannelExtras(), [])


def _parse(data: bytes) -> Element | None:
    """The document's root via defusedxml (no entity declarations, no external references), or None.

    Two defects common in real feeds are repaired once: prefixes used without a declaration, and HTML entities.
    """
    try:
        return SafeET.fromstring(data)
    except DefusedXmlException:
        return None
    except ParseError as exc:
        if exc.code not in (_UNBOUND_PREFIX, _UNDEFINED_ENTITY):
            return None
    repaired = _declare_prefixes(_ENTITY_REF.sub(_numeric_entity, data))
    if repaired == data:
        return None
    try:
        return SafeET.fromstring(repaired)
    except (DefusedXmlException, ParseError):
        return None


def _numeric_entity(match: re.Match[bytes]) -> bytes:
    name = match.group(1)
    if name in _XML_ENTITIES:
        return match.group(0)
    codepoint = name2codepoint.get(name.decode("ascii"))
    return b"&#%d;" % codepoint if codepoint is not None else b"&amp;" + name + b";"


def _declare_prefixes(data: bytes) -> bytes:
    """``data`` with every undeclared prefix declared on the root element (itunes/podcast get their real URIs)."""
    start = _root_start(data)
    if start < 0:
        return data
    tag = _START_TAG.match(data, start)
    if tag is None:
        return data
    declared = set(_DECLARED_PREFIX.findall(tag.group(0))) | {b"xml", b"xmlns"}
    used: dict[bytes, None] = {}
    for match in _USED_PREFIX.finditer(data):
        prefix = match.group(1) or match.group(2)
        if prefix not in declared:
            used[prefix] = None
            if len(used) >= _MAX_PREFIXES:
                break
    if not used:
        return data
    declarations = b"".join(b' xmlns:%s="%s"' % (prefix, _prefix_uri(prefix)) for prefix in used)
    insert_at = start + 1 + len(tag.group(1))
    return data[:insert_at] + declarations + data[insert_at:]


def _prefix_uri(prefix: bytes) -> bytes:
    name = prefix.decode("ascii")  # the byte patterns only match ASCII names
    return _PREFIX_URIS.get(name, "urn:x-undeclared-prefix:" + name).encode("ascii")


def _root_start(data: bytes) -> int:
    """Offset of the root element's ``<``, skipping the XML declaration, PIs, comments and a DOCTYPE; -1 if none."""
    pos = data.find(b"<")
    while 0 <= pos:
        if data.startswith(b"<?", pos):
            end = data.find(b"?>", pos)
        elif data.startswith(b"<!--", pos):
            end = data.find(b"-->", pos)
        elif data.startswith(b"<!", pos):
            bracket, close = data.find(b"[", pos), data.find(b">", pos)
            end = data.find(b"]>", pos) if 0 <= bracket < close else close
        else:
            return pos
        pos = data.find(b"<", end) if end >= 0 else -1
    return -1


@lru_cache(maxsize=256)
def _classify(tag: str) -> tuple[str | None, str, str]:
    """(known namespace kind or None, namespace URI, local name) of an ElementTree tag."""
    if not tag.startswith("{"):
        return None, "", tag
    uri, _, local = tag[1:].partition("}")
    key = uri.strip().lower().rstrip("/")
    for scheme in ("https://", "http://"):
        if key.startswith(scheme):
            key = key[len(scheme) :]
            break
    return _NAMESPACES.get(key), uri, local


def _tag(element: Element) -> tuple[str | None, str, str]:
    return _classify(element.tag)


def _extract(root: Element, base_url: str) -> NamespaceData:
    _, _, root_name = _tag(root)
    base = _rebase(base_url, root)
    if root_name == "rss":
        channel = _child(root, "channel")
        container = channel if channel is not None else root
        item_parent = container
    elif root_name == "RDF":
        channel = _child(root, "channel")
        container = channel if channel is not None else root
        item_parent = root
    elif root_name == "feed":
        container = item_parent = root
    else:
        return _empty()
    item_name = "entry" if root_name == "feed" else "item"
    items = [child for child in item_parent if _tag(child)[0] is None and _tag(child)[2] == item_name]
    channel_base = _rebase(base, container) if container is not root else base
    extras = _channel(container, channel_base)
    extras.funding = _funding(root, base, frozenset(map(id, items)))
    return NamespaceData(extras, [_item(item, _rebase(channel_base, item), root_name) for item in items])


def _child(parent: Element, name: str) -> Element | None:
    return next((child for child in parent if _tag(child)[0] is None and _tag(child)[2] == name), None)


def _channel(container: Element, base: str) -> ChannelExtras:
    extras = ChannelExtras()
    itunes_image: str | None = None
    podcast_images: list[tuple[int, str] | None] = []
    for child in container:
        kind, _, name = _tag(child)
        if kind == _PODCAST:
            if name == "guid" and extras.podcast_guid is None:
                extras.podcast_guid = _text(child) or None
            elif name == "locked" and extras.locked is None:
                extras.locked = _yes_no(_text(child), _YES, _NO)
            elif name == "person":
                _append(extras.persons, _person(child, base))
            elif name == "podroll":
                for remote in child:
                    if _tag(remote)[0] == _PODCAST and _tag(remote)[2] == "remoteItem":
                        _append(extras.podroll, _remote_item(remote, base))
            elif name in ("images", "image"):
                podcast_images.append(_podcast_image(child, base))
        elif kind == _ITUNES:
            if name == "type" and extras.itunes_type is None:
                value = _text(child).lower()
                extras.itunes_type = value if value in _ITUNES_TYPES else None
            elif name == "explicit" and extras.explicit is None:
                extras.explicit = _yes_no(_text(child), _TRUE, _FALSE)
            elif name == "new-feed-url" and extras.new_feed_url is None:
                extras.new_feed_url = _web_url(base, _text(child))
            elif name == "image" and not itunes_image:
                itunes_image = _image_href(child, base)
    extras.image_url = itunes_image or widest(podcast_images)
    return extras


def _podcast_image(element: Element, base: str) -> tuple[int, str] | None:
    """podcast:images (a srcset, deprecated) or a podcast:image for artwork, as (width, address)."""
    resolve = lambda href: _web_url(_rebase(base, element), href)  # noqa: E731 - a one-line resolver
    if _tag(element)[2] == "images":
        return largest_image(_attr(element, "srcset"), resolve)
    if "artwork" not in (_attr(element, "purpose") or "artwork").lower().split():
        return None
    url = resolve(element.get("href"))
    return (_number(_attr(element, "width")) or 0, url) if url else None


def _funding(root: Element, base: str, skip: frozenset[int]) -> list[dict[str, str]]:
    """podcast:funding anywhere in the document except inside items (some feeds put it right under <rss>)."""
    found: list[dict[str, str]] = []
    stack = [(child, base) for child in reversed(root) if id(child) not in skip]
    while stack:
        element, parent_base = stack.pop()
        element_base = _rebase(parent_base, element)
        kind, _, name = _tag(element)
        if kind == _PODCAST and name == "funding":
            url = _web_url(element_base, element.get("url"))
            if url:
                found.append({"url": url, "text": _text(element)})
        else:
            stack.extend((child, element_base) for child in reversed(element) if id(child) not in skip)
    return found


def _item(element: Element, base: str, root_name: str) -> ItemExtras:
    extras = ItemExtras()
    item_uri = _tag(element)[1]
    id_name = "id" if root_name == "feed" else "guid"
    seasons: dict[str, int | None] = {}
    episodes: dict[str, int | None] = {}
    for child in element:
        kind, uri, name = _tag(child)
        if kind is None:
            if name == id_name and uri == item_uri and extras.guid is None:
                extras.guid = _text(child) or None
        elif kind == _PODCAST:
            if name == "chapters" and extras.chapters_url is None:
                extras.chapters_url = _web_url(_rebase(base, child), child.get("url"))
                if extras.chapters_url:
                    extras.chapters_type = _attr(child, "type").lower() or None
            elif name == "transcript":
                _append(extras.transcripts, _transcript(child, base))
            elif name == "person":
                _append(extras.persons, _person(child, base))
            elif name in ("season", "episode"):
                _keep_number(seasons if name == "season" else episodes, kind, child)
            elif name == "remoteItem":
                _append(extras.remote_items, _remote_item(child, base))
        elif kind == _ITUNES:
            if name in ("season", "episode"):
                _keep_number(seasons if name == "season" else episodes, kind, child)
            elif name == "episodeType" and extras.episode_type is None:
                value = _text(child).lower()
                extras.episode_type = value if value in _EPISODE_TYPES else None
            elif name == "explicit" and extras.explicit is None:
                extras.explicit = _yes_no(_text(child), _TRUE, _FALSE)
            elif name == "image" and extras.image_url is None:
                extras.image_url = _image_href(child, base)
    if extras.guid is None and root_name == "RDF":  # RSS 1.0 items are identified by rdf:about, as in feedparser
        extras.guid = _attr(element, _RDF_ABOUT) or None
    extras.season = _first_number(seasons)
    extras.episode = _first_number(episodes)
    return extras


def _image_href(element: Element, base: str) -> str | None:
    """An itunes:image's address: href is the standard; url= and a bare URL as text both occur in the wild."""
    return _web_url(_rebase(base, element), element.get("href") or element.get("url") or _text(element))


def _keep_number(found: dict[str, int | None], kind: str, element: Element) -> None:
    if found.get(kind) is None:
        found[kind] = _number(_text(element))


def _first_number(found: dict[str, int | None]) -> int | None:
    """itunes: wins over podcast: when both are valid."""
    itunes, podcast = found.get(_ITUNES), found.get(_PODCAST)
    return itunes if itunes is not None else podcast


def _transcript(element: Element, base: str) -> dict[str, str] | None:
    url = _web_url(_rebase(base, element), element.get("url"))
    if not url:
        return None
    transcript = {"url": url, "type": _attr(element, "type").lower()}
    for key in ("language", "rel"):
        value = _attr(element, key)
        if value:
            transcript[key] = value
    return transcript


def _person(element: Element, base: str) -> dict[str, str] | None:
    name = _text(element)
    if not name:
        return None
    person = {"name": name}
    for key in ("role", "group"):
        value = _attr(element, key).lower()
        if value:
            person[key] = value
    element_base = _rebase(base, element)
    for key in ("href", "img"):
        url = _web_url(element_base, element.get(key))
        if url:
            person[key] = url
    return person


def _remote_item(element: Element, base: str) -> dict[str, str] | None:
    """A podcast:remoteItem: the feed (by guid or URL) and, when given, the item (by guid) it points at."""
    remote = {key: value for key in ("feedGuid", "itemGuid", "medium") if (value := _attr(element, key))}
    url = _web_url(_rebase(base, element), element.get("feedUrl"))
    if url:
        remote["feedUrl"] = url
    return remote if "feedGuid" in remote or "feedUrl" in remote else None


def _append(target: list[dict[str, str]], value: dict[str, str] | None) -> None:
    if value is not None:
        target.append(value)


def _text(element: Element) -> str:
    """All text inside ``element``, whitespace collapsed."""
    text = "".join(element.itertext()) if len(element) else element.text or ""
    return " ".join(text.split())


def _attr(element: Element, key: str) -> str:
    return " ".join((element.get(key) or "").split())


def _number(text: str) -> int | None:
    """A non-negative whole number ('12', '+3', '4.0' and '3.5' give the integer part); None for anything else."""
    match = _NUMBER.fullmatch(text)
    return int(match.group(1)) if match else None


def _yes_no(text: str, true: frozenset[str], false: frozenset[str]) -> bool | None:
    value = text.lower()
    return True if value in true else False if value in false else None


def _rebase(base: str, element: Element) -> str:
    """``base`` moved by the element's xml:base, unless that would leave http(s) (an unsafe base is ignored)."""
    href = element.get(_XML_BASE)
    if not href:
        return base
    return _web_url(base, href) or base


def _web_url(base: str, href: str | None) -> str | None:
    """``href`` resolved against ``base`` if the result is an http(s) URL with a host, else None."""
    href = (href or "").strip()
    if not href:
        return None
    if _PLAIN_WEB_URL.fullmatch(href):  # the usual case: already absolute, nothing urljoin would change
        return href
    try:
        url = urljoin(base, href)
        if _PLAIN_WEB_URL.fullmatch(url):
            return url
        parts = urlsplit(url)
    except ValueError:  # e.g. a malformed IPv6 host
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    url = urlunsplit(parts)  # scheme lowercased, tabs/newlines dropped
    return url if url.startswith(("http://", "https://")) else None
