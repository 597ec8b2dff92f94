"""A highlight leaves with the sentence around it: found again in the article's text by its quote and anchor, and
written as that sentence with the highlighted words in bold."""

from __future__ import annotations

import re

from earmark.core.articles.anchor import locate
from earmark.core.db.database import Database
from earmark.core.db.show_notes import markup
from earmark.core.html import to_text
from earmark.core.models import Note
from earmark.core.notes.mdtext import fragment

CONTEXT_CHARS = 240  # at most this much of the sentence on each side (a long one is cut at a word, with "…")
_ENDS_BEFORE = re.compile(r"[.!?…][\"'”’)\]]*\s+|\n")
_ENDS_AFTER = re.compile(r"[.!?…][\"'”’)\]]*(?=\s|\Z)|\n")
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*\Z")

Context = tuple[str, str]  # the sentence's words before the highlight, and after it


def sentence_around(text: str, start: int, end: int) -> Context:
    """The rest of the sentence that ``text[start:end]`` is in: the words before it since the last sentence's end
    (or line break), and those after it up to its sentence's end; whitespace folded."""
    before = text[:start]
    ends = list(_ENDS_BEFORE.finditer(before))
    before = before[ends[-1].end():] if ends else before
    after = ""
    if not _SENTENCE_END.search(text[:end].rstrip()):
        found = _ENDS_AFTER.search(text, end)
        after = text[end:found.end() if found else len(text)]
    before, after = " ".join(before.split()) + (" " if before[-1:].isspace() else ""), _fold_after(after)
    if len(before) > CONTEXT_CHARS:
        before = "…" + before[-CONTEXT_CHARS:].split(" ", 1)[-1]
    if len(after) > CONTEXT_CHARS:
        after = after[:CONTEXT_CHARS].rsplit(" ", 1)[0] + "…"
    return before.lstrip(), after


def _fold_after(after: str) -> str:
    folded = " ".join(after.split())
    return (" " + folded if after[:1].isspace() and folded else folded).rstrip()


def highlight_contexts(db: Database, highlights: list[Note]) -> dict[int, Context]:
    """Each highlight's context, by note id, where its quote is still in its article's text."""
    ids = sorted({note.item_id for note in highlights})
    rows = db.execute(f"""SELECT id, content, description, text FROM items
                          WHERE id IN ({','.join('?' * len(ids))})""", ids).fetchall() if ids else []
    texts = {item_id: to_text(markup(content, text) or markup(description, text))
             for item_id, content, description, text in rows}
    contexts = {}
    for note in highlights:
        text = texts.get(note.item_id, "")
        span = locate(text, note.quote, note.anchor) if note.anchor else None
        if span is not None:
            contexts[note.id] = sentence_around(text, *span)
    return contexts


def quote_in_sentence(quote: str, context: Context) -> str:
    """One line of Markdown: the sentence, the highlighted words in bold. The bold is widened to whole words where
    CommonMark would not take ``**`` between the words as it stands (inside a word, after punctuation)."""
    before, after = context
    quote = " ".join(quote.split())
    if before and not before[-1].isspace() and not fragment(quote)[:1].isalnum():
        cut = len(before) - len(before.split(" ")[-1])
        before, quote = before[:cut], before[cut:] + quote
    if after and not after[0].isspace() and not fragment(quote)[-1:].isalnum():
        word = after.split(" ", 1)[0]
        quote, after = quote + word, after[len(word):]
    return f"{fragment(before, at_start=True)}**{fragment(quote)}**{fragment(after)}"
