"""An item's plain text (what search, snippets and the topic graph read) worked out from its show notes on demand.

Since schema 19 items keep their show notes once: ``items.text`` is a virtual column, ``own_text`` where the row
has one (text stored by an earlier version that differs from what is derived now) and else
``search_text(description, content)``, through the SQL function registered here on every connection that opens a
library. The derivation must give the same text for the same markup for ever: the search index removes an item's
words by reading its text again, so a change to core/html.py's flattening needs a migration that first stores the
text it changes in ``own_text``."""

from __future__ import annotations

import sqlite3

FUNCTION = "earmark_show_notes_text"
# Texts already worked out (where a feed was parsed) for rows about to be written, by (description, content): the
# search index's insert trigger and the vocabulary learnt before the commit read each new row's text, and take it
# from here instead of flattening the markup again. Forgotten when the write transaction ends (and bounded).
_expected: dict[tuple[str, str], str] = {}
_EXPECTED_AT_MOST = 100_000


def expect_texts(texts: dict[tuple[str, str], str]) -> None:
    """Announce the text of rows about to be written, each ``search_text(description, content)``."""
    if len(_expected) + len(texts) > _EXPECTED_AT_MOST:
        _expected.clear()
    _expected.update(texts)


def forget_texts() -> None:
    _expected.clear()


def show_notes_text(description: str | None, content: str | None) -> str:
    key = (description or "", content or "")
    found = _expected.get(key)
    if found is not None:
        return found
    from earmark.core.html import search_text  # deferred: nh3 is not needed to start the window

    return search_text(*key)


def add_text_function(conn: sqlite3.Connection) -> None:
    """Let ``conn`` read ``items.text`` (and the search index's snippets, which read it)."""
    conn.create_function(FUNCTION, 2, show_notes_text, deterministic=True)
