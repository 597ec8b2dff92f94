"""The search index of schema 9: an FTS5 index over a view of the library (no second copy of the text), and the
triggers that keep it in step with items, notes, highlights and transcripts.

The index holds no text of its own (external content): FTS5 reads ``search_content`` for snippets and for a
rebuild, so every change to what the view shows must reach the index through these triggers, which tell FTS5
what an item's row held before (FTS5 removes exactly those words, at those places: notes and highlights are read
in the order they were written) and what it holds now. Words are also queued in ``search_pending`` for the
vocabulary of compound names (core/db/search_words.py).

An ``INSERT OR REPLACE`` into items would bypass the delete trigger: write items with INSERT, UPDATE or UPSERT.
"""

from __future__ import annotations

COLUMNS = ("title", "text", "notes", "transcript", "highlights")
_NAMES = ", ".join(COLUMNS)


def notes_of(item: str, skip: str = "NULL") -> str:
    """The notes column of item ``item`` (an SQL expression), leaving out the note whose id is ``skip``."""
    return (f"coalesce((SELECT group_concat(t, ' ') FROM (SELECT n.text AS t FROM notes n WHERE n.item_id = {item} "
            f"AND n.id IS NOT {skip} ORDER BY n.id)), '')")


def highlights_of(item: str, skip: str = "NULL") -> str:
    """The highlights column: the quoted text of the item's highlights (notes with an anchor)."""
    return (f"coalesce((SELECT group_concat(q, ' ') FROM (SELECT n.quote AS q FROM notes n WHERE n.item_id = {item} "
            f"AND n.anchor IS NOT NULL AND n.id IS NOT {skip} ORDER BY n.id)), '')")


def transcript_of(item: str) -> str:
    """The transcript column: the spoken text of the item's cached transcript (FTS5 reads its content without
    virtual tables such as json_each, so the text is kept beside the cues, by the triggers below)."""
    return f"coalesce((SELECT t.text FROM transcripts t WHERE t.item_id = {item}), '')"


SPOKEN = ("CASE WHEN json_valid(new.cues) THEN coalesce((SELECT group_concat(json_extract(value, '$[2]'), ' ') "
          "FROM json_each(new.cues)), '') ELSE '' END")


VIEW = f"""CREATE VIEW search_content AS
    SELECT i.id AS id, i.title AS title, i.text AS text, {notes_of('i.id')} AS notes,
           {transcript_of('i.id')} AS transcript, {highlights_of('i.id')} AS highlights
    FROM items i"""

INDEX = ("CREATE VIRTUAL TABLE search_index USING fts5(title, text, notes, transcript, highlights, "
         "content = 'search_content', content_rowid = 'id', "
         "tokenize = 'unicode61 remove_diacritics 2')")


def _removed(item: str, guard: str = "") -> str:
    """Take the item's row, as the view shows it now, out of the index (before a change)."""
    return f"DELETE FROM search_index WHERE rowid = {item} AND EXISTS (SELECT 1 FROM items WHERE id = {item}){guard};"


def _added(item: str, guard: str = "") -> str:
    """Put the item's row, as the view shows it now, into the index (after a change), and queue its words."""
    return (f"INSERT INTO search_index (rowid, {_NAMES}) SELECT id, {_NAMES} FROM search_content "
            f"WHERE id = {item}{guard};\n            {_queued(item, guard)}")


def _queued(item: str, guard: str = "") -> str:
    """Queue the item's words to be learnt (no OR IGNORE: an UPSERT outside would override it)."""
    return (f"INSERT INTO search_pending (item_id) SELECT id FROM items WHERE id = {item}{guard} "
            f"AND NOT EXISTS (SELECT 1 FROM search_pending WHERE item_id = {item});")


def _trigger(name: str, when: str, body: list[str], condition: str = "") -> str:
    statements = "\n            ".join(body)
    guard = f" WHEN {condition}" if condition else ""
    return f"CREATE TRIGGER {name} {when}{guard} BEGIN\n            {statements}\nEND"


def triggers() -> list[str]:
    """Every trigger that keeps the index (and the queue of words to learn) in step."""
    moved = " AND new.item_id IS NOT old.item_id"  # a note or transcript given to another item
    # A new note or transcript: what its item's row held before is worked out without it (an AFTER trigger, so
    # that an UPSERT, which fires BEFORE INSERT and then the UPDATE triggers, is counted once).
    note_added = (f"INSERT INTO search_index (search_index, rowid, {_NAMES}) SELECT 'delete', i.id, i.title, i.text, "
                  f"{notes_of('i.id', 'new.id')}, {transcript_of('i.id')}, {highlights_of('i.id', 'new.id')} "
                  "FROM items i WHERE i.id = new.item_id;")
    transcript_added = (f"INSERT INTO search_index (search_index, rowid, {_NAMES}) SELECT 'delete', i.id, i.title, "
                        f"i.text, {notes_of('i.id')}, '', {highlights_of('i.id')} "
                        "FROM items i WHERE i.id = new.item_id;")
    spoken = f"UPDATE transcripts SET text = {SPOKEN} WHERE item_id = new.item_id;"  # only ever written here
    changed = "new.title IS NOT old.title OR new.text IS NOT old.text"
    return [
        _trigger("search_items_insert", "AFTER INSERT ON items", [
            f"INSERT INTO search_index (rowid, {_NAMES}) VALUES (new.id, new.title, new.text, '', '', '');",
            _queued("new.id")]),
        _trigger("search_items_before_update", "BEFORE UPDATE OF title, text ON items", [_removed("old.id")], changed),
        _trigger("search_items_after_update", "AFTER UPDATE OF title, text ON items", [_added("new.id")], changed),
        _trigger("search_items_delete", "BEFORE DELETE ON items", [_removed("old.id")]),
        _trigger("search_notes_insert", "AFTER INSERT ON notes", [note_added, _added("new.item_id")]),
        _trigger("search_notes_before_update", "BEFORE UPDATE OF item_id, text, quote, anchor ON notes",
                 [_removed("old.item_id"), _removed("new.item_id", moved)]),
        _trigger("search_notes_after_update", "AFTER UPDATE OF item_id, text, quote, anchor ON notes",
                 [_added("old.item_id"), _added("new.item_id", moved)]),
        _trigger("search_notes_before_delete", "BEFORE DELETE ON notes", [_removed("old.item_id")]),
        _trigger("search_notes_after_delete", "AFTER DELETE ON notes", [_added("old.item_id")]),
        _trigger("search_transcripts_insert", "AFTER INSERT ON transcripts",
                 [transcript_added, spoken, _added("new.item_id")]),
        _trigger("search_transcripts_before_update", "BEFORE UPDATE OF item_id, cues ON transcripts",
                 [_removed("old.item_id"), _removed("new.item_id", moved)]),
        _trigger("search_transcripts_after_update", "AFTER UPDATE OF item_id, cues ON transcripts",
                 [spoken, _added("old.item_id"), _added("new.item_id", moved)]),
        _trigger("search_transcripts_before_delete", "BEFORE DELETE ON transcripts", [_removed("old.item_id")]),
        _trigger("search_transcripts_after_delete", "AFTER DELETE ON transcripts", [_added("old.item_id")]),
    ]
