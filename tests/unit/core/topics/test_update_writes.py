"""How an update of the relations writes: it reads and analyses its items before its transaction (again inside it
when another connection wrote meanwhile), and the command copies the WAL into the library file while it does.
(``copy``: the sample library with its relations worked out, conftest.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from earmark.cli import main
from earmark.core.db.checkpoint import checkpoint_meanwhile
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.show_notes_text import add_text_function
from earmark.core.models import EntryData, FeedData
from earmark.core.topics.build import update_relations


def _library_path(db: Database) -> Path:
    return Path(db.execute("PRAGMA database_list").fetchone()[2])


def _add_episode(db: Database, text: str) -> int:
    feed = FeedData(title="Compiler Notes", entries=[EntryData(
        identity="guid:written-meanwhile", kind="episode", title="An episode", guid="written-meanwhile",
        enclosure_url="https://example.invalid/meanwhile.mp3", description=f"<p>{text}</p>")])
    return store_feed(db, "https://example.invalid/compiler.xml", feed).new[0]


def _terms(db: Database, item: int) -> set[str]:
    return {row[0] for row in db.execute("SELECT term FROM item_terms WHERE item_id = ?", [item])}


def test_an_item_changed_before_the_update_writes_is_worked_out_as_changed(copy: Database) -> None:
    item = _add_episode(copy, "Inductor lowers the FX graph to loops and fuses them.")
    other = sqlite3.connect(_library_path(copy), isolation_level=None)
    add_text_function(other)  # the text is worked out from the show notes (schema 19)

    def change_it() -> None:  # another program writes between the reading and the writing
        other.execute("UPDATE items SET description = '<p>Autograd saves tensors for backward.</p>', "
                      "own_text = NULL WHERE id = ?", [item])

    try:
        assert update_relations(copy, before_writing=change_it).items == 1
    finally:
        other.close()
    terms = _terms(copy, item)
    assert "autograd" in terms and "inductor" not in terms


def test_the_rows_an_update_writes_keep_the_foreign_keys(copy: Database) -> None:
    """It writes without checking them (each row names items it read in its transaction)."""
    item = _add_episode(copy, "CUDA graph trees replay the captured kernels; Inductor fuses loops.")
    assert update_relations(copy).items == 1
    assert copy.execute("SELECT count(*) FROM relations WHERE item_id = ? OR other_id = ?", [item, item]
                        ).fetchone()[0] > 0
    assert copy.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # checked again afterwards
    assert copy.execute("PRAGMA mmap_size").fetchone()[0] == 0  # read as before (it mapped the library meanwhile)
    assert copy.execute("PRAGMA foreign_key_check").fetchall() == []


def _in_file(path: Path, sql: str, item: int) -> bool:
    """Whether the library file without its WAL holds ``sql``'s row of ``item``."""
    reader = sqlite3.connect(f"file:{quote(str(path))}?immutable=1", uri=True)
    try:
        return reader.execute(sql, [item]).fetchone() is not None
    finally:
        reader.close()


NEW_ITEM = "SELECT 1 FROM items WHERE id = ?"


def test_the_wal_is_copied_into_the_library_file(copy: Database) -> None:
    copy.execute("PRAGMA wal_autocheckpoint = 0")
    item = _add_episode(copy, "CUDA graph trees replay the captured kernels.")
    assert not _in_file(_library_path(copy), NEW_ITEM, item)
    checkpoint_meanwhile(_library_path(copy)).join()
    assert _in_file(_library_path(copy), NEW_ITEM, item)


def test_the_command_copies_what_the_wal_held_before_it_wrote(copy: Database) -> None:
    item = _add_episode(copy, "CUDA graph trees replay the captured kernels.")  # the window's refresh, still open
    path = _library_path(copy)
    assert main(["--library", str(path), "update-relations"]) == 0
    assert _in_file(path, NEW_ITEM, item)  # what was there before: copied
    assert not _in_file(path, "SELECT 1 FROM graph_index WHERE item_id = ?", item)  # its own: left in the WAL
    assert copy.execute("SELECT 1 FROM graph_index WHERE item_id = ?", [item]).fetchone() is not None


def test_the_copy_never_makes_a_library(tmp_path: Path) -> None:
    checkpoint_meanwhile(tmp_path / "missing.db").join()
    assert list(tmp_path.iterdir()) == []
