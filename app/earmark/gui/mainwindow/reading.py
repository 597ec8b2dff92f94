"""The window's reading-list work: adding articles (address, paste, drop, file, links of an item, imports),
fetching pages in the background, the reader with its progress, highlights, read/archived state and style."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog

from earmark.core.articles.capture import FeedLink, capture
from earmark.core.articles.imports import ReadingList, read_reading_list
from earmark.core.articles.links import Link, is_web, item_links
from earmark.core.articles.page import fetch_image
from earmark.core.articles.reader import ReaderDocument, reader_document
from earmark.core.articles.store import ArticleData
from earmark.core.models import Changes, Item, Note
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.actions import Actions
from earmark.gui.models.sidebar import CONTINUE_READING
from earmark.gui.operations.library import store_setting
from earmark.gui.operations.reading import (
    allow_images,
    archive,
    keep_reading_progress,
    mark_read,
    store_captured,
    store_links,
    store_reading_list,
)
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.add_links import AddLinksDialog
from earmark.gui.views.reader import ReaderView

if TYPE_CHECKING:
    from earmark.gui.mainwindow.window import MainWindow

FETCHING_AT_ONCE = 2  # pages fetched together: the pool stays free for the window's own reads
SAVE_PROGRESS_MS = 800  # after the reader stops scrolling
MAX_IMAGES = 40
FONT_SIZES = (8, 32)


def _ignore(_message: str) -> None:
    """An image that does not load stays out of the article."""


@dataclass(frozen=True, slots=True)
class _Job:
    """A page to fetch and store: its address, the title to give it, whether a feed is welcome instead."""

    source: str
    title: str | None = None
    feeds: bool = False


class ReadingController(QObject):
    """Owns the reader and the queue of pages being fetched; runs the reading-list actions of ``window``."""

    def __init__(self, window: MainWindow, runner: TaskRunner, db: sqlite_utils.Database, actions: Actions) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._actions = actions
        self._queue: deque[_Job] = deque()
        self._running = 0
        self._done = 0
        self._images_pending = 0
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(SAVE_PROGRESS_MS)
        self._save_timer.timeout.connect(self.save_progress)
        self.reader = ReaderView()
        self.reader.scrolled.connect(lambda _share: self._save_timer.start())
        self.reader.internal_link.connect(self._on_internal_link)
        self._image_timer = QTimer(self)
        self._image_timer.setSingleShot(True)
        self._image_timer.setInterval(300)
        self._image_timer.timeout.connect(self.reader.refresh_images)
        self._font_size = int(get_setting(db, "reader.font_size"))  # type: ignore[call-overload]
        dark = bool(get_setting(db, "reader.dark"))
        self.reader.set_style(self._font_size, dark)
        actions.dark_reader.setCheckable(True)
        actions.dark_reader.setChecked(dark)
        for action in (actions.highlight, actions.highlight_note, actions.allow_images, actions.toggle_read,
                       actions.toggle_archive, actions.toggle_favourite, actions.edit_tags):
            self.reader.addAction(action)
        self.reader.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self._connect(actions)

    def _connect(self, a: Actions) -> None:
        a.add_article.triggered.connect(self.ask_add_article)
        a.paste_link.triggered.connect(self.paste)
        a.add_links.triggered.connect(self.ask_add_links)
        a.import_reading_list.triggered.connect(self.ask_import)
        a.export_reading_list.triggered.connect(self.ask_export)
        a.toggle_read.triggered.connect(self.toggle_read)
        a.toggle_archive.triggered.connect(self.toggle_archive)
        a.fetch_again.triggered.connect(self.fetch_again)
        a.allow_images.triggered.connect(self.toggle_images)
        a.highlight.triggered.connect(lambda: self.highlight(with_note=False))
        a.highlight_note.triggered.connect(lambda: self.highlight(with_note=True))
        a.larger_text.triggered.connect(lambda: self._resize_text(1))
        a.smaller_text.triggered.connect(lambda: self._resize_text(-1))
        a.dark_reader.toggled.connect(self._set_dark)
        a.continue_reading.triggered.connect(self.show_continue_reading)

    def _status(self, message: str, msecs: int = 8000) -> None:
        self._window.statusBar().showMessage(message, msecs)

    # Adding articles ----------------------------------------------------------------------------------------

    def ask_add_article(self) -> None:
        """Ask for a web address or a file, and save it as an article in the background."""
        dialog = QInputDialog(self._window)
        dialog.setObjectName("addArticleDialog")
        dialog.setWindowTitle("Add Article")
        dialog.setLabelText("Web address of the article, or a file (HTML, Markdown, text):")
        dialog.textValueSelected.connect(lambda text: self.add(text.strip()) if text.strip() else None)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def paste(self) -> None:
        """Ctrl+V on the list: add each web address (or file) on the clipboard; a feed's address subscribes."""
        sources = [line.strip() for line in QApplication.clipboard().text().splitlines() if line.strip()]
        sources = [s for s in sources if is_web(s) or (Path(s).expanduser().is_file() and not s.startswith("-"))]
        if not sources:
            self._status("The clipboard holds no web address or file to add.")
            return
        for source in sources:
            self.add(source, feeds=True)

    def add(self, source: str, title: str | None = None, feeds: bool = False) -> None:
        """Fetch (or read) ``source`` and save it; with ``feeds``, a feed's address is subscribed to instead."""
        self._queue.append(_Job(source, title, feeds))
        self._next()

    def _next(self) -> None:
        while self._running < FETCHING_AT_ONCE and self._queue:
            job = self._queue.popleft()
            self._running += 1
            self._status(f"Fetching {job.source}…" if not self._queue else
                         f"Fetching pages: {self._done} done, {self._running + len(self._queue)} to go…", 0)
            self._runner.compute(capture, job.source, job.title, job.feeds,
                                 on_done=self._on_captured, on_error=self._on_capture_failed)

    def _on_captured(self, result: ArticleData | FeedLink) -> None:
        self._running -= 1
        self._done += 1
        if isinstance(result, FeedLink):
            self._window.subscribe(result.url)
        else:
            self._runner.write(store_captured, result, on_done=self._on_stored)
        self._next()

    def _on_stored(self, changes: Changes) -> None:
        self._window.apply_changes(changes)
        if self.reader.item_id in changes.items and self.reading:
            self.open_by_id(self.reader.item_id)  # fetched again while being read: show the new text
        if not self._queue and not self._running:
            self._done = 0

    def _on_capture_failed(self, message: str) -> None:
        self._running -= 1
        self._window.show_error(message, title="Could not add the article")
        self._next()

    def ask_add_links(self) -> None:
        """Add Links from This Item…: choose among the links of the current item's text or show notes."""
        item = self._item_in_view()
        if item is None:
            self._status("Select an article or an episode whose links you want to save.")
            return
        self._runner.read(item_links, item.id, on_done=lambda links: self._choose_links(item, links))

    def _choose_links(self, item: Item, links: list[Link]) -> None:
        if not links:
            self._status(f"“{item.title}” has no links to add.")
            return
        dialog = AddLinksDialog(item.title, links, self._window)
        dialog.chosen.connect(lambda chosen: self.save_links(item.title, chosen))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def save_links(self, origin: str, links: list[Link]) -> None:
        """Save links as articles at once, titled by their text, then fetch their pages in the background."""
        def saved(result: tuple[Changes, list[int]]) -> None:
            self._window.apply_changes(result[0])
            for link in links:
                self.add(link.url, link.text)

        self._runner.write(store_links, [(link.url, link.text) for link in links], origin, on_done=saved,
                           on_error=lambda message: self._window.show_error(message, title="Could not add links"))

    def ask_import(self) -> None:
        """Import a reading list (Pocket, Instapaper, Wallabag, a list of addresses); its pages are fetched after."""
        name, _filter = QFileDialog.getOpenFileName(
            self._window, "Import Reading List", str(Path.home()),
            "Reading lists (*.html *.htm *.csv *.json *.txt);;All files (*)")
        if name:
            self.import_file(Path(name))

    def import_file(self, path: Path) -> None:
        """Read and store a reading-list file in the background, then fetch the pages of the new articles."""
        def stored(result: tuple[Changes, list[str]]) -> None:
            changes, to_fetch = result
            self._window.apply_changes(changes)
            for url in to_fetch:
                self.add(url)

        def failed(message: str) -> None:
            self._window.show_error(message, title="Could not import the reading list")

        def read(found: ReadingList) -> None:
            for sentence in found.skipped[:5]:
                self._status(sentence)
            self._runner.write(store_reading_list, found, on_done=stored, on_error=failed)

        self._runner.compute(read_reading_list, path, on_done=read, on_error=failed)

    def ask_export(self) -> None:
        """Export the reading list as CSV or JSON (by the name's extension)."""
        from earmark.core.articles.export import export_reading_list

        name, _filter = QFileDialog.getSaveFileName(self._window, "Export Reading List",
                                                    str(Path.home() / "reading-list.csv"),
                                                    "CSV (*.csv);;JSON (*.json)")
        if name:
            path = Path(name)
            fmt = "json" if path.suffix.lower() == ".json" else "csv"
            self._runner.read(export_reading_list, fmt, path, on_done=self._status,
                              on_error=lambda message: self._window.show_error(message, title="Export failed"))

    def fetch_again(self) -> None:
        """Fetch the pages of the article read (or the selected articles) again."""
        items = self._items_in_view()
        articles = [item for item in items if item.kind == "article" and item.url]
        if not articles:
            self._status("Select saved articles to fetch their pages again.")
        for item in articles:
            self.add(item.url or "")

    def shutdown(self) -> None:
        """Keep the reading position and drop the pages not fetched yet (the window is closing)."""
        self._queue.clear()
        self._save_timer.stop()
        self._image_timer.stop()
        self.save_progress()

    # The reader -------------------------------------------------------------------------------------------

    @property
    def reading(self) -> bool:
        """Whether the reader is showing (in place of the item list)."""
        return self._window.list_stack.currentWidget() is self.reader

    def open_item(self, item: Item) -> None:
        """Open an article in the reader, where it was left."""
        self.open_by_id(item.id)

    def open_by_id(self, item_id: int) -> None:
        """Read the article (in the background) and show it in the reader."""
        if self.reader.item_id != item_id:
            self.save_progress()
        self._runner.read(reader_document, item_id, on_done=self._show_document,
                          on_error=lambda message: self._status(message))

    def _show_document(self, document: ReaderDocument) -> None:
        window = self._window
        same = self.reading and self.reader.item_id == document.item.id
        share = self.reader.share_read() if same else document.state.progress
        window.list_stack.setCurrentWidget(self.reader)
        window.detail.hide()
        self.reader.show_article(document, share)
        if not same:
            self.reader.setFocus()
            window.notes.show_item(document.item)
            self._runner.write(store_setting, "reader.open_article", document.item.id)
        if document.state.images_allowed:
            self._load_images(document)

    def close_reader(self) -> None:
        """Leave the reader for the item list (the place in the article is kept)."""
        if not self.reading:
            return
        self.save_progress()
        self.reader.clear_article()
        self._window.detail.show()
        self._window.list_stack.setCurrentWidget(self._window.item_list)
        self._runner.write(store_setting, "reader.open_article", 0)

    def restore(self) -> None:
        """Open the article that was open when the window last closed."""
        item_id = int(get_setting(self._db, "reader.open_article"))  # type: ignore[call-overload]
        if item_id:
            self._window.select_item(item_id)
            self._runner.read(reader_document, item_id, on_done=self._show_document, on_error=self._forget_article)

    def _forget_article(self, _message: str) -> None:
        self._runner.write(store_setting, "reader.open_article", 0)  # it was deleted meanwhile

    def save_progress(self) -> None:
        """Keep how far the article shown was read."""
        self._save_timer.stop()
        item_id = self.reader.item_id
        if item_id is not None and self.reading:
            self._runner.write(keep_reading_progress, item_id, self.reader.share_read(),
                               on_done=self._window.apply_changes)

    def _on_internal_link(self, name: str) -> None:
        if name == "fetch":
            self.fetch_again()
        elif name == "images":
            self.toggle_images()

    def _load_images(self, document: ReaderDocument) -> None:
        item_id = document.item.id

        def loader(url: str) -> Callable[[bytes], None]:
            def loaded(data: bytes) -> None:
                if self.reader.item_id == item_id:
                    self.reader.add_image(url, data)
                    self._image_timer.start()
            return loaded

        for url in document.images[:MAX_IMAGES]:
            self._runner.compute(fetch_image, url, on_done=loader(url), on_error=_ignore)

    def reload_highlights(self) -> None:
        """Show the article's highlights again (a highlight was added, edited, deleted or undone)."""
        item_id = self.reader.item_id
        if item_id is None or not self.reading:
            return
        from earmark.core.db.notes import highlights_for_item

        def show(notes: list[Note]) -> None:
            if self.reader.item_id == item_id:
                self.reader.set_highlights(notes)

        self._runner.read(highlights_for_item, item_id, on_done=show)

    def show_highlight(self, note: Note) -> None:
        """Bring a highlight into view when its article is being read."""
        if self.reading and self.reader.item_id == note.item_id and note.is_highlight:
            self.reader.scroll_to_highlight(note)

    def highlight(self, with_note: bool) -> None:
        """Highlight the selected words of the article (H); with a note (Shift+H)."""
        found = self.reader.selected_quote() if self.reading else None
        item_id = self.reader.item_id
        if found is None or item_id is None:
            self._status("Select words of the article to highlight them (the mouse, or Shift with the arrows).")
            return
        quote, anchor = found
        if not with_note:
            self._window.notes.add_highlight(item_id, quote, anchor)
            return
        dialog = QInputDialog(self._window)
        dialog.setObjectName("highlightNoteDialog")
        dialog.setWindowTitle("Highlight with Note")
        dialog.setLabelText(f"Your note on “{quote[:80]}{'…' if len(quote) > 80 else ''}”:")
        dialog.textValueSelected.connect(lambda text: self._window.notes.add_highlight(item_id, quote, anchor, text))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    # Reading state and style --------------------------------------------------------------------------------

    def _items_in_view(self) -> list[Item]:
        if self.reading and self.reader.document_shown is not None:
            return [self.reader.document_shown.item]
        ids = self._window.selected_item_ids()
        from earmark.core.db.items import items_by_ids

        found = items_by_ids(self._db, ids, full=False)
        return [found[i] for i in ids if i in found]

    def _item_in_view(self) -> Item | None:
        if self.reading and self.reader.document_shown is not None:
            return self.reader.document_shown.item
        return self._window.selected_item()

    def _ids_with(self, column: str) -> tuple[list[int], bool]:
        """The ids in view and whether every one of them has ``column`` set (then a toggle clears it)."""
        ids = [item.id for item in self._items_in_view()]
        if not ids:
            return [], False
        marks = ",".join("?" * len(ids))
        count = self._db.execute(f"SELECT count(*) FROM items WHERE {column} AND id IN ({marks})", ids).fetchone()[0]
        return ids, count == len(ids)

    def toggle_read(self) -> None:
        """Mark the article read or the selected items read (unread when they all are)."""
        ids, all_set = self._ids_with("played")
        if ids:
            self._runner.write(mark_read, ids, not all_set, on_done=self._changed)

    def toggle_archive(self) -> None:
        """Move the article (or the selected articles) to the archive, or back when they all are there."""
        ids, all_set = self._ids_with("archived")
        if ids:
            self._runner.write(archive, ids, not all_set, on_done=self._changed)

    def toggle_images(self) -> None:
        """Load the images of the article being read from the web (I), or stop loading them."""
        document = self.reader.document_shown
        if document is None or not self.reading:
            self._status("Open an article in the reader (Return) to load its images.")
            return
        self._runner.write(allow_images, document.item.id, not document.state.images_allowed, on_done=self._changed)

    def _changed(self, changes: Changes) -> None:
        self._window.apply_changes(changes)
        if self.reading and self.reader.item_id in changes.items:
            self.open_by_id(self.reader.item_id)

    def _resize_text(self, step: int) -> None:
        self._font_size = max(FONT_SIZES[0], min(FONT_SIZES[1], self._font_size + step))
        self.reader.set_style(self._font_size, self._actions.dark_reader.isChecked())
        self._runner.write(store_setting, "reader.font_size", self._font_size)
        self._status(f"Reader text: {self._font_size} pt.", 3000)

    def _set_dark(self, dark: bool) -> None:
        self.reader.set_style(self._font_size, dark)
        self._runner.write(store_setting, "reader.dark", dark)

    def show_continue_reading(self) -> None:
        """Show the articles begun and not finished, most recently read first."""
        window = self._window
        window.sidebar.setCurrentIndex(window.sidebar_model.index_for(CONTINUE_READING))
        window.focus_list()
