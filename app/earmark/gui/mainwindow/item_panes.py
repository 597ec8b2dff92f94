"""The panes beside the list follow the selected item: its details (chapters, download), notes and transcript,
and related items; a chapter clicked in the details plays from there."""

from __future__ import annotations

import sqlite_utils
from PySide6.QtCore import QObject, Slot

from earmark.core.chapters import cached_chapters
from earmark.core.db.downloads import get_download
from earmark.core.db.items import get_item
from earmark.core.errors import NotFoundError
from earmark.core.models import Changes, Item, Note
from earmark.gui.mainwindow.graph import GraphController
from earmark.gui.mainwindow.notes import NotesController
from earmark.gui.mainwindow.playback import PlaybackController
from earmark.gui.mainwindow.selection import Selection
from earmark.gui.views.detail import DetailPane
from earmark.playback.progress import PlaybackSession


class ItemPanes(QObject):
    """Shows the item ``selection`` holds in ``detail``, the notes panes and the Related pane."""

    def __init__(self, db: sqlite_utils.Database, session: PlaybackSession, selection: Selection,
                 detail: DetailPane, notes: NotesController, graph: GraphController, playback: PlaybackController,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db = db
        self._session = session
        self._selection = selection
        self._detail = detail
        self._notes = notes
        self._graph = graph
        self._playback = playback
        detail.chapter_chosen.connect(self.play_chapter)
        notes.view.note_selected.connect(self._on_note_selected)
        session.chapter_changed.connect(self._on_chapter)
        session.chapters_changed.connect(lambda _chapters: self._on_chapter(session.chapter))

    def show_selected(self) -> None:
        """Show the selected item."""
        self.show(self._selection.selected_item())

    def show(self, item: Item | None) -> None:
        """Show ``item`` with its chapters (the player's when it plays, else the cached ones), its download,
        its notes and its related items."""
        self._notes.show_item(item)
        if item is None:
            self._detail.show_item(None)
            return
        playing = self._session.item is not None and self._session.item.id == item.id
        chapters = self._session.chapters if playing else cached_chapters(self._db, item.id) or []
        self._detail.show_item(item, chapters, self._session.chapter if playing else -1,
                               get_download(self._db, item.id))
        self._graph.item_selected(item)

    def follow(self, changes: Changes) -> None:
        """Show the item shown again when it changed."""
        shown = self._detail.item_id
        if shown is not None and shown in changes.items:
            self.show_selected()

    def _on_note_selected(self, note: Note | None) -> None:
        try:
            self.show(get_item(self._db, note.item_id) if note is not None else None)
        except NotFoundError:
            self.show(None)

    @Slot(int)
    def _on_chapter(self, _index: int) -> None:
        playing = self._session.item
        if playing is not None and self._detail.item_id == playing.id:
            self.show_selected()

    @Slot(int)
    def play_chapter(self, index: int) -> None:
        """Play the selected item's chapter ``index`` (seek when it is playing)."""
        item = self._selection.selected_item()
        if item is None:
            return
        playing = self._session.item is not None and self._session.item.id == item.id
        chapters = self._session.chapters if playing else cached_chapters(self._db, item.id) or []
        if not 0 <= index < len(chapters):
            return
        if playing:
            self._session.player.seek(chapters[index].start)
            self._session.player.play()
        else:
            self._playback.play(item, start=chapters[index].start)
