"""parse_feed's fast path: feedparser's own element handlers, fed from a defusedxml tree instead of SAX."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from xml.etree.ElementTree import Element, TreeBuilder, XMLParser
from xml.sax import make_parser

import defusedxml.ElementTree as SafeET  # type: ignore[import-untyped]
from feedparser.api import _XML_AVAILABLE, PREFERRED_XML_PARSERS
from feedparser.encodings import convert_to_utf8, parse_content_type
from feedparser.html import _cp1252
from feedparser.mixin import _FeedParserMixin
from feedparser.sanitizer import replace_doctype
from feedparser.urls import _urljoin, make_safe_absolute_uri
from feedparser.util import FeedParserDict

from earmark.core.feeds.entries import bozo_warning, feed_data, response_headers, urljoin_keeps
from earmark.core.feeds.namespaces import extras_from_tree, read_extras
from earmark.core.feeds.plain_items import ItemReader, NotPlainError
from earmark.core.feeds.plain_items import feed_date as _date
from earmark.core.models import FeedData

# feedparser reads the bytes in one of these (ASCII-only documents read the same in any of them).
_UTF8 = frozenset({"utf-8"})
_ASCII_COMPATIBLE = frozenset({"utf-8", "ascii", "latin-1", "iso8859-1", "cp1252"})
# Declared encodings that expat decodes itself, so that namespaces.py's own parse would see the same tree.
_EXPAT_ENCODINGS = frozenset({"utf-8", "us-ascii", "iso-8859-1"})
_DECLARED_ENCODING = re.compile(rb"<\?xml[^>]*?\sencoding\s*=\s*[\"']([^\"']*)[\"']")
_XLINK = "http://www.w3.org/1999/xlink"
_XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"
_INLINE_ROOTS = {"math": "http://www.w3.org/1998/Math/MathML", "svg": "http://www.w3.org/2000/svg"}
_MAX_DEPTH = 64
# The element names for which feedparser keeps its "inside <textinput>/<image>" flags (see unknown_starttag).
_TEXTINPUT_TAGS = frozenset({"title", "link", "description", "name"})
_IMAGE_TAGS = frozenset({"title", "link", "description", "url", "href", "width", "height"})
_QUERY_ENTITY = re.compile("&([A-Za-z0-9_]+);")
_RETURNED_ONLY = ("category", "tags", "itunes_keywords")  # values pop hands back without storing


# feedparser's view of an element name: see _TreeParser._name
_Tag = tuple[str, bool, str, dict[str, str], Callable[[dict[str, str]], None] | None, Callable[[], None] | None]


class _UnsupportedError(Exception):
    """The document uses something the fast path does not reproduce exactly: feedparser must read it."""


def fast_parse(data: bytes, url: str, content_type: str | None) -> FeedData | None:
    """What ``parse_feed(data, url, content_type)`` gives through feedparser, or None when the document is not
    a plain well-formed feed in UTF-8 (or ASCII): then only feedparser can say.

    What decides the result is feedparser's own code (encoding detection, element handlers, the rules shared
    with parse.py); what this replaces is the SAX layer, the per-element base-URI and language tracking, the
    bookkeeping of values FeedData never reads, and the slow general way to the answer for the usual dates and
    absolute links. Documents with a DOCTYPE, ``xml:base``, inline XHTML, base64 content or ambiguous namespace
    prefixes are left to feedparser, and so is anything that makes a feedparser handler fail.
    """
    if not _feedparser_uses_expat():
        return None
    headers = response_headers(url, content_type)
    result: dict[str, Any] = {}
    try:
        text = convert_to_utf8(headers, data, result)
        declared = _declared_encoding(data)
        if not _plain_encoding(data, declared, content_type, result):
            return None
        version, undeclared, _ = replace_doctype(text)
        if version or undeclared != text:
            return None
        root, declarations = _parse(text)
        parser = _TreeParser(_element_base(url), declarations)
        if not parser.walk_plain_channel(root):
            parser = _TreeParser(_element_base(url), declarations)
            parser.walk(root)
        if not parser.version and not parser.entries:
            return None  # not a feed: feedparser's path words the error
        # namespaces.py parses the original bytes, which give this same tree when expat reads them as UTF-8
        same_tree = declared is None or declared.lower() in _EXPAT_ENCODINGS
        extras = extras_from_tree(root, data, url) if same_tree else read_extras(data, url)
        return feed_data(parser.feeddata, parser.entries, url, extras, bozo_warning(result), data)
    except Exception:  # _UnsupportedError, malformed XML, defused constructs, or a feedparser handler giving up
        return None


@lru_cache(maxsize=1)
def _feedparser_uses_expat() -> bool:
    """Whether feedparser's strict parser is Python's expat reader, whose events the walk reproduces (it
    prefers libxml2's SAX driver when that is installed)."""
    return bool(_XML_AVAILABLE) and type(make_parser(PREFERRED_XML_PARSERS)).__module__ == "xml.sax.expatreader"


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return ""


def _declared_encoding(data: bytes) -> str | None:
    """The encoding named in the XML declaration, if there is one."""
    match = _DECLARED_ENCODING.match(data.removeprefix(codecs.BOM_UTF8))
    return match.group(1).decode("ascii", "replace") if match else None


def _plain_encoding(data: bytes, declared: str | None, content_type: str | None, result: dict[str, Any]) -> bool:
    """Whether feedparser read the document as UTF-8, as the document and the server say it is (for a pure
    ASCII document any ASCII-compatible reading will do, since they all give the same text)."""
    allowed = _ASCII_COMPATIBLE if data.removeprefix(codecs.BOM_UTF8).isascii() else _UTF8
    charset = parse_content_type(content_type or "")[1]
    names = [result.get("encoding") or "", declared, charset or None]
    return all(_codec(name) in allowed for name in names if name is not None)


def _parse(text: bytes) -> tuple[Element, list[tuple[str, str]]]:
    """The document's root and its namespace declarations (prefix, URI) in document order; no DTD at all.

    Without a DTD a document can declare no entities, so ElementTree's own parser (expat driven from C) reads it
    safely and builds the same tree as defusedxml's (expat driven from Python, a third slower); a DTD, which
    ``text`` (UTF-8) can only hold as these very bytes, is refused by defusedxml."""
    builder = _DeclarationsBuilder()
    no_dtd = b"<!DOCTYPE" not in text
    parser = XMLParser(target=builder) if no_dtd else SafeET.DefusedXMLParser(target=builder, forbid_dtd=True)
    parser.feed(text)
    return parser.close(), builder.declarations


class _DeclarationsBuilder(TreeBuilder):
    """ElementTree's builder, also recording the namespace declarations that feedparser's SAX layer sees."""

    def __init__(self) -> None:
        super().__init__()
        self.declarations: list[tuple[str, str]] = []

    def start_ns(self, prefix: str, uri: str) -> None:
        self.declarations.append((prefix, uri))


def _element_base(url: str) -> str:
    """The base URI feedparser resolves links against: the feed's URL after its per-element normalisation
    (which for instance turns ``file:///x`` into ``file://x``), once that is stable."""

    def step(base: str) -> str:
        return (make_safe_absolute_uri(base, base) or base) if base else _urljoin(base, base)

    base = step(url)
    if step(base) != base:
        raise _UnsupportedError("the base URI changes from element to element")
    return base


# Keys whose FeedParserDict lookup is more than a dictionary lookup (aliases, computed values).
_COMPUTED_KEYS = frozenset(FeedParserDict.keymap) | {"category", "enclosures", "license", "updated", "updated_parsed"}


class _Dict(FeedParserDict):
    """A FeedParserDict whose lookups of plain keys skip its alias machinery (same answers, without raising
    and catching KeyError for every absent key)."""

    def __getitem__(self, key: str) -> Any:
        return super().__getitem__(key) if key in _COMPUTED_KEYS else dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        return super().__contains__(key) if key in _COMPUTED_KEYS else dict.__contains__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return super().get(key, default) if key in _COMPUTED_KEYS else dict.get(self, key, default)


class _Entries(list[Any]):
    """The parser's entry list: feedparser's _start_item appends an empty FeedParserDict, kept as a _Dict."""

    def append(self, entry: Any) -> None:
        super().append(_Dict(entry))


class _TreeParser(_FeedParserMixin):
    """feedparser's parser state and element handlers, driven by a walk over an ElementTree.

    It replaces what feedparser's StrictFeedParser does per SAX event (naming elements and attributes as
    feedparser does, tracking xml:base and xml:lang) and its ``pop``, which here skips the ``*_detail`` copies,
    and takes shortcuts with the same answers for the usual dates and absolute links; everything else, the
    ``_start_*``/``_end_*`` handlers above all, is feedparser's own.
    """

    def __init__(self, baseuri: str, declarations: list[tuple[str, str]]) -> None:
        self.baseuri = baseuri
        self.lang = None
        self.encoding = "utf-8"
        super().__init__()
        self.feeddata: _Dict = _Dict(self.feeddata)
        self.entries = _Entries()
        self._tags: dict[str, _Tag] = {}
        self._attribute_prefixes: dict[str, str | None] = {_XML_NAMESPACE: "xml"}
        self._declare(declarations)

    def _declare(self, declarations: list[tuple[str, str]]) -> None:
        """Register the document's namespaces as feedparser's startPrefixMapping does, refusing documents
        whose prefixes would make feedparser's dynamic naming differ from a static one."""
        bound: dict[str, str] = {}
        defaults: set[str] = set()
        for prefix, uri in declarations:
            if not uri:
                continue
            if uri == _XLINK or "}" in uri or any(c.isspace() for c in uri):
                raise _UnsupportedError("unusual namespace URI")
            if prefix:
                if bound.setdefault(prefix, uri) != uri:
                    raise _UnsupportedError("a prefix bound to two namespaces")
                known = self._attribute_prefixes.setdefault(uri, prefix)
                if known != prefix:
                    self._attribute_prefixes[uri] = None  # ambiguous: only a problem if an attribute uses it
            else:
                defaults.add(uri)
            self.track_namespace(prefix or None, uri)
        standard = set(self._matchnamespaces.values())
        for prefix, uri in bound.items():
            mapped = self.namespacemap.get(prefix)
            if mapped is not None and mapped != prefix and prefix in standard:
                raise _UnsupportedError("a standard prefix bound to another known namespace")
            if mapped is None and uri in defaults:
                raise _UnsupportedError("an unknown namespace both as default and prefixed")

    def walk(self, element: Element, level: int = 0) -> None:
        """Feed ``element`` and everything in it to the handlers, as the SAX events would."""
        if level > _MAX_DEPTH:
            raise _UnsupportedError("too deeply nested")
        tag, prefixed, key, inline, start, end = self._tags.get(element.tag) or self._name(element.tag)
        attrs_d = self._attributes(element, inline) if element.attrib or inline else {}
        self._open(tag, prefixed, key, start, attrs_d)
        stack = self.elementstack
        if element.text and stack:
            stack[-1][2].append(element.text)
        for child in element:
            self.walk(child, level + 1)
            if child.tail and stack:
                stack[-1][2].append(child.tail)
        self._close(key, end)

    def walk_plain_channel(self, root: Element) -> bool:
        """walk(root) for an RSS 2.0 document whose channel lists its items after everything else, the items
        read by plain_items (as feedparser's handlers would store what FeedData reads) rather than through the
        handlers. False when the document is not one, or an item is not plain: then walk it whole, anew."""
        split = _split_channel(root)
        if split is None:
            return False
        head, items = split
        self.walk(head)
        if self.elementstack or self.hasContent or self.incontent:  # state an item's handlers would see
            return False
        reader = ItemReader(self._item_key, self._item_attributes, self.resolve_uri)
        try:
            self.entries.extend(reader.read(item) for item in items)
        except NotPlainError:
            return False
        return True

    def _item_key(self, name: str) -> tuple[str, bool]:
        """The handler key of an element in an item and whether feedparser has a handler for it."""
        _, _, key, inline, start, end = self._tags.get(name) or self._name(name)
        if inline:
            raise NotPlainError("inline MathML or SVG")
        return key, start is not None or end is not None

    def _item_attributes(self, element: Element) -> dict[str, str]:
        return self._attributes(element, {})

    def _name(self, name: str) -> _Tag:
        """How feedparser sees an element: its name (``itunes:duration``), whether that has a prefix, the
        handler key (``itunes_duration``), the attribute it adds to inline MathML/SVG roots, and the handlers."""
        uri, _, local = name[1:].partition("}") if name.startswith("{") else ("", "", name)
        tag = self._qualified(uri, local, start=True)
        if tag != self._qualified(uri, local, start=False):
            raise _UnsupportedError("feedparser names the start and end tags differently")
        prefix, _, suffix = tag.rpartition(":")
        prefix = self.namespacemap.get(prefix, prefix)
        key = f"{prefix}_{suffix}" if prefix else suffix
        inline = {"xmlns": uri} if _INLINE_ROOTS.get(local.lower()) == uri else {}
        start, end = getattr(self, "_start_" + key, None), getattr(self, "_end_" + key, None)
        self._tags[name] = (tag, bool(prefix), key, inline, start, end)
        return self._tags[name]

    def _qualified(self, uri: str, local: str, start: bool) -> str:
        """The name startElementNS (or endElementNS) gives an element: feedparser's prefix for a known
        namespace, else the first prefix the document declared for it."""
        lowered = uri.lower()
        if start and "backend.userland.com/rss" in lowered:
            uri = lowered = "http://backend.userland.com/rss"
        prefix = self._matchnamespaces.get(lowered)
        if prefix:
            return f"{prefix}:{local}".lower()
        if uri:
            for declared, value in self.namespaces_in_use.items():
                if declared and value == uri:
                    return f"{declared}:{local}".lower()
        return local.lower()

    def _attributes(self, element: Element, inline: dict[str, str]) -> dict[str, str]:
        """The attribute dictionary a handler gets, built as startElementNS and unknown_starttag build it."""
        attrib = element.attrib
        if not attrib:
            return dict(inline)
        names = dict(inline)
        joined = "".join(attrib)
        if joined.isascii() and joined.islower() and "{" not in joined:  # the usual names: as they are
            names.update(attrib)
        elif "{" in joined:
            for name, value in attrib.items():
                names[self._attribute_name(name, qualified=False)] = value
            for name, value in attrib.items():
                names[self._attribute_name(name, qualified=True)] = value
        else:  # both passes name each attribute by its name in lower case
            names.update((name.lower(), value) for name, value in attrib.items())
        for key in ("rel", "type"):
            if key in names:
                names[key] = names[key].lower()
        if names.get("xml:base", names.get("base")):
            raise _UnsupportedError("xml:base")
        return names

    def _attribute_name(self, name: str, qualified: bool) -> str:
        if not name.startswith("{"):
            return name.lower()
        uri, _, local = name[1:].partition("}")
        if qualified:
            prefix = self._attribute_prefixes.get(uri)
            if prefix is None:
                raise _UnsupportedError("an attribute prefix that cannot be told")
        else:
            prefix = self._matchnamespaces.get(uri.lower(), "")
        return f"{prefix}:{local}".lower() if prefix else local.lower()

    def _open(self, tag: str, prefixed: bool, key: str, start: Callable[[dict[str, str]], None] | None,
              attrs_d: dict[str, str]) -> None:
        """unknown_starttag without the base and language tracking (the base URI is constant here)."""
        self.depth += 1
        if self.incontent:
            raise _UnsupportedError("markup inside a text element")
        if not prefixed:
            if tag not in _TEXTINPUT_TAGS:
                self.intextinput = 0
            if tag not in _IMAGE_TAGS:
                self.inimage = 0
        if start is not None:
            try:
                start(attrs_d)
                return
            except AttributeError:  # as in feedparser: a handler failing this way leaves the element unknown
                pass
        if not attrs_d:
            self.push(key, 1)
        else:
            self._get_context()[key] = attrs_d

    def _close(self, key: str, end: Callable[[], None] | None) -> None:
        """unknown_endtag, likewise."""
        if end is None:
            self.pop(key)
        else:
            try:
                end()
            except AttributeError:
                self.pop(key)
        if self.incontent:
            raise _UnsupportedError("markup inside a text element")
        self.depth -= 1

    def _end_published(self) -> None:
        """feedparser's, with the usual RFC 822 dates read cheaply (see _date); so is _end_updated."""
        self._save("published_parsed", _date(self.pop("published")), overwrite=True)

    def _end_updated(self) -> None:
        self._save("updated_parsed", _date(self.pop("updated")), overwrite=True)

    _end_issued = _end_pubdate = _end_published  # feedparser's aliases point at its own functions
    _end_modified = _end_lastbuilddate = _end_updated

    def resolve_uri(self, uri: str) -> str:
        """feedparser's resolve_uri (which feedparser.urls._urljoin does), cheaply for the usual absolute links."""
        if urljoin_keeps(self.baseuri, uri):  # also what feedparser.urls._urljoin gives then
            return uri
        return super().resolve_uri(uri)

    def push_content(self, tag: str, attrs_d: dict[str, str], default_content_type: str,
                     expecting_text: int) -> None:
        super().push_content(tag, attrs_d, default_content_type, expecting_text)
        if self.contentparams.get("base64") or self.contentparams.get("type") == "application/xhtml+xml":
            raise _UnsupportedError("base64 or XHTML content")

    def pop(self, element: str, strip_whitespace: int = 1) -> Any:
        """feedparser's pop for a strict parse without sanitising or resolving URIs in HTML, minus the
        ``*_detail`` dictionaries."""
        stack = self.elementstack
        if not stack or stack[-1][0] != element:
            return None
        _, expecting_text, pieces = stack.pop()
        output = "".join(pieces)
        if strip_whitespace:
            output = output.strip()
        if not expecting_text:
            return output
        if output and element in self.can_be_relative_uri and (element != "id" or self.guidislink):
            output = self.resolve_uri(output)
        if not output.isascii():
            try:  # feedparser's repair of UTF-8 that was read as ISO-8859-1 somewhere upstream
                output = output.encode("iso-8859-1").decode("utf-8")
            except (UnicodeEncodeError, UnicodeDecodeError):
                pass
            output = output.translate(_cp1252)
        if element in _RETURNED_ONLY or (element == "title" and -1 < self.title_depth <= self.depth):
            return output
        if self.inentry and not self.insource:
            self._store_entry(element, output)
        elif self.infeed or self.insource:
            context = self._get_context()
            if element == "description":
                element = "subtitle"
            context[element] = output
            if element == "link":
                output = _QUERY_ENTITY.sub(r"&\g<1>", output)
                context[element] = output
                context["links"][-1]["href"] = output
        return output

    def _store_entry(self, element: str, output: str) -> None:
        entry = self.entries[-1]
        if element == "content":
            entry.setdefault(element, [])
            entry[element].append(FeedParserDict(self.contentparams, value=output))
        elif element == "link":
            if not self.inimage:
                output = _QUERY_ENTITY.sub(r"&\g<1>", output.replace("&amp;", "&"))
                entry[element] = output
                if output:
                    entry["links"][-1]["href"] = output
        else:
            if element == "description":
                element = "summary"
            depths = self.property_depth_map.setdefault(entry, {})
            old_depth = depths.get(element)
            if old_depth is None or self.depth <= old_depth:
                depths[element] = self.depth
                entry[element] = output


def _split_channel(root: Element) -> tuple[Element, list[Element]] | None:
    """An RSS 2.0 document as the document without its items, and its items; None unless the root holds just the
    channel and the channel's items come after all its other elements (feedparser's state at the first item is
    then the state after the rest of the channel)."""
    if root.tag != "rss" or len(root) != 1 or root[0].tag != "channel":
        return None
    channel = root[0]
    children = list(channel)
    first = next((index for index, child in enumerate(children) if child.tag == "item"), len(children))
    items = children[first:]
    if any(item.tag != "item" for item in items):
        return None
    head, head_channel = Element(root.tag, root.attrib), Element(channel.tag, channel.attrib)
    head.text, head_channel.text, head_channel.tail = root.text, channel.text, channel.tail
    head_channel.extend(children[:first])
    head.append(head_channel)
    return head, items


_TreeParser("", [])  # feedparser fills its class-wide namespace table on first use: do it now, under the import lock
