"""Feeds built by hypothesis: random elements of RSS, Atom, RDF, iTunes and Podcasting 2.0, random attributes,
hostile links, entities, CDATA, deep nesting, DOCTYPEs and declared encodings (right or wrong); each goes through
both paths of parse_feed and the namespaces pass, and the fast path must give what feedparser gives."""

from __future__ import annotations

from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.fuzz import honour, scaled
from helpers.parsers import PARSERS

ELEMENTS = (
    "title", "link", "description", "item", "entry", "guid", "id", "enclosure", "pubDate", "published", "updated",
    "author", "summary", "content", "category", "image", "url", "width", "height", "source", "comments",
    "itunes:duration", "itunes:keywords", "itunes:image", "itunes:explicit", "itunes:episode", "itunes:season",
    "itunes:episodeType", "itunes:author", "itunes:summary", "itunes:category", "itunes:type", "itunes:owner",
    "podcast:chapters", "podcast:transcript", "podcast:person", "podcast:guid", "podcast:funding",
    "podcast:remoteItem", "podcast:podroll", "podcast:locked", "podcast:season", "podcast:episode",
    "media:content", "media:thumbnail", "media:group", "content:encoded", "dc:creator", "dc:date", "dc:subject",
    "xhtml:body", "xhtml:div", "math", "svg", "script", "iframe", "psc:chapters", "psc:chapter", "georss:point",
    "undeclared:thing", "ITEM", "Title",
)
ATTRIBUTES = (
    "href", "url", "type", "rel", "length", "xml:base", "xml:lang", "isPermaLink", "term", "medium", "role", "img",
    "feedGuid", "feedUrl", "itemGuid", "mode", "src", "onload", "style", "start", "version", "text", "label",
    "xmlns:itunes", "xmlns:podcast", "xmlns",
)
HOSTILE_VALUES = (
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "file:///etc/passwd", "../../../etc/passwd", "/etc/passwd",
    "data:text/html,<script>alert(1)</script>", "vbscript:x", "http://[::1", "https://[zz]/a.mp3", "https://a]b/",
    "http://", "//evil.example/x.mp3",
    "https://cdn.example.com/a.mp3", "audio/mpeg", "text/html", "application/json", "enclosure", "alternate",
    "http://www.itunes.com/dtds/podcast-1.0.dtd", "https://podcastindex.org/namespace/1.0", "yes", "clean", "-1",
    "1e308", "99999999999999999999", "01:02:03", "Wed, 01 Jan 2025 12:39:00 +0000", "2025-13-45T99:99:99Z", "",
)
TEXTS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(HOSTILE_VALUES),
    st.sampled_from(("&amp;", "&lt;script&gt;alert(1)&lt;/script&gt;", "&eacute;", "&nbsp;", "&#0;", "&#xd800;",
                     "&#1114112;", "&undefined;", "&a;", "&d;", "&d;&d;&d;", "<![CDATA[<script>alert(1)</script>]]>",
                     "]]>", "&",
                     "<b onmouseover='x()'>bold</b>", "<!-- comment -->", "<?pi data?>")),
)
NAMESPACES = {
    "itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd", "podcast": "https://podcastindex.org/namespace/1.0",
    "media": "http://search.yahoo.com/mrss/", "content": "http://purl.org/rss/1.0/modules/content/",
    "dc": "http://purl.org/dc/elements/1.1/", "xhtml": "http://www.w3.org/1999/xhtml",
    "psc": "http://podlove.org/simple-chapters", "georss": "http://www.georss.org/georss",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
}
DOCTYPES = (
    "", "<!DOCTYPE rss>", '<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" '
    '"http://my.netscape.com/publish/formats/rss-0.91.dtd">',
    '<!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    '<!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>',
    '<!DOCTYPE rss [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>',
)
ENCODINGS = ("utf-8", "UTF-8", "utf-16", "iso-8859-1", "windows-1252", "us-ascii", "koi8-r", "shift_jis", "x-bogus")


def element(children: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.tuples(st.sampled_from(ELEMENTS),
                     st.lists(st.tuples(st.sampled_from(ATTRIBUTES), st.one_of(st.sampled_from(HOSTILE_VALUES),
                                                                               st.text(max_size=20))), max_size=3),
                     st.lists(st.one_of(children, TEXTS), max_size=5),
                     st.sampled_from(("escaped", "escaped", "escaped", "raw", "unclosed", "cdata")))


TREES = st.recursive(TEXTS, element, max_leaves=25)
TYPES = st.one_of(st.sampled_from(("audio/mpeg", "audio/x-m4a", "video/mp4", "application/json", "text/vtt",
                                   "text/html", "application/srt+json", "")), st.text(max_size=10))
URLS = st.one_of(st.sampled_from(HOSTILE_VALUES), st.text(max_size=30).map(lambda path: f"https://example.com/{path}"),
                 st.text(max_size=30))
# Elements with text, and elements with the attributes that carry links, as real items have them.
TEXT_FIELDS = ("title", "guid", "id", "link", "description", "summary", "content:encoded", "pubDate", "published",
               "itunes:duration", "itunes:keywords", "itunes:episode", "itunes:season", "itunes:explicit",
               "itunes:episodeType", "podcast:season", "podcast:episode", "category", "dc:creator", "author")
LINK_FIELDS = {"enclosure": ("url", "type", "length"), "podcast:chapters": ("url", "type"),
               "podcast:transcript": ("url", "type", "language", "rel"), "itunes:image": ("href", "url"),
               "podcast:person": ("href", "img", "role", "group"), "media:content": ("url", "type", "medium"),
               "podcast:remoteItem": ("feedGuid", "feedUrl", "itemGuid", "medium"), "link": ("href", "rel", "type"),
               "podcast:funding": ("url",), "media:thumbnail": ("url",)}


@st.composite
def field(draw: st.DrawFn) -> object:
    if draw(st.booleans()):
        text = draw(st.one_of(TEXTS, URLS))
        return (draw(st.sampled_from(TEXT_FIELDS)), [], [text], draw(st.sampled_from(("escaped", "cdata", "raw"))))
    name = draw(st.sampled_from(sorted(LINK_FIELDS)))
    attributes = [(key, draw(TYPES if key == "type" else URLS)) for key in LINK_FIELDS[name] if draw(st.integers(0, 3))]
    return (name, attributes, draw(st.lists(TEXTS, max_size=1)), "escaped")


ITEMS = st.tuples(st.sampled_from(("item", "entry")),
                  st.lists(st.tuples(st.sampled_from(("xml:base", "rdf:about")), URLS), max_size=1),
                  st.lists(st.one_of(field(), field(), TREES), max_size=8),
                  st.sampled_from(("escaped",) * 9 + ("unclosed",)))


def render(node: object) -> str:
    if isinstance(node, str):
        return node if node.startswith(("&", "<")) else escape(node, quote=False)
    assert isinstance(node, tuple)
    name, attributes, children, style = node
    attrs = "".join(f' {key}="{escape(value) if style != "raw" else value}"' for key, value in attributes)
    inner = "".join(render(child) for child in children)
    if style == "cdata":
        inner = f"<![CDATA[{inner}]]>"
    closing = "" if style == "unclosed" else f"</{name}>"
    return f"<{name}{attrs}>{inner}{closing}"


@st.composite
def feeds(draw: st.DrawFn) -> bytes:
    flavour = draw(st.sampled_from(("rss", "atom", "rdf", "any")))
    prefixes = draw(st.lists(st.sampled_from(sorted(NAMESPACES)), unique=True, max_size=len(NAMESPACES)))
    declarations = "".join(f' xmlns:{prefix}="{NAMESPACES[prefix]}"' for prefix in prefixes)
    channel = "".join(render(draw(field())) for _ in range(draw(st.integers(0, 3))))
    items = channel + "".join(render(draw(ITEMS)) for _ in range(draw(st.integers(0, 4))))
    if flavour == "rss":
        body = f'<rss version="2.0"{declarations}><channel>{items}</channel></rss>'
    elif flavour == "atom":
        body = f'<feed xmlns="http://www.w3.org/2005/Atom"{declarations}>{items}</feed>'
    elif flavour == "rdf":
        body = f'<rdf:RDF xmlns="http://purl.org/rss/1.0/"{declarations}><channel/>{items}</rdf:RDF>'
    else:
        body = render(draw(TREES))
    if draw(st.integers(0, 9)) == 0:  # deep nesting
        depth = draw(st.integers(60, 600))
        body = body.replace("</channel>", "<x>" * depth + "</x>" * depth + "</channel>", 1)
    declared = draw(st.sampled_from((None, *ENCODINGS)))
    plain = draw(st.sampled_from(("", "<?xml version='1.0'?>")))
    prolog = f'<?xml version="1.0" encoding="{declared}"?>' if declared else plain
    text = prolog + draw(st.sampled_from(DOCTYPES)) + body
    codec = draw(st.sampled_from(("utf-8", "utf-16", "latin-1", "cp1252", declared or "utf-8")))
    try:
        data = text.encode(codec, errors="xmlcharrefreplace")
    except (LookupError, UnicodeError):
        data = text.encode("utf-8", errors="surrogatepass")
    return (b"\xef\xbb\xbf" if draw(st.booleans()) and codec == "utf-8" else b"") + data


@pytest.mark.timeout(180)
@settings(max_examples=scaled(300))
@given(feeds())
def test_generated_feeds_honour_the_contract_on_both_paths(document: bytes) -> None:
    fast = honour(PARSERS["feed"], document)
    slow = honour(PARSERS["feed-feedparser"], document)
    honour(PARSERS["feed-extras"], document)
    if fast.error is None and slow.error is None:
        assert fast.result == slow.result, "the fast path and feedparser read the document differently"
    else:
        assert type(fast.error) is type(slow.error)
