"""The item list over many pages of rows: every row, scrolled through in order, shows its own item as the table
paints it (the delegate's roles answered in one call per cell), a row changed after its page was read shows
the change, and the pages ahead are warmed by a worker without it building their rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.gui.models import item_pages
from earmark.gui.models.item_pages import PAGE_SIZE
from earmark.gui.models.items import COL_DURATION, COL_PROGRESS, COL_TITLE, ItemListModel
from earmark.gui.tasks import TaskRunner

ITEMS = 5 * PAGE_SIZE + 17


@pytest.fixture
def long_list(library_path: Path) -> Iterator[tuple[Database, ItemListModel]]:
    """A library of ITEMS episodes of one podcast, newest first numbered 0, 1, ...; the model showing them."""
    db = open_library(library_path)
    db.execute("INSERT INTO sources (id, kind, url, title, added) VALUES (1, 'podcast', 'https://example.com/f', "
               "'The Show', '2025-01-01')")
    db.conn.executemany("INSERT INTO items (source_id, kind, identity, title, published, duration, added) "
                   "VALUES (1, 'episode', ?, ?, ?, ?, '2025-01-01')",
                   [(f"e{n}", f"Episode {ITEMS - 1 - n}", f"2020-01-01T00:00:{n:05d}", 60.0 * (n % 90 + 1))
                    for n in range(ITEMS)])
    db.conn.commit()
    runner = TaskRunner(library_path)
    model = ItemListModel(runner, db)
    yield db, model
    runner.shutdown()
    db.close()


def painted(model: ItemListModel, row: int, column: int) -> QStyleOptionViewItem:
    """What a table's delegate paints the cell with (the roles it asks the model for, all at once)."""
    option = QStyleOptionViewItem()
    QStyledItemDelegate().initStyleOption(option, model.index(row, column))
    return option


def test_every_row_scrolled_through_paints_its_own_item(qtbot: QtBot,
                                                        long_list: tuple[Database, ItemListModel]) -> None:
    _db, model = long_list
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.reload()
    assert model.rowCount() == ITEMS
    for row in range(ITEMS):
        if row % PAGE_SIZE == 0:
            qtbot.wait(0)  # pages read ahead arrive meanwhile, as while scrolling
        assert painted(model, row, COL_TITLE).text == f"Episode {row}"
    duration = painted(model, ITEMS - 1, COL_DURATION)  # the oldest: one minute long
    assert duration.text == "1:00" and duration.displayAlignment & Qt.AlignmentFlag.AlignRight


def test_a_row_changed_after_its_page_was_read_shows_the_change(
        qtbot: QtBot, long_list: tuple[Database, ItemListModel]) -> None:
    db, model = long_list
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.reload()
    row = PAGE_SIZE + 3
    assert painted(model, row, COL_TITLE).text == f"Episode {row}"  # its page read
    item_id = db.execute("SELECT id FROM items WHERE title = ?", [f"Episode {row}"]).fetchone()[0]
    db.execute("UPDATE items SET favourite = 1, title = 'Renamed' WHERE id = ?", [item_id])
    db.conn.commit()
    model.refresh_items({item_id})
    qtbot.wait(200)  # whatever a worker did meanwhile has arrived
    assert painted(model, row, COL_TITLE).text == "Renamed"
    assert painted(model, row, COL_PROGRESS).text == "★"


def test_the_pages_ahead_are_warmed_in_the_direction_scrolled(
        qtbot: QtBot, long_list: tuple[Database, ItemListModel], monkeypatch: pytest.MonkeyPatch) -> None:
    """Down the list the pages after the one shown are warmed, up the list those before it; each once, as ids
    only (a worker that built rows took the interpreter's lock from the frames it was to spare)."""
    db, model = long_list
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.reload()
    warmed: list[list[int]] = []
    monkeypatch.setattr(item_pages, "warm_items", lambda _db, ids: warmed.append(list(ids)))
    ids = [row[0] for row in db.execute("SELECT id FROM items ORDER BY published DESC")]  # as listed
    painted(model, 2 * PAGE_SIZE, COL_TITLE)
    qtbot.waitUntil(lambda: len(warmed) == 1)
    assert warmed[0] == ids[3 * PAGE_SIZE:]  # the pages after it, to the list's end (fewer than WARM_AHEAD)
    painted(model, 3 * PAGE_SIZE, COL_TITLE)  # scrolling on into pages warmed already: no more work asked
    qtbot.wait(100)
    assert len(warmed) == 1
    painted(model, PAGE_SIZE, COL_TITLE)  # scrolling up
    qtbot.waitUntil(lambda: len(warmed) == 2)
    assert warmed[1] == ids[:PAGE_SIZE]  # the page before it; pages 2 and 3 were read, not warmed again
    painted(model, 2 * PAGE_SIZE + 1, COL_TITLE)  # a page already read: nothing more
    qtbot.wait(100)
    assert len(warmed) == 2


def test_a_cell_never_shows_what_the_cell_painted_before_it_showed(
        qtbot: QtBot, long_list: tuple[Database, ItemListModel]) -> None:
    """A table paints every cell with one delegate, which keeps one span of roles from cell to cell: a role a cell
    does not answer (a title's alignment, a duration's cover) must come out empty, not as the last cell's."""
    _db, model = long_list
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.reload()
    delegate = QStyledItemDelegate()
    for row in range(30):
        for column in range(model.columnCount()):
            option = QStyleOptionViewItem()
            delegate.initStyleOption(option, model.index(row, column))
            right = bool(option.displayAlignment & Qt.AlignmentFlag.AlignRight)
            assert right == (column in (COL_DURATION, COL_PROGRESS)), (row, column)
            assert option.font.bold() is False, (row, column)


def test_a_cell_outside_the_list_has_no_index(qtbot: QtBot, long_list: tuple[Database, ItemListModel]) -> None:
    """The model makes its cells' indexes itself (one call per cell instead of Qt's three): only cells in the
    list are valid, and a cell has no children."""
    _db, model = long_list
    with qtbot.waitSignal(model.loaded, timeout=10_000):
        model.reload()
    last = model.columnCount() - 1
    assert (model.index(ITEMS - 1, last).row(), model.index(ITEMS - 1, last).column()) == (ITEMS - 1, last)
    for row, column in ((ITEMS, 0), (-1, 0), (0, last + 1), (0, -1)):
        assert not model.index(row, column).isValid(), (row, column)
    assert not model.index(0, 0, model.index(1, 0)).isValid()
