"""Text written into Markdown as text: escaped so that Obsidian and Logseq see no structure in it (no heading,
list, rule, quote, tag, wiki link, embed, comment, highlight or math), its web addresses made links."""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

LINK_SCHEMES = ("http", "https", "mailto")
_URL = re.compile(r"(?:https?://|mailto:)[^\s<>\"'`\\]+[^\s<>\"'`\\.,;:!?)\]}*_~]")
# Escaped wherever they are: CommonMark's emphasis, code, links, HTML and escapes; Obsidian's tags (#), math ($),
# block ids (^) and tables (|); strikethrough (~).
_ALWAYS = set("\\`*[]<#$^|~")
# Escaped where they make a pair: Obsidian's ==highlight== and %%comment%%, Logseq's {{macro}}, ((block ref)) and
# key:: value properties.
_PAIRED = set("=%{}(:")
_LINE_START = re.compile(r"^([-+=>]|\d{1,9}[.)])")  # list items, rules, setext underlines, quotes at a line's start
_ENTITY = re.compile(r"&(#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def escape(text: str, *, links: bool = True) -> str:
    """``text`` as Markdown showing exactly that text (lines kept, each without its leading spaces); with
    ``links``, web addresses in it become links (``<https://…>``)."""
    return "\n".join(_escape_line(line.lstrip(), links) for line in text.splitlines())


def _escape_line(line: str, links: bool) -> str:
    return fragment(line, at_start=True) if links else _escape_words(line, at_start=True)


def fragment(text: str, at_start: bool = False) -> str:
    """A piece of one line as Markdown text (web addresses as links); ``at_start``: it begins the line."""
    out, last = [], 0
    for match in _URL.finditer(text):
        out.append(_escape_words(text[last:match.start()], at_start=at_start and last == 0))
        out.append(f"<{match.group(0)}>")
        last = match.end()
    out.append(_escape_words(text[last:], at_start=at_start and last == 0))
    return "".join(out)


def _escape_words(text: str, at_start: bool) -> str:
    if not text:
        return ""
    entities = {match.start() for match in _ENTITY.finditer(text)}  # "&amp;" is shown as written, not as "&"
    chars = []
    for index, char in enumerate(text):
        before, after = text[index - 1] if index else "", text[index + 1:index + 2]
        if (char in _ALWAYS or index in entities or (char in _PAIRED and char in (before, after))
                or (char == "_" and not (before.isalnum() and after.isalnum()))):
            chars.append("\\" + char)
        else:
            chars.append(char)
    escaped = "".join(chars)
    if at_start:
        escaped = _LINE_START.sub(lambda m: m.group(0)[:-1] + "\\" + m.group(0)[-1], escaped, count=1)
    return escaped


def one_line(text: str, *, links: bool = True) -> str:
    """``escape`` for a place that holds one line (a heading, a link's text): line breaks become spaces."""
    return escape(" ".join(text.split()), links=links)


def link(text: str, url: str) -> str:
    """``[text](url)`` for a web or mail address; just the text for any other kind."""
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        scheme = ""
    if scheme not in LINK_SCHEMES:
        return one_line(text)
    return f"[{one_line(text, links=False) or one_line(url, links=False)}]({target(url)})"


def target(url: str) -> str:
    """A link destination Markdown takes whole: spaces, parentheses and angle brackets percent-encoded."""
    return quote(url.strip(), safe=":/?#[]@!$&'*+,;=%~-._")
