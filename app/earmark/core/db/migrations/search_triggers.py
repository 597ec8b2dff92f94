"""Triggers that keep the search index in step with items and notes (schemas 1 and 3)."""

from __future__ import annotations


def search_triggers() -> list[str]:
    """Keep the search index (five columns) in step with items (title, text) and notes."""
    statements = [
        """CREATE TRIGGER items_indexed AFTER INSERT ON items BEGIN
            INSERT INTO search_index (rowid, title, text, notes, transcript, highlights)
            VALUES (new.id, new.title, new.text, '', '', '');
        END""",
        """CREATE TRIGGER items_reindexed AFTER UPDATE OF title, text ON items BEGIN
            UPDATE search_index SET title = new.title, text = new.text WHERE rowid = new.id;
        END""",
        """CREATE TRIGGER items_unindexed AFTER DELETE ON items BEGIN
            DELETE FROM search_index WHERE rowid = old.id;
        END""",
    ]
    return statements + notes_triggers()


def notes_triggers() -> list[str]:
    """Keep the search index's notes column in step with the notes table."""
    return [
        f"""CREATE TRIGGER notes_{event.lower()}_indexed AFTER {event} ON notes BEGIN
            UPDATE search_index SET notes = coalesce(
                (SELECT group_concat(text, ' ') FROM notes WHERE item_id = {ref}.item_id), '')
            WHERE rowid = {ref}.item_id;
        END"""
        for event, ref in (("INSERT", "new"), ("UPDATE", "new"), ("DELETE", "old"))
    ]
