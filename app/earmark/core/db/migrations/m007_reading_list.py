"""Schema 7: the reading list (archive, images per article, fetch problems, reading time, highlights)."""

from __future__ import annotations

import sqlite3


def m007_reading_list(conn: sqlite3.Connection) -> None:
    """The reading list: archived articles, images allowed per article, why a saved article is only a link,
    reading time for the articles already stored, and highlights (notes anchored to quoted article text)."""
    statements = [
        "ALTER TABLE items ADD COLUMN archived INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE items ADD COLUMN images_allowed INTEGER NOT NULL DEFAULT 0",  # remote images: per article
        "ALTER TABLE items ADD COLUMN fetch_problem TEXT",  # set while a saved article is only its link
        # The Archive lists few items out of many: a partial index walks only those, in order (Continue Reading
        # has items_in_progress, of m005).
        "CREATE INDEX items_archived ON items (kind, published DESC, id DESC) WHERE archived = 1",
        # A highlight is a note whose ``quote`` is the highlighted text and ``anchor`` (JSON: prefix, suffix and
        # start of the quote in the article's text) finds that text again when the article is rendered anew.
        "ALTER TABLE notes ADD COLUMN anchor TEXT",
        # An article's estimated reading time is its duration (230 words a minute; words counted by spaces here,
        # by Python's split() for articles stored from now on).
        """UPDATE items SET duration = round((length(text) - length(replace(replace(text, char(10), ''), ' ', ''))
                                              + 1) * 60.0 / 230)
           WHERE kind = 'article' AND duration IS NULL AND trim(text) != ''""",
    ]
    # The search index's highlights column (m003) holds the highlighted text, kept in step with the notes.
    highlighted = ("coalesce((SELECT group_concat(quote, ' ') FROM notes "
                   "WHERE item_id = {ref}.item_id AND anchor IS NOT NULL), '')")
    for event, ref in (("INSERT", "new"), ("UPDATE OF quote, anchor", "new"), ("DELETE", "old")):
        statements.append(
            f"""CREATE TRIGGER notes_{event.split()[0].lower()}_highlighted AFTER {event} ON notes BEGIN
                UPDATE search_index SET highlights = {highlighted.format(ref=ref)} WHERE rowid = {ref}.item_id;
            END"""
        )
    for statement in statements:
        conn.execute(statement)
