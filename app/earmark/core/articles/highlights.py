"""Highlighting an article's text from its stored text (the command line; the reader anchors its selection)."""

from __future__ import annotations

from earmark.core.articles.anchor import find_text, make_anchor
from earmark.core.db.database import Database
from earmark.core.db.items import get_item
from earmark.core.db.notes import add_note
from earmark.core.errors import EarmarkError
from earmark.core.html import to_text
from earmark.core.models import Note


def highlight_text(db: Database, item_id: int, wanted: str, note: str = "",
                   now: str | None = None) -> Note:
    """Highlight the first place ``wanted`` occurs in the item's text (case and line breaks aside), with an
    optional note. EarmarkError when the text is not there."""
    item = get_item(db, item_id)
    text = to_text(item.content or item.description)
    span = find_text(text, wanted) if wanted.strip() else None
    if span is None:
        raise EarmarkError(f"“{' '.join(wanted.split())}” is not in the text of “{item.title}”; quote the words "
                           "as the article has them.")
    quote, anchor = make_anchor(text, *span)
    return add_note(db, item_id, note, quote=quote, now=now, anchor=anchor)
