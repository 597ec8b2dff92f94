"""Show notes HTML: sanitizing for display, flattening to text for search."""

from __future__ import annotations

import re

import pytest

from earmark.core.html import sanitize, to_text

_HREFS = re.compile(r'href="([^"]*)"')
_SRCS = re.compile(r'src="([^"]*)"')


def test_sanitize_removes_scripts_and_styles_with_their_content() -> None:
    out = sanitize("<p>before</p><script>alert('x')</script><style>p { color: red }</style><p>after</p>")
    assert "<p>before</p>" in out and "<p>after</p>" in out
    assert "script" not in out.lower() and "alert" not in out
    assert "style" not in out.lower() and "color" not in out


@pytest.mark.parametrize(
    "markup",
    [
        '<p onclick="steal()">text</p>',
        '<img src="https://example.com/a.png" onerror="steal()">',
        '<a href="https://example.com/" onmouseover="steal()">link</a>',
        '<p ONLOAD="steal()">text</p>',
        '<svg onload="steal()"><p>text</p></svg>',
    ],
)
def test_sanitize_removes_event_handlers(markup: str) -> None:
    out = sanitize(markup)
    assert "steal" not in out
    assert not re.search(r"\son\w+\s*=", out, re.IGNORECASE)


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " javascript:alert(1)",
        "jav&#x09;ascript:alert(1)",
        "file:///etc/passwd",
        "FILE:///C:/Windows/win.ini",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)",
    ],
)
def test_sanitize_drops_non_web_links_but_keeps_the_text(href: str) -> None:
    out = sanitize(f'<p>see <a href="{href}">this</a></p>')
    assert "this" in out
    assert _HREFS.findall(out) == []


def test_sanitize_drops_non_web_image_sources() -> None:
    out = sanitize('<p><img src="file:///etc/passwd"><img src="data:image/png;base64,AAAA"></p>')
    assert _SRCS.findall(out) == []


def test_sanitize_keeps_links_headings_code_and_lists() -> None:
    markup = (
        '<h2>Links</h2><p>Read <a href="https://example.com/post?a=1&amp;b=2">the post</a> or '
        '<a href="mailto:host@example.com">write</a>.</p><pre><code>x &lt; y</code></pre>'
        "<ul><li><strong>one</strong></li><li><em>two</em></li></ul>"
    )
    out = sanitize(markup)
    assert "<h2>Links</h2>" in out
    assert _HREFS.findall(out) == ["https://example.com/post?a=1&amp;b=2", "mailto:host@example.com"]
    assert "<pre><code>x &lt; y</code></pre>" in out
    assert "<li><strong>one</strong></li>" in out and "<em>two</em>" in out


def test_sanitize_removes_frames_objects_forms_and_meta() -> None:
    out = sanitize(
        '<iframe src="https://evil.example/"></iframe><object data="x.swf"></object><embed src="y">'
        '<form action="https://evil.example/"><input name="q"></form>'
        '<meta http-equiv="refresh" content="0;url=https://evil.example/"><p>kept</p>'
    )
    assert out == "<p>kept</p>"


def test_sanitize_makes_links_open_safely() -> None:
    out = sanitize('<a href="https://example.com/" target="_blank">x</a>')
    assert 'rel="noopener noreferrer"' in out
    assert "target" not in out


def test_plain_text_is_escaped_and_keeps_paragraphs() -> None:
    out = sanitize("Fish & chips < 5 euros\nsecond line\n\nNew paragraph")
    assert out == "<p>Fish &amp; chips &lt; 5 euros<br>second line</p><p>New paragraph</p>"


def test_text_with_tags_sanitize_does_not_recognise_is_still_escaped() -> None:
    out = sanitize("<script>alert(1)</script> and <style>x</style>")
    assert "<script" not in out and "<style" not in out
    assert "&lt;script&gt;" in out


def test_sanitize_empty() -> None:
    assert sanitize("") == ""


def test_to_text_flattens_blocks_into_lines() -> None:
    assert to_text("<h2>Title</h2><p>Hello <b>world</b></p><ul><li>one</li><li>two</li></ul>a<br>b") == (
        "Title\nHello world\none\ntwo\na\nb"
    )


def test_to_text_drops_scripts_and_styles_entirely() -> None:
    assert to_text("<script>var secret = 1;</script><style>p {}</style><p>visible</p>") == "visible"


def test_to_text_unescapes_entities_inside_markup() -> None:
    assert to_text("<p>Fish &amp; chips &lt;b&gt; &#8212; caf&eacute;</p>") == "Fish & chips <b> — café"


def test_to_text_collapses_whitespace() -> None:
    assert to_text("  plain \t  text  \n\n\n\n more  ") == "plain text\n\nmore"
    assert to_text("") == ""


def test_to_text_unescapes_entities_without_tags() -> None:
    assert to_text("AT&amp;T &#38; friends") == "AT&T & friends"


def test_relative_links_resolve_against_the_item_page_and_stay_safe() -> None:
    markup = ('<p><a href="notes.html">notes</a> <img src="/cover.png" alt="c"> '
              '<a href="javascript:alert(1)">bad</a> <a href="http://[::1">broken</a></p>')
    clean = sanitize(markup, "https://example.com/show/ep1")
    assert 'href="https://example.com/show/notes.html"' in clean
    assert 'src="https://example.com/cover.png"' in clean
    assert "javascript" not in clean
    assert sanitize('<a href="notes.html">n</a>') == '<a href="notes.html" rel="noopener noreferrer">n</a>'
