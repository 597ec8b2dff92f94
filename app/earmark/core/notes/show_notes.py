"""The start of an item's show notes (or article) as Markdown: paragraphs and lists, links kept as
``[text](url)``, everything else escaped text (core/notes/mdtext.py)."""

from __future__ import annotations

from dataclasses import field
from html.parser import HTMLParser

from earmark.core.html import sanitize
from earmark.core.notes.mdtext import fragment, link
from earmark.core.records import record

SUMMARY_CHARS = 500  # the most visible text a summary takes; it stops once it has 60 % of this
_BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "tr", "dt", "dd", "table"}
_LISTS = {"ul", "ol"}


@record
class _Block:
    """A paragraph or a list item: runs of text, each with the address it links to (or None)."""

    parts: list[tuple[str, str | None]] = field(default_factory=list)
    item: int = 0  # in a list: its number there (1, 2, ...); 0 for a paragraph
    ordered: bool = False
    list_id: int = 0

    @property
    def length(self) -> int:
        return sum(len(text) for text, _ in self.parts)


class _Reader(HTMLParser):
    """Splits sanitized HTML into blocks (paragraphs and list items) of text and links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[_Block] = []
        self._block = _Block()
        self._lists: list[_Block] = []  # per open list: its last item (number, ordered, list id)
        self._href: str | None = None
        self._lists_seen = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS or tag in _LISTS or tag == "li":
            self._flush()
        if tag in _LISTS:
            self._lists_seen += 1
            self._lists.append(_Block(ordered=tag == "ol", list_id=self._lists_seen))
        elif tag == "li" and self._lists:
            last = self._lists[-1]
            self._block = self._lists[-1] = _Block(item=last.item + 1, ordered=last.ordered, list_id=last.list_id)
        elif tag == "a":
            self._href = dict(attrs).get("href")
        elif tag == "br":
            self._block.parts.append(("\n", None))

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._href = None
        elif tag in _BLOCKS or tag == "li":
            self._flush()
        elif tag in _LISTS and self._lists:
            self._flush()
            self._lists.pop()

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if data[:1].isspace() and text:
            text = " " + text
        if data[-1:].isspace() and text:
            text += " "
        if text:
            self._block.parts.append((text, self._href))

    def close(self) -> None:
        super().close()
        self._flush()

    def _flush(self) -> None:
        parts = _trimmed(self._block.parts)
        if parts:
            self._block.parts = parts
            self.blocks.append(self._block)
        self._block = _Block()


def _trimmed(parts: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """Parts without the spaces and line breaks at either end of the block."""
    while parts and not parts[0][0].strip():
        parts = parts[1:]
    while parts and not parts[-1][0].strip():
        parts = parts[:-1]
    if parts:
        parts = [(parts[0][0].lstrip(), parts[0][1]), *parts[1:]]
        parts = [*parts[:-1], (parts[-1][0].rstrip(), parts[-1][1])]
    return parts


def summary_markdown(markup: str, base: str | None = None) -> str:
    """The first paragraphs (or lists) of ``markup`` as Markdown: whole ones up to about 300 characters of
    text, one cut at 500 when it is longer; a list counts as one."""
    reader = _Reader()
    reader.feed(sanitize(markup, base))
    reader.close()
    units: list[list[_Block]] = []
    for block in reader.blocks:
        if units and block.item > 1 and units[-1][-1].list_id == block.list_id:
            units[-1].append(block)
        else:
            units.append([block])
    taken: list[list[_Block]] = []
    total = 0
    for unit in units:
        length = sum(block.length for block in unit)
        if taken and total + length > SUMMARY_CHARS:
            break
        taken.append(unit if length <= SUMMARY_CHARS else [_cut(unit[0])])
        total += length
        if total >= SUMMARY_CHARS * 0.6:
            break
    return "\n\n".join("\n".join(_render(block) for block in unit) for unit in taken)


def _cut(block: _Block) -> _Block:
    """The block's first SUMMARY_CHARS - 1 characters and an ellipsis."""
    parts, room = [], SUMMARY_CHARS - 1
    for text, href in block.parts:
        parts.append((text[:room], href))
        room -= len(text)
        if room <= 0:
            break
    last_text, last_href = parts[-1]
    parts[-1] = (last_text.rstrip() + "…", last_href)
    return _Block(parts, block.item, block.ordered, block.list_id)


def _render(block: _Block) -> str:
    marker = (f"{block.item}. " if block.ordered else "- ") if block.item else ""
    indent = " " * len(marker)
    out, at_start = [], True
    for text, href in block.parts:
        if text == "\n":
            out.append("\n" + indent)
            at_start = True
            continue
        out.append(link(text, href) if href else fragment(text, at_start))
        at_start = False
    return marker + "".join(out)
