"""What a Markdown file is made of, as a CommonMark parser (markdown-it-py) reads it, with what Obsidian and
Logseq add on top: tags, wiki links and their other syntax found in the parsed text.

Backslash escapes are kept apart (markdown-it's ``text_join`` rule is off, so an escaped character stays a
``text_special`` token): Obsidian and Logseq take ``\\#tag`` and ``\\[\\[x\\]\\]`` as text too, so only the
unescaped characters of the text tokens can make their structure."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

ESCAPED = "\x00"  # stands for an escaped character in ``raw``: it is text, never part of any syntax
# Obsidian's tag: "#" then a character of a tag (its rule: letters, digits, "_", "-", "/"; in practice more):
# any unescaped "#" before a non-space character is counted, a stricter test than Obsidian's own.
TAG = re.compile(r"#[^\s#\x00]")
WIKI_LINK = re.compile(r"!?\[\[[^\]\x00]*\]\]")
# Other note-app syntax: Obsidian's highlights, comments, math, block ids and strikethrough; Logseq's macros,
# block references and properties.
OTHER_SYNTAX = re.compile(r"==|%%|\$|\^|~~|\{\{|\(\(|::")
OBSIDIAN_TAG_VALUE = re.compile(r"^(?=[\w/-]*[^\W\d])[\w/-]+$")  # a front-matter tag: letters, digits, _ - /


@dataclass(slots=True)
class Structure:
    """The parts of a Markdown document that carry meaning."""

    headings: list[tuple[int, str]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # (target, text)
    blocks: list[str] = field(default_factory=list)  # block token types, in order (paragraph_open, ...)
    raw: list[str] = field(default_factory=list)  # each inline's unescaped text, escapes as ESCAPED
    text: list[str] = field(default_factory=list)  # each inline's text as shown

    @property
    def tags(self) -> list[str]:
        return [match.group(0) for raw in self.raw for match in TAG.finditer(raw)]

    @property
    def wiki_links(self) -> list[str]:
        return [match.group(0) for raw in self.raw for match in WIKI_LINK.finditer(raw)]

    @property
    def other_syntax(self) -> list[str]:
        return [match.group(0) for raw in self.raw for match in OTHER_SYNTAX.finditer(raw)]

    @property
    def shown(self) -> str:
        return " ".join(self.text)


def body_of(markdown: str) -> str:
    """The document without its YAML front matter."""
    if markdown.startswith("---\n"):
        return markdown[4:].split("\n---\n", 1)[1]
    return markdown


def structure(markdown: str) -> Structure:
    parser = MarkdownIt("commonmark")  # raw HTML on, as in Obsidian
    parser.disable("text_join")
    found = Structure()
    tokens = parser.parse(body_of(markdown))
    for index, token in enumerate(tokens):
        if token.type != "inline":
            found.blocks.append(token.type)
            continue
        children = token.children or []
        found.raw.append("".join(_raw(child) for child in children))
        found.text.append("".join(child.content if child.type in ("text", "text_special") else "\n"
                                  for child in children if child.type in ("text", "text_special", "softbreak",
                                                                          "hardbreak")))
        if tokens[index - 1].type == "heading_open":
            found.headings.append((int(tokens[index - 1].tag[1]), found.text[-1]))
        found.links += _links(children)
    return found


def _raw(token: Token) -> str:
    if token.type == "text":
        return token.content
    if token.type == "text_special":
        return ESCAPED
    if token.type in ("softbreak", "hardbreak"):
        return "\n"
    return " "  # link and emphasis delimiters, code spans, inline HTML: not text


def _links(children: list[Token]) -> list[tuple[str, str]]:
    links: list[tuple[str, str]] = []
    current: tuple[str, list[str]] | None = None
    for child in children:
        if child.type == "link_open":
            current = (str(child.attrs.get("href", "")), [])
        elif child.type == "link_close" and current is not None:
            links.append((current[0], "".join(current[1])))
            current = None
        elif current is not None and child.type in ("text", "text_special"):
            current[1].append(child.content)
    return links


def front_matter_of(markdown: str) -> dict[str, object]:
    """The front matter's values: ``key: <JSON value>`` lines between ``---`` (JSON is YAML: the same values)."""
    assert markdown.startswith("---\n")
    head = markdown[4:].split("\n---\n", 1)[0]
    return {key: json.loads(raw) for key, _, raw in (line.partition(": ") for line in head.splitlines())}
