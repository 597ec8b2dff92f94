"""A library whose pages are damaged under the window: selecting an item whose cached chapters sit on pages damaged
since it opened says so in a dialog and still shows the item (no uncaught error)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox, QTextBrowser
from pytestqt.qtbot import QtBot

from earmark.core.chapters import store_chapters
from earmark.core.db.connection import open_library
from earmark.core.models import Chapter
from helpers.gui import SAMPLE_ITEMS, Launch
from helpers.journeys import click_row, item_list, listed_titles, wait_rows


def cache_long_chapter_lists(library: Path) -> None:
    """Every item has a long chapter list cached (each on overflow pages of its own)."""
    db = open_library(library)
    chapters = [Chapter(start=float(n * 60), title=f"Chapter {n} " + "z" * 80) for n in range(400)]
    for (item_id,) in db.execute("SELECT id FROM items").fetchall():
        db.execute("UPDATE items SET chapters_url = ? WHERE id = ?", [f"https://example.com/{item_id}.json", item_id])
        store_chapters(db, item_id, f"https://example.com/{item_id}.json", chapters)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def damage_the_chapter_lists(library: Path) -> None:
    """Overwrite the pages that hold the chapter lists (the disk mangled them while the window was open)."""
    db = sqlite3.connect(library)
    page = db.execute("PRAGMA page_size").fetchone()[0]
    pages = [row[0] for row in db.execute("SELECT pageno FROM dbstat WHERE name = 'chapters_cache' "
                                          "AND pagetype = 'overflow'")]
    db.close()
    with library.open("r+b") as handle:
        for number in pages:
            handle.seek((number - 1) * page)
            handle.write(random.Random(number).randbytes(page))


def test_selecting_an_item_on_damaged_pages_says_the_library_is_damaged(qtbot: QtBot, launch: Launch,
                                                                        sample: None, library_path: Path) -> None:
    cache_long_chapter_lists(library_path)
    window = launch().window
    wait_rows(qtbot, window, SAMPLE_ITEMS)
    damage_the_chapter_lists(library_path)
    title = listed_titles(window)[1]
    click_row(qtbot, item_list(window), 1)

    def dialogs() -> list[QMessageBox]:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
    qtbot.waitUntil(lambda: bool(dialogs()), timeout=5000)
    assert dialogs()[0].windowTitle() == "The library is damaged"
    assert "Restore a backup" in dialogs()[0].text()
    details = window.findChild(QTextBrowser, "detailPane")
    assert details is not None and details.toPlainText().startswith(title)
