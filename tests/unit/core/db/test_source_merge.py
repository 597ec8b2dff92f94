"""core/db/source_merge.py knows every table that refers to episodes: what moves to the copy kept (the user's) and
what is worked out again (derived). A new table must be put on one side, or a merge would drop its rows."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.source_merge import DERIVED, ITEM_STATE, referring


def test_every_table_referring_to_episodes_is_moved_or_worked_out_again(library: Database) -> None:
    tables = {table for table, _column in referring(library.conn, "items")}
    assert tables == set(ITEM_STATE) | set(DERIVED)
    assert not set(ITEM_STATE) & set(DERIVED)
