"""Show notes HTML built by hypothesis: scripts, iframes, objects, forms, styles, event handlers, CSS with remote
URLs, links and images of every scheme (plain, obfuscated with entities, whitespace or case), broken nesting and
comments, against any base address; sanitize keeps only inert markup with web links, to_text never fails."""

from __future__ import annotations

from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from earmark.core.html import sanitize, to_text
from helpers.fuzz import scaled
from helpers.parsers import SAFE_TAGS, check_sanitized

TAGS = (*sorted(SAFE_TAGS), "script", "style", "iframe", "frame", "object", "embed", "applet", "form", "input",
        "button", "meta", "link", "base", "svg", "math", "video", "audio", "source", "picture", "template",
        "noscript", "xmp", "plaintext", "textarea", "title", "html", "body", "head", "SCRIPT", "ScRiPt")
ATTRIBUTES = ("href", "src", "srcset", "style", "onclick", "onerror", "onload", "ONMOUSEOVER", "formaction",
              "action", "data", "background", "poster", "xlink:href", "title", "alt", "colspan", "class", "id",
              "http-equiv", "content", "rel", "target", "lowsrc", "dynsrc")
URLS = ("javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "jav&#x09;ascript:alert(1)",
        "jav\tascript:alert(1)", "&#106;avascript:alert(1)", "javascript&colon;alert(1)", "vbscript:x",
        "data:text/html,<script>alert(1)</script>", "data:image/png;base64,AAAA", "file:///etc/passwd",
        "FILE:///C:/x", "//evil.example/x.png", "http://tracker.example/pixel.gif", "https://example.com/a",
        "mailto:a@example.com", "../../etc/passwd", "relative/page", "#anchor", "?q=1", "", "http://[::1",
        "url(http://evil.example/x.png)", "expression(alert(1))", "\x00javascript:alert(1)")
CSS = ("background:url(http://evil.example/x.png)", "color:red", "behavior:url(x.htc)", "x:expression(alert(1))",
       "@import 'http://evil.example/x.css';", "background-image:url('javascript:alert(1)')")
BASES = (None, "https://example.com/ep/1", "http://example.com", "file:///home/user/notes/", "javascript:alert(1)//",
         "data:text/html,x", "https://[::1", "")


def element(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    def build(tag: str, attributes: list[tuple[str, str]], inner: list[str], closed: bool) -> str:
        attrs = "".join(f' {name}="{escape(value)}"' if name != "raw" else f" {value}" for name, value in attributes)
        return f"<{tag}{attrs}>{''.join(inner)}" + (f"</{tag}>" if closed else "")

    return st.builds(build, st.sampled_from(TAGS),
                     st.lists(st.tuples(st.sampled_from((*ATTRIBUTES, "raw")),
                                        st.one_of(st.sampled_from(URLS), st.sampled_from(CSS),
                                                  st.text(max_size=12))), max_size=4),
                     st.lists(children, max_size=4), st.booleans())


TEXT = st.one_of(st.text(max_size=20).map(escape), st.sampled_from((
    "<!-- <script>alert(1)</script> -->", "<![CDATA[<script>alert(1)</script>]]>", "&lt;script&gt;", "&amp;",
    "</p>", "<", ">", "<scr<script>ipt>alert(1)</script>", "<img src=x onerror=alert(1)//", "<a href=javascript:x>",
    "<style>@import url(http://evil.example/x.css)</style>", "<link rel=stylesheet href=http://evil.example/x.css>",
    "\x00", "&#0;", "<?php x ?>", "<!DOCTYPE html>")))
MARKUP = st.recursive(TEXT, element, max_leaves=30).map(lambda html: html if "<p" in html else html + "<p>x</p>")


@pytest.mark.timeout(120)
@settings(max_examples=scaled(400))
@given(MARKUP, st.sampled_from(BASES))
def test_sanitized_notes_hold_only_inert_markup_and_web_links(markup: str, base: str | None) -> None:
    check_sanitized(sanitize(markup, base), relative_ok=not base)
    assert isinstance(to_text(markup), str)
