"""OPML documents built by hypothesis: outline trees with any attributes, feed addresses of every scheme,
entities, namespaces, DOCTYPEs and declared encodings; read_opml gives feeds with web addresses or a FeedError."""

from __future__ import annotations

from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.fuzz import honour, scaled
from helpers.parsers import PARSERS

ADDRESSES = st.one_of(
    st.sampled_from(("https://example.com/feed.xml", "feed://example.com/rss", "feed:https://example.com/a",
                     "itpc://example.com/p", "podcast:example.com/x", "file:///etc/passwd", "javascript:alert(1)",
                     "data:,x", "../../etc/passwd", "/etc/passwd", "http://", "http://[::1", "https://exa mple.com/",
                     "HTTPS://EXAMPLE.COM/Feed", "  https://example.com/spaces  ", "")),
    st.text(max_size=30),
)
KEYS = ("xmlUrl", "XMLURL", "xmlurl", "htmlUrl", "text", "title", "type", "category", "url", "description",
        "version", "language", "isComment", "isBreakpoint", "created")
VALUES = st.one_of(ADDRESSES, st.sampled_from(("rss", "link", "include", "source", "atom", "RSS", "/a/b,/c", ",,,",
                                               "&amp;", "&eacute;", "&bogus;")), st.text(max_size=20))


def outline(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.builds(
        lambda attributes, inner, raw: "<outline" + "".join(
            f' {key}="{value if raw else escape(value)}"' for key, value in attributes
        ) + f">{''.join(inner)}</outline>",
        st.lists(st.tuples(st.sampled_from(KEYS), VALUES), max_size=5),
        st.lists(children, max_size=4),
        st.sampled_from((False,) * 9 + (True,)),
    )


LEAVES = st.builds(lambda url, text: f'<outline type="rss" xmlUrl="{escape(url)}" text="{escape(text)}"/>',
                   ADDRESSES, st.text(max_size=15))
OUTLINES = st.recursive(LEAVES, outline, max_leaves=30)
PROLOGS = ("", '<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-8"?>', "\ufeff",
           '<?xml version="1.0" encoding="iso-8859-1"?>', '<?xml version="1.0" encoding="gb2312"?>',
           '<?xml version="1.0" encoding="shift_jis"?>', '<?xml version="1.0" encoding="x-unknown"?>',
           '<?xml version="1.0" encoding="utf-16"?>', '<!DOCTYPE opml [<!ENTITY x SYSTEM "file:///etc/passwd">]>')


@st.composite
def documents(draw: st.DrawFn) -> bytes:
    namespace = draw(st.sampled_from(("", ' xmlns="http://opml.org/spec2"', ' xmlns:x="urn:x"')))
    title = escape(draw(st.text(max_size=20)))
    body = "".join(draw(st.lists(OUTLINES, max_size=6)))
    if draw(st.integers(0, 9)) == 0:  # nested deeper than MAX_DEPTH
        depth = draw(st.integers(60, 200))
        body += '<outline text="f">' * depth + "</outline>" * depth
    text = (draw(st.sampled_from(PROLOGS)) + f'<opml version="2.0"{namespace}><head><title>{title}</title></head>'
            f"<body>{body}</body></opml>")
    codec = draw(st.sampled_from(("utf-8", "utf-16", "latin-1", "gb18030", "shift_jis")))
    return text.encode(codec, errors="xmlcharrefreplace")


@pytest.mark.timeout(120)
@settings(max_examples=scaled(250))
@given(documents())
def test_generated_opml_honours_the_contract(document: bytes) -> None:
    honour(PARSERS["opml"], document)
