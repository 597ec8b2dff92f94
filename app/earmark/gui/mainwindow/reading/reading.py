"""The window's reader: an article shown where it was left, its progress kept as it is read, highlights, read
and archived state, images on request, and the reader's text size and colours."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QInputDialog, QWidget

from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids
from earmark.core.db.notes import highlights_for_item
from earmark.core.models import Changes, Item, Note
from earmark.core.settings import get_setting
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.mainwindow.frame.feedback import Feedback
from earmark.gui.mainwindow.library.notes import NotesController
from earmark.gui.mainwindow.navigation.selection import Selection
from earmark.gui.mainwindow.places import READER, Place
from earmark.gui.operations.reading import allow_images, archive, keep_reading_progress, mark_read
from earmark.gui.operations.records import store_setting
from earmark.gui.tasks import TaskRunner
from earmark.gui.theme import is_dark
from earmark.gui.views.reader import ReaderView

if TYPE_CHECKING:
    from earmark.core.articles.reader import ReaderDocument

SAVE_PROGRESS_MS = 800  # after the reader stops scrolling
MAX_IMAGES = 40
FONT_SIZES = (8, 32)


def _ignore(_message: str) -> None:
    """An image that does not load stays out of the article."""


class ReadingController(QObject):
    """Owns the reader, a view of the central area the navigator shows (``widget``, ``enter``, ``here``,
    ``leave``, ``focus``, ``find_field``); runs the reading actions on the article read, else on the items
    ``selection`` holds. ``go(place)`` asks the navigator to show a place; ``dead_end()`` tells it the article
    asked for cannot be shown; ``on_changes`` shows what an operation changed."""

    def __init__(self, parent: QWidget, runner: TaskRunner, db: Database, actions: Actions,
                 notes: NotesController, selection: Selection, feedback: Feedback,
                 navigation: tuple[Callable[[Place], None], Callable[[], None]],
                 on_changes: Callable[[Changes], None]) -> None:
        super().__init__(parent)
        self._parent = parent
        self._runner = runner
        self._db = db
        self._actions = actions
        self._notes = notes
        self._selection = selection
        self._feedback = feedback
        self._go, self._dead_end = navigation
        self._on_changes = on_changes
        self._shown = False
        self._wanted: int | None = None  # the article asked for (shown once read)
        self._passage = ""  # the passage of it to show (an answer of Ask), else where it was left
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

    def _status(self, message: str, msecs: int = 8000) -> None:
        self._feedback.status(message, msecs)

    def shutdown(self) -> None:
        """Keep the reading position (the window is closing)."""
        self._save_timer.stop()
        self._image_timer.stop()
        self.save_progress()

    # The reader as a view ---------------------------------------------------------------------------------------

    @property
    def reading(self) -> bool:
        """Whether the reader is showing (in place of the item list)."""
        return self._shown

    def widget(self) -> QWidget:
        """The reader."""
        return self.reader

    def enter(self, place: Place) -> None:
        """Show the article of ``place`` where it was left (read in the background)."""
        self._shown = True
        if place.item_id is None or place.item_id == self.reader.item_id:
            return
        self._wanted = place.item_id
        self.reader.clear_article()
        self._read(place.item_id)
        self._runner.write(store_setting, "reader.open_article", place.item_id)  # opened again at the next start

    def here(self) -> Place:
        """The article shown."""
        return Place(READER, item_id=self.reader.item_id or self._wanted)

    def leave(self) -> None:
        """Keep the place in the article, and forget it was open (the lists may have changed with it)."""
        self.save_progress()  # its change says whether the lists see it (under way, read)
        self._shown = False
        self._wanted = None
        self.reader.clear_article()
        self._runner.write(store_setting, "reader.open_article", 0)

    def focus(self) -> None:
        """The keyboard to the article."""
        self.reader.setFocus()

    def find_field(self) -> QWidget | None:
        """The reader has no search of its own: Ctrl+F searches the list."""
        return None

    # Opening articles --------------------------------------------------------------------------------------------

    def open_item(self, item: Item, passage: str = "") -> None:
        """Open an article in the reader, where it was left, or at ``passage`` (its words), marked."""
        if passage and self.reading and self.reader.document_shown is not None and self.reader.item_id == item.id:
            self.reader.show_passage(passage)
        else:
            self._passage = passage
        self._go(Place(READER, item_id=item.id))

    def _read(self, item_id: int) -> None:
        from earmark.core.articles.reader import reader_document

        self._runner.read(reader_document, item_id, on_done=self._show_document,
                          on_error=lambda message: self._not_shown(item_id, message))

    def _not_shown(self, item_id: int, message: str) -> None:
        self._status(message)
        if self._shown and self._wanted == item_id and self.reader.document_shown is None:
            self._runner.write(store_setting, "reader.open_article", 0)  # it was deleted meanwhile
            self._dead_end()

    def _show_document(self, document: ReaderDocument) -> None:
        if not self._shown or document.item.id != self._wanted:
            return  # the reader was left, or went to another article, meanwhile
        same = self.reader.document_shown is not None and self.reader.item_id == document.item.id
        share = self.reader.share_read() if same else document.state.progress
        self.reader.show_article(document, share)
        if self._passage:
            self.reader.show_passage(self._passage)
            self._passage = ""
        if not same:
            self._selection.select_item(document.item.id)
            self._notes.show_item(document.item)
        if document.state.images_allowed:
            self._load_images(document)

    def restore(self) -> None:
        """Open the article that was open when the window last closed."""
        item_id = int(get_setting(self._db, "reader.open_article"))  # type: ignore[call-overload]
        if item_id:
            self._go(Place(READER, item_id=item_id))

    def save_progress(self) -> None:
        """Keep how far the article shown was read."""
        self._save_timer.stop()
        item_id = self.reader.item_id
        if item_id is not None and self.reading:
            self._runner.write(keep_reading_progress, item_id, self.reader.share_read(), on_done=self._on_changes)

    def article_changed(self, item_ids: Iterable[int]) -> None:
        """Show the article read again when it changed (its page was fetched again)."""
        if self.reading and self.reader.item_id is not None and self.reader.item_id in set(item_ids):
            self._read(self.reader.item_id)

    def _on_internal_link(self, name: str) -> None:
        if name == "fetch":
            self._actions.fetch_again.trigger()
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
            self._notes.add_highlight(item_id, quote, anchor)
            return
        dialog = QInputDialog(self._parent)
        dialog.setObjectName("highlightNoteDialog")
        dialog.setWindowTitle("Highlight with Note")
        dialog.setLabelText(f"Your note on “{quote[:80]}{'…' if len(quote) > 80 else ''}”:")
        dialog.textValueSelected.connect(lambda text: self._notes.add_highlight(item_id, quote, anchor, text))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    # Reading state and style --------------------------------------------------------------------------------

    def items_in_view(self) -> list[Item]:
        """The article being read, else the selected items."""
        if self.reading and self.reader.document_shown is not None:
            return [self.reader.document_shown.item]
        ids = self._selection.selected_item_ids()
        found = items_by_ids(self._db, ids, full=False)
        return [found[i] for i in ids if i in found]

    def item_in_view(self) -> Item | None:
        """The article being read, else the current item of the list."""
        if self.reading and self.reader.document_shown is not None:
            return self.reader.document_shown.item
        return self._selection.selected_item()

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
        self._on_changes(changes)
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
        if is_dark():  # D changes nothing to see: say why
            self._status("In the dark theme the reader's page stays dark; Dark Reader is for the light theme.", 5000)
