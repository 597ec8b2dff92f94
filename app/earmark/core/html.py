"""Show notes and article HTML: sanitizing for display and flattening to text for search."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from html.entities import html5 as html5_entities
from urllib.parse import urljoin, urlsplit

import nh3

_ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "img", "li", "ol", "p", "pre", "s", "span", "strong", "sub", "sup",
    "table", "tbody", "td", "th", "thead", "tr", "u", "ul",
}
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "td": {"colspan"}, "th": {"colspan"}}
_BLOCK_END = re.compile(r"</(p|div|li|h[1-6]|tr|blockquote|pre)>|<br\s*/?>", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\r\f\v]+")
_LINES = re.compile(r"\n\s*\n+")
_URL_SCHEMES = {"http", "https", "mailto"}
_remembered: ContextVar[dict[str, str] | None] = ContextVar("remembered_text", default=None)
_LOOKS_LIKE_HTML = re.compile(r"<(p|br|a|div|ul|ol|li|b|i|em|strong|h\d|img|span|code|pre)\b", re.IGNORECASE)
# Tags whose removal is all an HTML parser does to the text around them: no raw text inside (script, style,
# textarea, title), no text moved (tables), no newline dropped after the start tag (pre, listing), no foreign
# content (svg, math). Show notes are mostly these; anything else goes through nh3. The names are grouped by their
# first letter (a, abbr, address, article, aside, b, big, blockquote, br, ...): the same names, a quarter faster than
# a list of 55 alternatives tried one after the other.
_PLAIN_TAG = re.compile(
    r"</?(?:a(?:bbr|ddress|rticle|side)?|b(?:ig|lockquote|r)?|c(?:enter|ite|ode)|d(?:[dlt]|el|fn|iv)|em|"
    r"f(?:igcaption|igure|ont|ooter)|h(?:[1-6r]|eader)|i(?:mg|ns)?|kbd|li|ma(?:in|rk)|nav|ol|p|q|"
    r"s(?:amp|ection|mall|pan|trike|trong|u[bp])?|t(?:ime|t)|ul?|var|wbr)(?![^\s/>])(?:\s+[^\s\"'<>/=]+"
    r"(?:\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s\"'<>=`]+))?)*\s*/?>", re.IGNORECASE)
_REFERENCE = re.compile(r"&(?:#([0-9]{1,7});|#[xX]([0-9a-fA-F]{1,6});|([A-Za-z][A-Za-z0-9]{0,31};)|(?=[ \t\n\f]|$))")


def sanitize(markup: str, base: str | None = None) -> str:
    """HTML safe to render: no scripts, styles, event handlers, or non-web link schemes.

    Relative links and images are resolved against ``base`` (the item's page): show notes are stored as the
    feed gave them. Plain text (no tags) is escaped and its line breaks kept.
    """
    if not markup:
        return ""
    if not looks_like_html(markup):
        paragraphs = (html.escape(p).replace("\n", "<br>") for p in _LINES.split(markup.strip()))
        return "".join(f"<p>{p}</p>" for p in paragraphs)
    return nh3.clean(
        markup,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=_URL_SCHEMES,
        link_rel="noopener noreferrer",
        attribute_filter=_resolver(base) if base else None,
    )


def looks_like_html(text: str) -> bool:
    """Whether ``text`` is HTML markup rather than plain text."""
    return bool(_LOOKS_LIKE_HTML.search(text))


def _resolver(base: str) -> Callable[[str, str, str], str | None]:
    def resolve(_tag: str, attribute: str, value: str) -> str | None:
        if attribute in ("href", "src"):
            try:
                url = urljoin(base, value.strip())
                scheme = urlsplit(url).scheme.lower()
            except ValueError:
                return None  # a malformed URL (bad IPv6 brackets...): drop the attribute
            # nh3 checks the scheme before this filter: a relative link resolved against a file: base (an item of
            # a local feed, or from a restored backup) became file:///... (found by fuzzing); drop it then.
            return url if scheme in _URL_SCHEMES else None
        return value

    return resolve


@contextmanager
def remembering_text() -> Iterator[None]:
    """Within it (in this thread), ``to_text`` of a markup it has seen already gives the same text without working
    it out again: parsing an article feed flattens each body for its reading time, and then for search."""
    token = _remembered.set({})
    try:
        yield
    finally:
        _remembered.reset(token)


def to_text(markup: str) -> str:
    """Plain text of an HTML fragment, for the search index and summaries."""
    if not markup:
        return ""
    remembered = _remembered.get()
    if remembered is None:
        return _to_text(markup)
    if markup not in remembered:
        remembered[markup] = _to_text(markup)
    return remembered[markup]


def _to_text(markup: str, fast: bool = True) -> str:
    """``fast``: plain markup (see _without_plain_tags) loses its tags without nh3, to the same text; False
    always uses nh3 (for comparing the two)."""
    if "<" in markup:
        with_breaks = _BLOCK_END.sub(_with_line_break, markup)
        plain = _without_plain_tags(with_breaks) if fast else None
        if plain is None:
            plain = nh3.clean(with_breaks, tags=set(), clean_content_tags={"script", "style"})
        markup = plain
    text = html.unescape(markup)
    # a scan for each is faster than one substitution
    if "  " in text or "\t" in text or "\r" in text or "\f" in text or "\v" in text:
        text = _SPACES.sub(" ", text)
    text = "\n".join([line.strip() for line in text.splitlines()])
    if "\n\n" in text:  # the lines are stripped: whitespace between two newlines is a blank line, "\n\n"
        text = _LINES.sub("\n\n", text)
    return text.strip()


def _with_line_break(match: re.Match[str]) -> str:
    """A block's end tag and a newline (a function: the template "\\g<0>\\n" is expanded in Python, slower)."""
    return match.group() + "\n"


def _without_plain_tags(markup: str) -> str | None:
    """What nh3 gives ``markup`` stripped of every tag (text escaped as html.unescape reads it back), when that
    is only taking the tags out: all of them plain ones (_PLAIN_TAG), every reference one that html.unescape
    reads as an HTML parser does, no carriage return or NUL (which a parser turns into a newline or drops).
    None for anything else."""
    if "\r" in markup or "\0" in markup:
        return None
    text = _PLAIN_TAG.sub("", markup)
    if "<" in text:
        return None
    if "&" in text:
        references = 0
        for match in _REFERENCE.finditer(text):
            references += 1
            decimal, hexadecimal, name = match.group(1, 2, 3)
            if name is not None:
                if name not in html5_entities:
                    return None
            elif (decimal or hexadecimal) and not _ordinary(int(decimal) if decimal else int(hexadecimal, 16)):
                return None
        if references != text.count("&"):  # a bare "&" other than before a space
            return None
    return text


def _ordinary(codepoint: int) -> bool:
    """A character reference that an HTML parser and html.unescape both read as that very character (not a
    control character, surrogate or non-character, which one of them replaces or drops)."""
    return (codepoint in (9, 10) or 0x20 <= codepoint < 0x7F or 0xA0 <= codepoint < 0xD800
            or 0xE000 <= codepoint < 0xFDD0 or 0xFDF0 <= codepoint <= 0x10FFFF and codepoint & 0xFFFE != 0xFFFE)


def search_text(*markups: str) -> str:
    """What the search index holds for an item's HTML parts (show notes, article body): each as text, joined by
    a blank line."""
    return "\n\n".join(part for part in map(to_text, markups) if part)
