"""Cutting what an item holds into passages: transcript windows of ~30–60 s ended at a sentence's end, paragraphs
of show notes and articles, and notes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from earmark.core.models import Cue
from earmark.core.records import record

SOURCES = ("transcript", "show_notes", "article", "note")
WINDOW_S = (30.0, 60.0)  # a window ends at the first sentence end after 30 s, and at 60 s whatever is said
PARAGRAPH_CHARS = (160, 900)  # lines shorter than the first are joined to the next; longer ones than the second cut
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*$")
_SENTENCE = re.compile(r"[^.!?…]+(?:[.!?…]+[\"'”’)\]]*\s*|$)")


@record(frozen=True)
class Passage:
    """A piece of an item: its source, where it starts and ends (seconds for a transcript or a timed note) or
    where it stands in the text (the paragraph's character offset), the note it is, and its words."""

    source: str
    text: str
    at: float | None = None
    end: float | None = None
    offset: int | None = None
    note_id: int | None = None


def transcript_passages(cues: Sequence[Cue]) -> list[Passage]:
    """Windows of the transcript's lines, each 30–60 s, ended where a sentence ends when one does."""
    passages: list[Passage] = []
    window: list[Cue] = []
    for cue in cues:
        if not cue.text.strip():
            continue
        window.append(cue)
        length = cue.end - window[0].start
        if (length >= WINDOW_S[0] and _SENTENCE_END.search(cue.text.strip())) or length >= WINDOW_S[1]:
            passages.append(_window(window))
            window = []
    if window:
        passages.append(_window(window))
    return passages


def _window(cues: list[Cue]) -> Passage:
    return Passage("transcript", " ".join(cue.text.strip() for cue in cues), cues[0].start,
                   max(cue.end for cue in cues))


def text_passages(text: str, source: str) -> list[Passage]:
    """The text's paragraphs (its lines), short ones (headings, list items) joined to what follows, long ones cut
    at sentences; each with its character offset in ``text`` (one passage an offset)."""
    passages: list[Passage] = []
    start, parts = 0, list[str]()
    for offset, line in _lines(text):
        if not parts:
            start = offset
        parts.append(line)
        joined = " ".join(parts)
        if len(joined) >= PARAGRAPH_CHARS[0]:
            passages.extend(_cut_long(joined, start, source))
            parts = []
    if parts:
        passages.extend(_cut_long(" ".join(parts), start, source))
    return passages


def _lines(text: str) -> Iterable[tuple[int, str]]:
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            yield offset, line.strip()
        offset += len(line)


def _cut_long(paragraph: str, offset: int, source: str) -> list[Passage]:
    """A paragraph as it is, or cut at sentences into pieces of at most PARAGRAPH_CHARS[1] characters."""
    if len(paragraph) <= PARAGRAPH_CHARS[1]:
        return [Passage(source, paragraph, offset=offset)]
    pieces: list[Passage] = []
    piece, start, at = "", 0, 0
    for sentence in _SENTENCE.findall(paragraph):
        if piece and len(piece) + len(sentence) > PARAGRAPH_CHARS[1]:
            pieces.append(Passage(source, piece.strip(), offset=offset + start))
            piece, start = "", at
        piece += sentence
        at += len(sentence)
    if piece.strip():
        pieces.append(Passage(source, piece.strip(), offset=offset + start))
    return pieces


def note_passage(note_id: int, text: str, quote: str, at: float | None) -> Passage:
    """A note, with the transcript's words it quotes."""
    return Passage("note", f"{text}\n{quote}".strip(), at, at, note_id=note_id)
