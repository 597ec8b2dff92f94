"""The panes beside the list follow the selected item: its details (chapters, download), notes and transcript,
and related items; a chapter clicked in the details plays from there."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from PySide6.QtCore import QObject, Slot

from earmark.core.chapters import cached_chapters
from earmark.core.db.database import Database
from earmark.core.db.downloads import get_download
from earmark.core.db.items import get_item
from earmark.core.errors import NotFoundError
from earmark.core.models import Changes, Chapter, Download, Item, Note
from earmark.gui.mainwindow.library.graph import GraphController
from earmark.gui.mainwindow.library.notes import NotesController
from earmark.gui.mainwindow.listening.playback import PlaybackController
from earmark.gui.mainwindow.navigation.selection import Selection
from earmark.gui.views.detail import DetailPane
from earmark.playback.progress import PlaybackSession

DAMAGED = ("Part of the library could not be read: its file is damaged. The item is shown without its chapters and "
           "download. Restore a backup (File → Restore from Backup…, or earmark restore-backup).")


class ItemPanes(QObject):
    """Shows the item ``selection`` holds in ``detail``, the notes panes and the Related pane; ``show_error``
    says (with a title) what could not be read."""

    def __init__(self, db: Database, session: PlaybackSession, selection: Selection,
                 detail: DetailPane, notes: NotesController, graph: GraphController, playback: PlaybackController,
                 show_error: Callable[[str, str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db = db
        self._show_error = show_error
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
        """Show the selected item, unless Subscriptions shows: its details are its feed's (a start that came back
        to Subscriptions had them replaced by the list's item once the list was read)."""
        if not self._selection.in_subscriptions():
            self.show(self._selection.selected_item())

    def show(self, item: Item | None) -> None:
        """Show ``item`` with its chapters (the player's when it plays, else the cached ones), its download,
        its notes and its related items."""
        self._notes.show_item(item)
        if item is None:
            self._detail.show_item(None)
            return
        playing = self._session.item is not None and self._session.item.id == item.id
        chapters, download = self._stored(item.id)
        self._detail.show_item(item, self._session.chapters if playing else chapters,
                               self._session.chapter if playing else -1, download)
        self._graph.item_selected(item)

    def _stored(self, item_id: int) -> tuple[list[Chapter], Download | None]:
        """The item's cached chapters and its download; none (and the damage said once per sentence) when the
        library's pages holding them cannot be read."""
        try:
            return cached_chapters(self._db, item_id) or [], get_download(self._db, item_id)
        except sqlite3.DatabaseError:  # a mangled page, or text SQLite cannot decode (its text can be huge)
            self._show_error(DAMAGED, "The library is damaged")
            return [], None

    def follow(self, changes: Changes) -> None:
        """Show the item shown again when it changed."""
        shown = self._detail.item_id
        if shown is not None and shown in changes.items:
            self._show_again(shown)

    def _on_note_selected(self, note: Note | None) -> None:
        try:
            self.show(get_item(self._db, note.item_id) if note is not None else None)
        except NotFoundError:
            self.show(None)

    def _show_again(self, item_id: int) -> None:
        """The item the panes show, read again, whichever view chose it: the list's item in its place made
        playing from a note of the Notes view show an item of the list instead of the note's."""
        try:
            self.show(get_item(self._db, item_id))
        except NotFoundError:  # gone: the list's item, as when nothing was shown
            self.show_selected()

    @Slot(int)
    def _on_chapter(self, _index: int) -> None:
        playing = self._session.item
        if playing is not None and self._detail.item_id == playing.id:
            self._show_again(playing.id)

    @Slot(int)
    def play_chapter(self, index: int) -> None:
        """Play the selected item's chapter ``index`` (seek when it is playing)."""
        item = self._selection.selected_item()
        if item is None:
            return
        playing = self._session.item is not None and self._session.item.id == item.id
        chapters = self._session.chapters if playing else self._stored(item.id)[0]
        if not 0 <= index < len(chapters):
            return
        if playing:
            self._session.player.seek(chapters[index].start)
            self._session.player.play()
        else:
            self._playback.play(item, start=chapters[index].start)
