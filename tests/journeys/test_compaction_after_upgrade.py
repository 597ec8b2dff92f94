"""Issue 40: a library upgraded to schema 19 (show notes kept once) gets its space back in the background: soon
after the window opens, the status bar says how far the compaction is, then how much smaller the library is, and
the window lists and searches meanwhile."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pytestqt.qtbot import QtBot

from helpers.gui import Launch
from helpers.journeys import item_list, search
from helpers.old_library import copies_of_the_v18_fixture


def test_an_upgraded_library_is_compacted_in_the_background(qtbot: QtBot, launch: Launch, tmp_path: Path) -> None:
    library = tmp_path / "library.db"
    copies_of_the_v18_fixture(library, 60)  # 3,416 items
    window = launch(library).window
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    qtbot.waitUntil(lambda: item_list(window).model().rowCount() > 0)  # listed while the compaction waits
    assert "CUDA graph trees" in search(qtbot, window, "graph trees")
    qtbot.waitUntil(lambda: any(message.startswith("Compacted the library: ") for message in messages), timeout=30_000)
    assert any(message.startswith("Compacting the library… ") for message in messages)
    before, after = (float(size) for size in next(m for m in messages if m.startswith("Compacted")).split(": ")[1]
                     .removesuffix(" MB.").split(" MB → "))
    assert after < before
    conn = sqlite3.connect(library)
    try:
        assert conn.execute("SELECT count(*) FROM settings WHERE key = 'library.compaction_due'").fetchone() == (0,)
    finally:
        conn.close()
