"""Full-text search: bm25-ranked matches that stay fast for common words, and snippets of what matched."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter, order_clause, where_clause
from earmark.core.db.search_query import match_expression
from earmark.core.records import record
from earmark.core.timefmt import format_clock

# Ranking every match of a common word costs tens of milliseconds at 100,000 items, so only the newest
# CANDIDATES matches are ranked (in the same pass that finds them); the rest follow, newest first.
CANDIDATES = 1000
FIELDS = ("title", "text", "notes", "transcript", "highlights")
_WEIGHTS = "10.0, 1.0, 3.0, 2.0, 3.0"  # a word in the title counts most, then notes and highlights
# Filters are tested on the narrow covering index, not on the item rows with their long texts (schema m003).
_JOIN = "search_index JOIN items i INDEXED BY items_filters ON i.id = search_index.rowid"
OPEN, CLOSE = "\x02", "\x03"  # around matched words in snippets (never in stored text)


@record(frozen=True)
class Snippet:
    """Where an item matched (a field name) and the words around the match, matches between OPEN and CLOSE."""

    field: str
    text: str
    at: float | None = None  # for a match in a transcript: the second where the matched words are said

    @property
    def where(self) -> str:
        """The field that matched, with the moment of a match in a transcript ("transcript at 1:05")."""
        return self.field if self.at is None else f"{self.field} at {format_clock(self.at)}"

    def marked(self, before: str = "[", after: str = "]") -> str:
        """The snippet with the matched words between ``before`` and ``after``."""
        return self.text.replace(OPEN, before).replace(CLOSE, after)


@record(frozen=True)
class RankedHead:
    """The best matches first; ``boundary`` is set when more matches remain (rowids at or below it)."""

    ids: list[int]
    boundary: int | None


def search_ids(db: Database, flt: ItemFilter, limit: int | None = None) -> list[int]:
    """Every item matching the search text and filters, in display order."""
    match = match_expression(db.conn, flt.text)
    if not match:
        return []
    if not flt.ranked:
        where, params = where_clause(flt)
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        sql = f"SELECT i.id FROM {_JOIN} WHERE search_index MATCH ? AND {where} ORDER BY {order_clause(flt)}{tail}"
        return [row[0] for row in db.execute(sql, [match, *params])]
    head = _ranked(db, flt, match)
    ids = head.ids if head.boundary is None else head.ids + _remaining(db, flt, match, head.boundary)
    return ids if limit is None else ids[:limit]


def ranked_head(db: Database, flt: ItemFilter) -> RankedHead:
    """The newest CANDIDATES matches, ranked by bm25 (ties: newest first)."""
    match = match_expression(db.conn, flt.text)
    return _ranked(db, flt, match) if match else RankedHead([], None)


def _ranked(db: Database, flt: ItemFilter, match: str) -> RankedHead:
    where, params = where_clause(flt)
    rows = db.execute(
        f"SELECT i.id, bm25(search_index, {_WEIGHTS}), i.published FROM {_JOIN} WHERE search_index MATCH ? "
        f"AND {where} ORDER BY search_index.rowid DESC LIMIT {CANDIDATES + 1}", [match, *params]).fetchall()
    boundary = rows[CANDIDATES][0] if len(rows) > CANDIDATES else None
    newest = sorted(rows[:CANDIDATES], key=lambda row: (row[2] or "", row[0]), reverse=True)
    return RankedHead([row[0] for row in sorted(newest, key=lambda row: row[1])], boundary)


def remaining_matches(db: Database, flt: ItemFilter, boundary: int) -> list[int]:
    """The matches after the ranked head, most recently added first."""
    return _remaining(db, flt, match_expression(db.conn, flt.text), boundary)


def _remaining(db: Database, flt: ItemFilter, match: str, boundary: int) -> list[int]:
    where, params = where_clause(flt)
    rows = db.execute(
        f"SELECT i.id FROM {_JOIN} WHERE search_index MATCH ? AND search_index.rowid <= ? AND {where} "
        "ORDER BY search_index.rowid DESC", [match, boundary, *params],
    )
    return [row[0] for row in rows]


def snippets(db: Database, text: str, ids: list[int], words: int = 12) -> dict[int, Snippet]:
    """For each item of ``ids`` that matches ``text``: the first field (title, text, notes...) that matched."""
    match = match_expression(db.conn, text)
    if not match or not ids:
        return {}
    columns = ", ".join(f"snippet(search_index, {n}, '{OPEN}', '{CLOSE}', '…', {words})" for n in range(len(FIELDS)))
    found: dict[int, Snippet] = {}
    for item_id in ids:  # one rowid lookup each: MATCH with "rowid IN (...)" would walk every match
        row = db.execute(f"SELECT {columns} FROM search_index WHERE search_index MATCH ? AND rowid = ?",
                         [match, item_id]).fetchone()
        if row is None:
            continue
        for field_name, value in zip(FIELDS, row, strict=True):
            if value and OPEN in value:
                found[item_id] = Snippet(field_name, " ".join(value.split()))
                break
    return found
