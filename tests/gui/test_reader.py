"""The reading list in the real window, driven from the keyboard: adding articles from a local HTTP server, the
reader (safe, images only when allowed, its place kept across a restart), highlights, read/archived state,
Continue Reading, the links of an item, and the reader's style."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDropEvent, QImage, QPalette
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit
from pytestqt.qtbot import QtBot

from earmark.core.articles.capture import capture
from earmark.core.articles.store import ArticleData, store_article
from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.notes import highlights_for_item
from earmark.core.db.reading import article_state, save_reading_progress
from earmark.core.settings import get_setting
from earmark.gui.application import Parts
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.models.sidebar import ARCHIVE, CONTINUE_READING
from earmark.gui.views.add_links import AddLinksDialog
from helpers.feed_server import FeedServer, Route
from helpers.gui import Launch
from helpers.journeys import showing
from helpers.reading import FILES, PAGES, long_article

UNSAFE = re.compile(r"<script|<iframe|javascript:|file:|onload|onclick|tracker\.example", re.IGNORECASE)


def save(library_path: Path, url: str, title: str | None = None) -> int:
    """Save the page at ``url`` as an article before the window starts."""
    article = capture(url, title)
    assert isinstance(article, ArticleData)
    db = open_library(library_path)
    try:
        return store_article(db, article).item_id
    finally:
        db.close()


def started(parts: Parts, qtbot: QtBot) -> MainWindow:
    """The window, once it has the keyboard (the offscreen platform activates it a little after showing it)."""
    window = parts.window
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    return window


def open_in_reader(parts: Parts, qtbot: QtBot, title: str) -> None:
    """Select the item titled ``title`` in the list and press Return: the reader shows it."""
    window = started(parts, qtbot)
    qtbot.waitUntil(lambda: any(window.items_model.item_at(r).title == title  # type: ignore[union-attr]
                                for r in range(window.items_model.rowCount())), timeout=10000)
    row = next(r for r in range(window.items_model.rowCount())
               if window.items_model.item_at(r).title == title)  # type: ignore[union-attr]
    window.item_list.selectRow(row)
    window.item_list.setFocus()
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    reader = window.reading.reader
    qtbot.waitUntil(lambda: window.reading.reading and reader.document_shown is not None
                    and reader.document_shown.item.title == title, timeout=10000)


def answer_dialog(qtbot: QtBot, name: str, text: str) -> None:
    """Type ``text`` in the open input dialog called ``name`` and press Return."""
    qtbot.waitUntil(lambda: any(w.objectName() == name and w.isVisible() for w in QApplication.topLevelWidgets()))
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == name and w.isVisible())
    assert isinstance(dialog, QInputDialog)
    line = dialog.findChild(QLineEdit)
    assert line is not None
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Return)
    window = dialog.parentWidget()
    assert window is not None
    window.activateWindow()  # the offscreen platform gives the keyboard back to no window on its own
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def test_add_an_article_read_half_restart_and_it_reopens_at_the_same_place(
        qtbot: QtBot, launch: Launch, page_server: FeedServer, library_path: Path) -> None:
    url = page_server.serve_body("/long-read.html", long_article("A long read on guards", 80), "text/html")
    parts = launch()
    window = started(parts, qtbot)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    answer_dialog(qtbot, "addArticleDialog", url)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1, timeout=10000)
    assert "Saved “A long read on guards”" in window.statusBar().currentMessage()
    open_in_reader(parts, qtbot, "A long read on guards")
    reader = window.reading.reader
    assert QApplication.focusWidget() is reader
    assert "Paragraph 1: guards are evaluated" in reader.toPlainText() and "min read" in reader.toPlainText()
    while reader.share_read() < 0.5:
        qtbot.keyClick(reader, Qt.Key.Key_PageDown)
    half = reader.share_read()
    assert 0.5 <= half < 0.75
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not window.isVisible()
    [item] = list_items(open_library(library_path), ItemFilter())
    assert item.duration and item.position / item.duration == pytest.approx(half, abs=0.01)

    again = launch()  # the same library: the article reopens where it was left
    started(again, qtbot)
    reader = again.window.reading.reader
    qtbot.waitUntil(lambda: again.window.reading.reading and reader.document_shown is not None, timeout=10000)
    qtbot.waitUntil(lambda: reader.share_read() == pytest.approx(half, abs=0.02), timeout=5000)
    assert reader.document_shown is not None and reader.document_shown.item.id == item.id
    qtbot.keyClick(reader, Qt.Key.Key_Escape)  # back to the list; opening it again finds the same place
    assert showing(again.window) == "list"
    open_in_reader(again, qtbot, "A long read on guards")
    qtbot.waitUntil(lambda: reader.share_read() == pytest.approx(half, abs=0.02), timeout=5000)


def test_paste_links_on_the_list_saves_articles_and_subscribes_to_feeds(
        qtbot: QtBot, launch: Launch, page_server: FeedServer, library_path: Path) -> None:
    save(library_path, page_server.url("scripts.html"))
    window = started(launch(), qtbot)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1)
    QApplication.clipboard().setText(f"{page_server.url('messy.html')}\n{page_server.url('blog.atom')}\nnot a link\n")
    window.item_list.setFocus()
    qtbot.keyClick(window.item_list, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 4, timeout=15000)  # one article, a feed of two
    titles = {item.title: item for item in list_items(open_library(library_path), ItemFilter())}
    assert "How TorchDynamo guards decide when to recompile" in titles and "FX graphs by example" in titles
    assert titles["FX graphs by example"].source == "The Compiler Notebook"
    QApplication.clipboard().setText("nothing to add here")
    qtbot.keyClick(window.item_list, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert window.statusBar().currentMessage() == "The clipboard holds no web address or file to add."


def test_the_reader_is_safe_and_loads_images_only_when_allowed(qtbot: QtBot, launch: Launch,
                                                               page_server: FeedServer, library_path: Path) -> None:
    image = QImage(400, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("steelblue"))
    buffer = QBuffer()
    buffer.open(QBuffer.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    page_server.route("/images/guard-tree.png", Route(body=bytes(buffer.data().data()), content_type="image/png"))
    item_id = save(library_path, page_server.url("messy.html"))
    parts = launch()
    open_in_reader(parts, qtbot, "How TorchDynamo guards decide when to recompile")
    reader = parts.window.reading.reader
    html, text = reader.toHtml(), reader.toPlainText()
    assert not UNSAFE.search(html), UNSAFE.search(html)
    assert "Guards are evaluated before each call" in text and "cheap watches" not in text
    assert "[image: A tree of guards checked before a compiled graph runs]" in text
    assert "1 image is not loaded" in text
    assert page_server.received_for("/images/guard-tree.png") == []  # nothing remote unless allowed
    qtbot.keyClick(reader, Qt.Key.Key_I)
    qtbot.waitUntil(lambda: len(page_server.received_for("/images/guard-tree.png")) == 1, timeout=10000)
    qtbot.waitUntil(lambda: "[image:" not in reader.toPlainText(), timeout=5000)
    assert article_state(open_library(library_path), item_id).images_allowed
    qtbot.waitUntil(lambda: reader.loadResource(2, page_server.url("images/guard-tree.png")) is not None)
    assert not UNSAFE.search(reader.toHtml())


def test_a_page_that_cannot_be_fetched_says_why_in_the_reader(qtbot: QtBot, launch: Launch,
                                                              page_server: FeedServer) -> None:
    url = page_server.serve_status("/moved-away", 404)
    parts = launch()
    parts.window.articles.add(url, "A post that moved")
    open_in_reader(parts, qtbot, "A post that moved")
    text = parts.window.reading.reader.toPlainText()
    assert "This article is saved as its link only." in text and "answered with HTTP error 404" in text


def test_highlight_with_h_and_with_a_note_then_undo(qtbot: QtBot, launch: Launch, page_server: FeedServer,
                                                    library_path: Path) -> None:
    item_id = save(library_path, page_server.url("messy.html"))
    parts = launch()
    window = started(parts, qtbot)
    open_in_reader(parts, qtbot, "How TorchDynamo guards decide when to recompile")
    reader = window.reading.reader
    assert reader.find("Guards are evaluated before each call")
    qtbot.keyClick(reader, Qt.Key.Key_H)
    qtbot.waitUntil(lambda: len(reader.extraSelections()) == 1, timeout=5000)
    assert reader.extraSelections()[0].cursor.selectedText() == "Guards are evaluated before each call"
    qtbot.waitUntil(lambda: window.notes.pane.model.rowCount() == 1)
    assert window.notes.pane.model.index(0, 1).data() == "“Guards are evaluated before each call”"
    assert reader.find("the cache keeps the compiled graphs around")
    qtbot.keyClick(reader, Qt.Key.Key_H, Qt.KeyboardModifier.ShiftModifier)
    answer_dialog(qtbot, "highlightNoteDialog", "Why recompiles are rare")
    qtbot.waitUntil(lambda: len(reader.extraSelections()) == 2, timeout=5000)
    notes = highlights_for_item(open_library(library_path), item_id)
    assert [(n.quote, n.text) for n in notes] == [("Guards are evaluated before each call", ""),
                                                  ("the cache keeps the compiled graphs around",
                                                   "Why recompiles are rare")]
    reader.set_style(20, False)  # re-rendered bigger: the highlights are found again by their text
    assert len(reader.extraSelections()) == 2
    qtbot.keyClick(reader, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(reader.extraSelections()) == 1, timeout=5000)
    assert len(highlights_for_item(open_library(library_path), item_id)) == 1
    reader.moveCursor(reader.textCursor().MoveOperation.Start)  # nothing selected: H explains
    qtbot.keyClick(reader, Qt.Key.Key_H)
    assert window.statusBar().currentMessage().startswith("Select words of the article to highlight them")


def test_read_archive_and_continue_reading(qtbot: QtBot, launch: Launch, page_server: FeedServer,
                                           library_path: Path) -> None:
    first = save(library_path, page_server.url("messy.html"))
    second = save(library_path, page_server.url("scripts.html"))
    db = open_library(library_path)
    save_reading_progress(db, first, 0.4)
    save_reading_progress(db, second, 0.2)
    db.close()
    parts = launch()
    window = started(parts, qtbot)
    qtbot.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2)
    assert window.items_model.item_filter.state == "in_progress"
    assert window.sidebar_tree.currentIndex().data().startswith("Continue reading (2)")
    assert window.items_model.index(0, 4).data() in ("40% read", "20% read")
    window.item_list.selectRow(window.items_model.row_of(first))  # type: ignore[arg-type]
    qtbot.keyClick(window.item_list, Qt.Key.Key_R)  # read: it leaves Continue Reading
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1, timeout=5000)
    assert get_item(open_library(library_path), first).played
    qtbot.keyClick(window.item_list, Qt.Key.Key_A)  # archive the other one
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 0, timeout=5000)
    assert article_state(open_library(library_path), second).archived
    window.sidebar_tree.setCurrentIndex(window.sidebar_model.index_for(ARCHIVE))
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1)
    assert window.items_model.item_at(0).id == second  # type: ignore[union-attr]
    assert window.sidebar_model.index_for(CONTINUE_READING).data() == "Continue reading (0)"


def test_add_links_from_an_item_with_the_keyboard(qtbot: QtBot, launch: Launch, page_server: FeedServer,
                                                  library_path: Path) -> None:
    notes = (f'<p>This week: <a href="{page_server.url("messy.html")}">guards, explained</a>, '
             f'<a href="{page_server.url("scripts.html")}">a profiling guide</a> and '
             f'<a href="{page_server.url("js-only.html")}">an app</a>.</p>')
    db = open_library(library_path)
    store_article(db, ArticleData("The weekly", "https://weekly.example/1", "Weekly", notes))
    db.close()
    window = started(launch(), qtbot)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1)
    qtbot.keyClick(window.item_list, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: isinstance(window.findChild(AddLinksDialog), AddLinksDialog))
    dialog = window.findChild(AddLinksDialog)
    assert isinstance(dialog, AddLinksDialog)
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.model.rowCount() == 3 and QApplication.focusWidget() is dialog.list
    qtbot.keyClick(dialog.list, Qt.Key.Key_Space)
    qtbot.keyClick(dialog.list, Qt.Key.Key_Down)
    qtbot.keyClick(dialog.list, Qt.Key.Key_Down)
    qtbot.keyClick(dialog.list, Qt.Key.Key_Space)
    qtbot.keyClick(dialog.list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3, timeout=10000)
    db = open_library(library_path)
    qtbot.waitUntil(lambda: next(i for i in list_items(db, ItemFilter())
                                 if i.title == "guards, explained").duration is not None, timeout=15000)
    titles = {item.title: item for item in list_items(db, ItemFilter())}
    assert set(titles) == {"The weekly", "guards, explained", "an app"}  # titled by their link text
    qtbot.waitUntil(lambda: article_state(db, titles["an app"].id).fetch_problem is not None
                    and "found no article text" in (article_state(db, titles["an app"].id).fetch_problem or ""),
                    timeout=15000)


def test_reader_text_size_and_dark_mode_are_remembered(qtbot: QtBot, launch: Launch, page_server: FeedServer,
                                                       library_path: Path) -> None:
    save(library_path, page_server.url("scripts.html"))
    parts = launch()
    window = started(parts, qtbot)
    open_in_reader(parts, qtbot, "Profiling a training loop without guessing")
    reader = window.reading.reader
    size = reader.document().defaultFont().pointSize()
    qtbot.keyClick(reader, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(reader, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(reader, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert reader.document().defaultFont().pointSize() == size + 1
    light = reader.palette().color(QPalette.ColorRole.Base).lightness()
    qtbot.keyClick(reader, Qt.Key.Key_D)
    assert reader.palette().color(QPalette.ColorRole.Base).lightness() < light < 256
    assert "Profiling a training loop" in reader.toPlainText()  # the article is still there, in dark colours
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    db = open_library(library_path)
    assert (get_setting(db, "reader.font_size"), get_setting(db, "reader.dark")) == (size + 1, True)


def test_dropping_a_link_and_a_markdown_file_saves_both(qtbot: QtBot, launch: Launch, page_server: FeedServer,
                                                       library_path: Path) -> None:
    window = started(launch(), qtbot)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(FILES / "meetup-notes.md")), QUrl(page_server.url("scripts.html"))])
    window.dropEvent(QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                                Qt.KeyboardModifier.NoModifier))
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2, timeout=10000)
    titles = {item.title for item in list_items(open_library(library_path), ItemFilter(kind="article"))}
    assert titles == {"Notes from the compiler meetup", "Profiling a training loop without guessing"}


def test_an_imported_reading_list_is_fetched_in_the_background(qtbot: QtBot, launch: Launch,
                                                               page_server: FeedServer, tmp_path: Path,
                                                               library_path: Path) -> None:
    missing = page_server.serve_status("/removed", 410)
    urls = tmp_path / "to-read.txt"
    urls.write_text(f"{page_server.url('messy.html')}\n{page_server.url('scripts.html')} Profiling, later\n"
                    f"{missing}\nnot an address\n")
    window = started(launch(), qtbot)
    window.articles.import_file(urls)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3, timeout=10000)
    db = open_library(library_path)

    def fetched() -> bool:
        states = [article_state(db, item.id).fetch_problem for item in list_items(db, ItemFilter())]
        return sorted(states, key=str) == sorted([None, None, f"{missing} is gone: the server says the page was "
                                                  "removed for good (HTTP 410)."], key=str)

    qtbot.waitUntil(fetched, timeout=15000)
    titles = {item.title for item in list_items(db, ItemFilter())}
    assert titles == {"How TorchDynamo guards decide when to recompile", "Profiling, later", missing}


def test_the_links_model_passes_the_model_tester(qtbot: QtBot, qtmodeltester) -> None:  # noqa: ANN001 - pytest-qt
    from earmark.core.articles.links import Link
    from earmark.gui.models.links import LinkListModel

    model = LinkListModel([Link("One", "https://a.example/"), Link("Two", "https://b.example/", saved=True)])
    qtmodeltester.check(model)
    model.set_all(True)
    assert [link.text for link in model.chosen()] == ["One"]


def test_pages_fixture_folder_is_served(page_server: FeedServer) -> None:
    assert (PAGES / "messy.html").is_file() and page_server.url("messy.html").startswith("http://127.0.0.1:")
