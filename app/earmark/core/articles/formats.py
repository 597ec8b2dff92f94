"""Markdown and plain text as article HTML, each with the title it gives itself."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Literal

TextKind = Literal["html", "markdown", "text"]
_URL = re.compile(r"https?://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]")
_MARKDOWN_SIGNS = re.compile(r"^(#{1,6} \S|[-*] \S|\d+\. \S|```)|\[[^\]\n]+\]\(https?://", re.MULTILINE)
_HTML_SIGNS = re.compile(r"^\s*(<!doctype html|<html|<head|<body)", re.IGNORECASE)
_PARAGRAPHS = re.compile(r"\n\s*\n")
MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdown", ".mkd"}
HTML_SUFFIXES = {".html", ".htm", ".xhtml"}


def file_kind(path: Path, text: str) -> TextKind:
    """How to read a local file: by its suffix, else by its content (a ``.txt`` newsletter written in Markdown
    is Markdown)."""
    suffix = path.suffix.lower()
    if suffix in HTML_SUFFIXES or _HTML_SIGNS.match(text):
        return "html"
    if suffix in MARKDOWN_SUFFIXES or len(_MARKDOWN_SIGNS.findall(text)) >= 2:
        return "markdown"
    return "text"


def markdown_html(text: str) -> tuple[str | None, str]:
    """The title (the first line when it is a level-1 heading) and the rest rendered as HTML. Raw HTML in the
    Markdown is shown as text, never run."""
    from markdown_it import MarkdownIt  # deferred: only saving Markdown articles needs it

    title, body = _first_line_title(text, re.compile(r"^#\s+(.+?)\s*#*\s*$"))
    renderer = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    return title, renderer.render(body)


def text_html(text: str) -> tuple[str | None, str]:
    """The title (a short first line) and the paragraphs of plain text as HTML, web addresses made links."""
    title, body = _first_line_title(text, re.compile(r"^(.{1,150}?)\s*$"))
    paragraphs = []
    for paragraph in _PARAGRAPHS.split(body.strip()):
        if paragraph.strip():
            lines = "<br>".join(_linked(line.strip()) for line in paragraph.strip().splitlines())
            paragraphs.append(f"<p>{lines}</p>")
    return title, "\n".join(paragraphs)


def _first_line_title(text: str, pattern: re.Pattern[str]) -> tuple[str | None, str]:
    stripped = text.lstrip("\ufeff").strip("\n")
    first, _, rest = stripped.partition("\n")
    match = pattern.match(first.strip())
    if match and rest.strip():
        return match.group(1).strip(), rest
    return None, stripped


def _linked(line: str) -> str:
    out, last = [], 0
    for match in _URL.finditer(line):
        out.append(html.escape(line[last:match.start()]))
        url = html.escape(match.group(0))
        out.append(f'<a href="{url}">{url}</a>')
        last = match.end()
    out.append(html.escape(line[last:]))
    return "".join(out)
