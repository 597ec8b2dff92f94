"""The window's note work: taking notes while playing (B), the notes pane and the Notes view, edits and deletes
with undo, transcripts fetched in the background and followed during playback, and exports."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow

from earmark.core.chaptering.made import keep_transcript
from earmark.core.db.database import Database
from earmark.core.db.items import get_item
from earmark.core.db.notes import (
    NoteFilter,
    add_note,
    check_time,
    delete_note,
    list_notes,
    put_back_note,
    update_note,
)
from earmark.core.db.transcripts import StoredTranscript, store_transcript
from earmark.core.errors import NotFoundError
from earmark.core.models import Anchor, Item, Note, Source, Transcript
from earmark.core.notes.note_chapters import notes_with_chapters
from earmark.core.notes.transcripts import fetch_transcript, take_note, transcript_to_show
from earmark.core.timefmt import format_clock
from earmark.core.transcribe.absence import Absence, why_no_transcript
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.notes_pane import ARTICLE_HINT, EPISODE_HINT, NotesPane
from earmark.gui.views.notes_view import NotesView
from earmark.gui.views.transcript_pane import TranscriptPane
from earmark.playback.player import PlayerState
from earmark.playback.progress import PlaybackSession

if TYPE_CHECKING:
    from earmark.gui.views.export_dialog import ExportDialog

# Exporting and backing up import their modules when first used: the window's start-up does not need them.
_LOADED = (PlayerState.PLAYING, PlayerState.PAUSED, PlayerState.LOADING)


class _NoteCommand(QUndoCommand):
    """An undoable change to one note, carried out by the library's writer. The change that created the
    command was already made: its first redo does nothing."""

    def __init__(self, notes: NotesController, text: str, item_id: int) -> None:
        super().__init__(text)
        self._notes = notes
        self._item_id = item_id
        self._first = True

    def _write(self, fn: Callable[..., object], *args: object) -> None:
        self._notes.write(fn, self._item_id, *args)


class _AddNote(_NoteCommand):
    def __init__(self, notes: NotesController, note: Note) -> None:
        super().__init__(notes, "Add Note", note.item_id)
        self._note = note

    def redo(self) -> None:
        if not self._first:
            self._write(put_back_note, self._note)
        self._first = False

    def undo(self) -> None:
        self._write(delete_note, self._note.id)


class _EditNote(_NoteCommand):
    def __init__(self, notes: NotesController, note_id: int, item_id: int, old: str, new: str) -> None:
        super().__init__(notes, "Edit Note", item_id)
        self._note_id, self._old, self._new = note_id, old, new

    def redo(self) -> None:
        if not self._first:
            self._write(update_note, self._note_id, self._new)
        self._first = False

    def undo(self) -> None:
        self._write(update_note, self._note_id, self._old)


class _DeleteNote(_NoteCommand):
    def __init__(self, notes: NotesController, note: Note) -> None:
        super().__init__(notes, "Delete Note", note.item_id)
        self._note = note
        self._first = False  # deleting is the redo

    def redo(self) -> None:
        self._write(delete_note, self._note.id)

    def undo(self) -> None:
        self._write(put_back_note, self._note)


class NotesController(QObject):
    """Owns the notes pane, the transcript pane, the Notes view and the undo stack of note edits.

    ``current_item`` and ``selected_ids`` tell it what the window has selected; ``on_notes_changed`` is called
    after notes were added, edited or deleted; ``on_error(sentence, title)`` shows a failure. Signal:
    ``highlight_chosen(object)`` with a highlight (a Note) Return was pressed on, to show in the reader.
    """

    highlight_chosen = Signal(object)

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database, session: PlaybackSession,
                 actions: Actions, current_item: Callable[[], Item | None], selected_ids: Callable[[], list[int]],
                 on_notes_changed: Callable[[], None], on_error: Callable[[str, str], None]) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._session = session
        self._current_item = current_item
        self._selected_ids = selected_ids
        self._on_notes_changed = on_notes_changed
        self._on_error = on_error
        self._choices: tuple[list[str], list[Source]] = ([], [])
        self._previews = self._loads = 0
        self._wanted: tuple[int, int] | None = None  # the note (item id, note id) to go to once its item's notes show
        self.export_dialog: ExportDialog | None = None
        self.undo_stack = QUndoStack(self)
        self.pane = NotesPane(actions.delete_note)
        self.transcript = TranscriptPane()
        self.transcript.hide()
        self.view = NotesView(actions.delete_note)
        self.pane.draft_done.connect(self._keep_draft)
        for source in (self.pane, self.transcript, self.view):
            source.seek_requested.connect(self.play_at)
        for model in (self.pane.model, self.view.model):
            model.text_edited.connect(self._edit)
        for table in (self.pane.table, self.view.table):
            table.note_chosen.connect(self._go_to)
        self.transcript.retry_requested.connect(self._retry_transcript)
        offers = {"transcribe": actions.transcribe, "retry": actions.transcribe, "download": actions.download}
        self.transcript.offer_taken.connect(lambda action: offers[action].trigger())
        self.view.filter_changed.connect(lambda _flt: self.reload_view())
        session.player.position_changed.connect(self._follow)
        actions.add_note.triggered.connect(self.add_note_here)
        actions.delete_note.triggered.connect(self.delete_current)
        actions.undo.triggered.connect(self.undo_stack.undo)
        actions.redo.triggered.connect(self.undo_stack.redo)
        actions.export_notes.triggered.connect(self.ask_export)
        actions.backup_library.triggered.connect(self.ask_backup)
        self.undo_stack.canUndoChanged.connect(actions.undo.setEnabled)
        self.undo_stack.canRedoChanged.connect(actions.redo.setEnabled)
        actions.undo.setEnabled(False)
        actions.redo.setEnabled(False)

    def _status(self, message: str, msecs: int = 6000) -> None:
        self._window.statusBar().showMessage(message, msecs)

    def write(self, fn: Callable[..., object], item_id: int, *args: object) -> None:
        """Change a note on the writer, then show the change (undo and redo come through here)."""
        self._runner.write(fn, *args, on_done=lambda _result: self._changed(item_id),
                           on_error=lambda message: self._on_error(message, "Notes"))

    def _changed(self, item_id: int) -> None:
        if self.pane.item_id == item_id:
            self._load_notes(item_id)
        if self.view.isVisible():
            self.reload_view()
        self._on_notes_changed()

    # The item shown --------------------------------------------------------------------------------

    def show_item(self, item: Item | None) -> None:
        """Show ``item``'s notes and transcript (read, and fetched when needed, in the background)."""
        if item is None:
            self.pane.show_notes(None, "", [])
            self.transcript.hide()
            self.transcript.show_message(None, "")
            return
        self.pane.hint = ARTICLE_HINT if item.kind == "article" else EPISODE_HINT
        if item.id != self.pane.item_id:
            self.pane.show_notes(item.id, item.title, [])
        self._load_notes(item.id)
        if item.id != self.transcript.item_id:
            self.transcript.hide()
            self.transcript.show_message(item.id, "")
            self._runner.read(transcript_to_show, item.id, on_done=lambda found: self._on_lookup(item.id, found))

    def transcript_changed(self, item_id: int, share: float | None = None) -> None:
        """The episode is being transcribed here (``share`` done; negative: it stopped) or was (None)."""
        if self.transcript.item_id != item_id:
            return
        if share is None or share < 0:
            self._runner.read(transcript_to_show, item_id, on_done=lambda found: self._on_lookup(item_id, found))
        elif self.transcript.model.rowCount() == 0:  # a transcript from the feed stays shown while one is made
            self.transcript.show()
            self.transcript.show_message(item_id, f"Transcribing on this computer… {share:.0%}")

    def show_note(self, item_id: int, note_id: int) -> None:
        """Bring the keyboard to a note in the notes pane, in sight, once the pane shows its item's notes (the
        item is selected meanwhile)."""
        self._wanted = (item_id, note_id)
        if self.pane.item_id == item_id:
            self._load_notes(item_id)

    def _load_notes(self, item_id: int) -> None:
        self._loads += 1
        number = self._loads

        def show(notes: list[Note]) -> None:
            if self.pane.item_id == item_id and number == self._loads:  # a later reading brings newer notes
                self.pane.show_notes(item_id, self.pane.title.toolTip(), notes)
                if self._wanted is not None and self._wanted[0] == item_id:
                    self.pane.select_note(self._wanted[1])
                    self._wanted = None

        self._runner.read(notes_with_chapters, item_id, on_done=show)

    def _on_lookup(self, item_id: int, found: tuple[StoredTranscript | None, str | None]) -> None:
        stored, url = found
        if self.transcript.item_id != item_id:
            return
        if url is None:
            self._runner.read(why_no_transcript, item_id, on_done=lambda why: self._on_absence(item_id, why))
            return
        self.transcript.show()
        if stored is None:
            self._fetch_transcript(item_id, url)
        elif stored.transcript is not None:
            self._show_transcript(item_id, stored.transcript)
        else:
            self.transcript.show_message(item_id, stored.error or "", can_retry=True)

    def _on_absence(self, item_id: int, why: Absence) -> None:
        if self.transcript.item_id != item_id:
            return
        self.transcript.setVisible(bool(why.sentence))
        self.transcript.show_absence(item_id, why.sentence, why.action)

    def _fetch_transcript(self, item_id: int, url: str) -> None:
        self.transcript.show_message(item_id, "Fetching the transcript…")

        def fetched(transcript: Transcript) -> None:
            self._runner.write(keep_transcript, item_id, url, transcript)  # and the chapters made from it
            if self.transcript.item_id == item_id:
                self._show_transcript(item_id, transcript)

        def failed(message: str) -> None:
            self._runner.write(store_transcript, item_id, url, None, message)
            if self.transcript.item_id == item_id:
                self.transcript.show_message(item_id, message, can_retry=True)

        self._runner.compute(fetch_transcript, url, on_done=fetched, on_error=failed)

    def _show_transcript(self, item_id: int, transcript: Transcript) -> None:
        self.transcript.show_transcript(item_id, transcript)
        playing = self._session.item
        if playing is not None and playing.id == item_id and self._session.player.state in _LOADED:
            self.transcript.follow(self._session.player.position())

    def _retry_transcript(self, item_id: int) -> None:
        def fetch_again(found: tuple[StoredTranscript | None, str | None]) -> None:
            if found[1] is not None:
                self._fetch_transcript(item_id, found[1])

        self._runner.read(transcript_to_show, item_id, on_done=fetch_again)

    @Slot(float)
    def _follow(self, seconds: float) -> None:
        playing = self._session.item
        if playing is not None and playing.id == self.transcript.item_id:
            self.transcript.follow(seconds)

    def play_at(self, item_id: int, seconds: float) -> None:
        """Play ``item_id`` from ``seconds`` (seek when it is already in the player)."""
        player = self._session.player
        playing = self._session.item
        if playing is not None and playing.id == item_id and player.state in _LOADED:
            player.seek(seconds)
            player.play()
            return
        try:
            item = get_item(self._db, item_id)
        except NotFoundError as exc:
            self._status(str(exc))
            return
        if item.kind == "episode":
            self._session.play_item(replace(item, position=seconds, played=False))

    def _go_to(self, note: Note) -> None:
        """Return on a note: its episode plays from the note's time, as a click on the time does; a highlight is
        for the reader."""
        if note.at is not None:
            self.play_at(note.item_id, note.at)
        else:
            self.highlight_chosen.emit(note)

    # Taking, editing and deleting notes --------------------------------------------------------------

    @Slot()
    def add_note_here(self) -> None:
        """Open a new note at the playing position (or on the selected item), playback going on."""
        item, player = self._session.item, self._session.player
        if item is not None and player.state in (PlayerState.PLAYING, PlayerState.PAUSED):
            at = check_time(player.position())  # rounded as it will be stored: the label shows that time
        else:
            item = self._current_item()
            if item is None:
                self._status("Select an item, or play an episode, to take a note on it.")
                return
            at = check_time(item.position) if item.kind == "episode" and item.position > 0 else None
        if self.pane.item_id != item.id:
            self.pane.show_notes(item.id, item.title, [])
            self._load_notes(item.id)
        self.pane.start_draft(item.id, at, QApplication.focusWidget())

    def _keep_draft(self, item_id: int, at: float | None, text: str) -> None:
        if not text.strip():
            self._status("The empty note was discarded.")
            return

        def kept(note: Note) -> None:
            self.undo_stack.push(_AddNote(self, note))
            self._changed(note.item_id)
            where = f" at {format_clock(note.at)}" if note.at is not None else ""
            self._status(f"Note kept{where} on “{note.item_title}”.")

        self._runner.write(take_note, item_id, text, at, on_done=kept,
                           on_error=lambda message: self._on_error(message, "The note was not kept"))

    def add_highlight(self, item_id: int, quote: str, anchor: Anchor, text: str = "") -> None:
        """Keep a highlight of ``quote`` (a note anchored to the article's text, its text optional); undo
        removes it."""
        def kept(note: Note) -> None:
            self.undo_stack.push(_AddNote(self, note))
            self._changed(note.item_id)
            self._status(f"Highlighted in “{note.item_title}” (Ctrl+Z takes it back).")

        self._runner.write(add_note, item_id, text, None, quote, None, anchor, on_done=kept,
                           on_error=lambda message: self._on_error(message, "The highlight was not kept"))

    def _edit(self, note_id: int, old: str, new: str) -> None:
        note = self._note_shown(note_id)
        if note is None:
            return
        if not new and not note.is_highlight:  # a highlight stays without its note
            note.text = old
            self._delete(note)
            return
        self.write(update_note, note.item_id, note_id, new)
        self.undo_stack.push(_EditNote(self, note_id, note.item_id, old, new))

    def _note_shown(self, note_id: int) -> Note | None:
        for model in (self.pane.model, self.view.model):
            row = model.row_of(note_id)
            if row is not None:
                return model.note_at(row)
        return None

    @Slot()
    def delete_current(self) -> None:
        """Delete the note current in the focused notes table (undo brings it back)."""
        table, model = ((self.view.table, self.view.model) if self.view.table.hasFocus()
                        else (self.pane.table, self.pane.model))
        note = model.note_at(table.currentIndex().row())
        if note is not None:
            self._delete(note)

    def _delete(self, note: Note) -> None:
        self.undo_stack.push(_DeleteNote(self, note))
        self._status("Note deleted (Ctrl+Z brings it back).")

    # The Notes view --------------------------------------------------------------------------------

    def set_choices(self, tags: list[str], sources: list[Source]) -> None:
        """The tags and sources the Notes view and the export dialog offer."""
        self._choices = (tags, sources)
        self.view.set_choices(tags, sources)

    def reload_view(self) -> None:
        """Re-read the Notes view's notes with its filter."""
        self._runner.read(list_notes, self.view.note_filter(), on_done=self.view.show_notes)

    def shutdown(self) -> None:
        """Keep the note being typed and stop pending filtering (the window is closing)."""
        self.pane.finish_draft()
        self.view.stop_filtering()

    # Export and backup -----------------------------------------------------------------------------

    @Slot()
    def ask_export(self) -> None:
        """Open File → Export Notes… (scope, format, destination, preview)."""
        from earmark.gui.views.export_dialog import ExportChoices, ExportDialog

        item, selection = self._shown_item(), tuple(self._selected_ids())
        tags, sources = self._choices
        choices = ExportChoices(item=(item.id, item.title) if item else None, selection=selection, tags=tags,
                                sources=sources, start=self._export_start(item, selection))
        dialog = ExportDialog(choices, self._window)
        dialog.preview_requested.connect(lambda kind, flt: self._preview(dialog, kind, flt))
        dialog.export_requested.connect(lambda kind, flt, path: self._export(dialog, kind, flt, path))
        self.export_dialog = dialog
        dialog.open()
        self._preview(dialog, dialog.kind_name(), dialog.note_filter())

    def _shown_item(self) -> Item | None:
        """The item the details show: the current note's in the Notes view, else the one selected in the list."""
        note = self.view.model.note_at(self.view.table.currentIndex().row()) if self.view.isVisible() else None
        try:
            return get_item(self._db, note.item_id) if note is not None else self._current_item()
        except NotFoundError:
            return None

    def _export_start(self, item: Item | None, selection: tuple[int, ...]) -> str:
        """The scope the export dialog opens on: what has notes, the item, else the selected items, else every
        note (it opened on an item without notes: "No notes match this choice.")."""
        if item is not None and list_notes(self._db, NoteFilter(item_ids=(item.id,)), limit=1):
            return "item"
        if len(selection) > 1 and list_notes(self._db, NoteFilter(item_ids=selection), limit=1):
            return "selection"
        return "everything"

    def _preview(self, dialog: ExportDialog, kind: str, flt: NoteFilter) -> None:
        from earmark.core.notes.export import preview_export

        self._previews += 1
        number = self._previews

        def show(text: str) -> None:
            if number == self._previews:
                dialog.show_preview(text)

        self._runner.read(preview_export, kind, flt, on_done=show, on_error=show)

    def _export(self, dialog: ExportDialog, kind: str, flt: NoteFilter, path: Path) -> None:
        from earmark.core.notes.export import run_export

        dialog.export_button.setEnabled(False)

        def done(message: str) -> None:
            self._status(message, 15000)
            dialog.accept()

        def failed(message: str) -> None:
            dialog.export_button.setEnabled(True)
            self._on_error(message, "Export failed")

        self._runner.read(run_export, kind, flt, path, on_done=done, on_error=failed)

    @Slot()
    def ask_backup(self) -> None:
        """Choose where to back up the library, and write the backup (JSON and OPML) in the background."""
        from earmark.core.notes.backup import write_backup

        name, _filter = QFileDialog.getSaveFileName(self._window, "Back Up Library",
                                                    str(Path.home() / "earmark-backup.json"), "Backups (*.json)")
        if name:
            self._runner.read(write_backup, Path(name),
                              on_done=lambda result: self._status(result.message, 15000),
                              on_error=lambda message: self._on_error(message, "Backup failed"))
