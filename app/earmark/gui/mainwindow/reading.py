"""The window's reader: an article shown where it was left, its progress kept as it is read, highlights, read
and archived state, images on request, and the reader's text size and colours."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import sqlite_utils
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QInputDialog

from earmark.core.db.items import items_by_ids
from earmark.core.db.notes import highlights_for_item
from earmark.core.models import Changes, Item, Note
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.actions import Actions
from earmark.gui.models.sidebar import CONTINUE_READING
from earmark.gui.operations.library import store_setting
from earmark.gui.operations.reading import allow_images, archive, keep_reading_progress, mark_read
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.reader import ReaderView

if TYPE_CHECKING:
    from earmark.core.articles.reader import ReaderDocument
    from earmark.gui.mainwindow.window import MainWindow

SAVE_PROGRESS_MS = 800  # after the reader stops scrolling
MAX_IMAGES = 40
FONT_SIZES = (8, 32)


def _ignore(_message: str) -> None:
    """An image that does not load stays out of the article."""


class ReadingController(QObject):
    """Owns the reader, in place of the item list while an article is read; runs the reading actions of
    ``window`` on the article read, else on the selected items."""

    def __init__(self, window: MainWindow, runner: TaskRunner, db: sqlite_utils.Database, actions: Actions) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._actions = actions
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
        actions.dark_reader.setChecked(dark)
        for action in (actions.highlight, actions.highlight_note, actions.allow_images, actions.toggle_read,
                       actions.toggle_archive, actions.toggle_favourite, actions.edit_tags, actions.larger_text,
                       actions.smaller_text, actions.dark_reader):
            self.reader.addAction(action)
        self.reader.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        actions.toggle_read.triggered.connect(self.toggle_read)
        actions.toggle_archive.triggered.connect(self.toggle_archive)
        actions.allow_images.triggered.connect(self.toggle_images)
        actions.highlight.triggered.connect(lambda: self.highlight(with_note=False))
        actions.highlight_note.triggered.connect(lambda: self.highlight(with_note=True))
        actions.larger_text.triggered.connect(lambda: self._resize_text(1))
        actions.smaller_text.triggered.connect(lambda: self._resize_text(-1))
        actions.dark_reader.toggled.connect(self._set_dark)
        actions.continue_reading.triggered.connect(self.show_continue_reading)

    def _status(self, message: str, msecs: int = 8000) -> None:
        self._window.statusBar().showMessage(message, msecs)

    def shutdown(self) -> None:
        """Keep the reading position (the window is closing)."""
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
        from earmark.core.articles.reader import reader_document

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
        self.save_progress(then=lambda _changes: self._window.reload())  # the lists may have changed with it
        self.reader.clear_article()
        self._window.detail.show()
        self._window.list_stack.setCurrentWidget(self._window.item_list)
        self._runner.write(store_setting, "reader.open_article", 0)

    def restore(self) -> None:
        """Open the article that was open when the window last closed."""
        from earmark.core.articles.reader import reader_document

        item_id = int(get_setting(self._db, "reader.open_article"))  # type: ignore[call-overload]
        if item_id:
            self._window.select_item(item_id)
            self._runner.read(reader_document, item_id, on_done=self._show_document, on_error=self._forget_article)

    def _forget_article(self, _message: str) -> None:
        self._runner.write(store_setting, "reader.open_article", 0)  # it was deleted meanwhile

    def save_progress(self, then: Callable[[Changes], None] | None = None) -> None:
        """Keep how far the article shown was read; ``then`` is called instead of showing the change."""
        self._save_timer.stop()
        item_id = self.reader.item_id
        if item_id is not None and self.reading:
            self._runner.write(keep_reading_progress, item_id, self.reader.share_read(),
                               on_done=then or self._window.apply_changes)

    def article_changed(self, item_ids: Iterable[int]) -> None:
        """Show the article read again when it changed (its page was fetched again)."""
        if self.reading and self.reader.item_id in set(item_ids):
            self.open_by_id(self.reader.item_id)

    def _on_internal_link(self, name: str) -> None:
        if name == "fetch":
            self._window.articles.fetch_again()
        elif name == "images":
            self.toggle_images()

    def _load_images(self, document: ReaderDocument) -> None:
        from earmark.core.articles.page import fetch_image

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

    def items_in_view(self) -> list[Item]:
        """The article being read, else the selected items."""
        if self.reading and self.reader.document_shown is not None:
            return [self.reader.document_shown.item]
        ids = self._window.selected_item_ids()
        found = items_by_ids(self._db, ids, full=False)
        return [found[i] for i in ids if i in found]

    def item_in_view(self) -> Item | None:
        """The article being read, else the current item of the list."""
        if self.reading and self.reader.document_shown is not None:
            return self.reader.document_shown.item
        return self._window.selected_item()

    def _ids_with(self, column: str) -> tuple[list[int], bool]:
        """The ids in view and whether every one of them has ``column`` set (then a toggle clears it)."""
        ids = [item.id for item in self.items_in_view()]
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
        self.article_changed(changes.items)

    def _resize_text(self, step: int) -> None:
        self._font_size = max(FONT_SIZES[0], min(FONT_SIZES[1], self._font_size + step))
        self.reader.set_style(self._font_size, self._actions.dark_reader.isChecked())
        self._runner.write(store_setting, "reader.font_size", self._font_size)
        self._status(f"Reader text: {self._font_size} pt.", 3000)

    def apply_style_settings(self) -> None:
        """Show the reader with the ``reader.font_size`` and ``reader.dark`` settings (changed in Settings)."""
        self._font_size = int(get_setting(self._db, "reader.font_size"))  # type: ignore[call-overload]
        dark = bool(get_setting(self._db, "reader.dark"))
        self._actions.dark_reader.setChecked(dark)
        self.reader.set_style(self._font_size, dark)

    def _set_dark(self, dark: bool) -> None:
        self.reader.set_style(self._font_size, dark)
        self._runner.write(store_setting, "reader.dark", dark)

    def show_continue_reading(self) -> None:
        """Show the articles begun and not finished, most recently read first."""
        window = self._window
        window.sidebar.setCurrentIndex(window.sidebar_model.index_for(CONTINUE_READING))
        window.focus_list()
