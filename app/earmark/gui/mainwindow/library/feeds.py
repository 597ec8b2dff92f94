"""The window's feed work: refreshes (on request, on start, every N minutes) with progress and cancel,
OPML import and export, feed passwords, unsubscribing, and the Subscriptions view's data."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox, QStatusBar

from earmark.core.db.database import Database
from earmark.core.db.sources import get_source, set_credentials, waiting_feeds
from earmark.core.feeds.subscriptions import save_opml
from earmark.core.models import Changes, ItemState
from earmark.core.plurals import counted
from earmark.core.secrets.legacy import settle_secrets
from earmark.core.settings import get_setting
from earmark.gui.feed_refresh import FeedRefresh, RefreshSummary
from earmark.gui.keyring_choice import KeyringChoice
from earmark.gui.mainwindow.library.refresh_words import refreshed_sentence
from earmark.gui.models.sources import SourceTableModel, read_subscriptions
from earmark.gui.operations.subscriptions import unsubscribe_sources
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.credentials import CredentialsDialog
from earmark.gui.views.refresh_progress import RefreshProgress

START_DELAY_MS = 3000  # the on-start refresh waits for the window to settle
# Feeds finishing in a burst cause one reload of the lists, not one each; a reload of a 100k list costs the UI
# thread ~30 ms, so during a refresh the lists follow at most every RELOAD_DELAY_MS.
RELOAD_DELAY_MS = 2000


class FeedsController(QObject):
    """Runs the feed operations of ``window`` and keeps ``sources_model`` current.

    ``on_library_changed`` is called (throttled) when a refresh brought or changed items; ``on_error``
    shows a failure's sentence to the user, ``on_note`` what a successful import left out. Without ``automatic``
    (a read-only library) feeds refresh only on request.
    Signals: ``refresh_started()`` right after a refresh process was started, ``refreshed(RefreshSummary)``
    when a refresh or import has ended.
    """

    refresh_started = Signal()
    refreshed = Signal(object)

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database,
                 on_library_changed: Callable[[Changes], None], on_error: Callable[[str, str], None],
                 on_note: Callable[[str, str], None], selected_sources: Callable[[], list[int]],
                 automatic: bool = True) -> None:
        super().__init__(window)
        self._window = window
        self._selected_sources = selected_sources  # the feeds selected, or the feeds of the selected items
        self._runner = runner
        self._db = db
        self._on_library_changed = on_library_changed
        self._on_error = on_error
        self._on_note = on_note
        self._automatic = automatic
        self.sources_model = SourceTableModel(self)
        self.keyring = KeyringChoice(runner, window)  # asks once per session when there is no keyring
        self.unsubscribe_box: QMessageBox | None = None
        self.progress = RefreshProgress()
        self.progress.cancel_requested.connect(self.cancel)
        self._cancel_action: QAction | None = None
        self.refresher = FeedRefresh(runner.library_path, self)
        self.refresher.started.connect(self.progress.set_total)
        self.refresher.feed_done.connect(self._on_feed_done)
        self.refresher.finished.connect(self._on_finished)
        self._items_changed = self._feeds_checked = False
        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(RELOAD_DELAY_MS)
        self._reload_timer.timeout.connect(self._reload_after_feeds)
        self.periodic = QTimer(self)
        self.periodic.timeout.connect(self.refresh_due)
        self.apply_refresh_interval()
        self._start_timer = QTimer(self)  # a member, so that closing the window cancels it
        self._start_timer.setSingleShot(True)
        self._start_timer.timeout.connect(self._refresh_on_start)
        if get_setting(db, "feeds.refresh_on_start") and automatic:
            self._start_timer.start(START_DELAY_MS)
        self.reload_sources()
        if automatic:  # passwords an older version kept in the library file go to the keyring
            runner.write(settle_secrets, runner.library_path, on_done=self._on_passwords_settled)

    def apply_refresh_interval(self) -> None:
        """(Re)start the periodic refresh with the ``feeds.refresh_interval`` setting (0: none)."""
        minutes = int(get_setting(self._db, "feeds.refresh_interval"))  # type: ignore[call-overload]
        if minutes > 0 and self._automatic:
            self.periodic.start(minutes * 60_000)
        else:
            self.periodic.stop()

    def _status(self) -> QStatusBar:
        return self._window.statusBar()

    # Refreshing ---------------------------------------------------------------------------------------

    @Slot()
    def refresh_all(self) -> None:
        """Refresh every feed now, those backing off after failures or gone included (the person asks: F5)."""
        self._start(self.refresher.refresh(every=True), "Refreshing feeds…")

    @Slot()
    def refresh_due(self) -> None:
        """Refresh the feeds that are due (the automatic refreshes: gone and backing-off feeds wait)."""
        self._start(self.refresher.refresh(), "Refreshing feeds…")

    def refresh_selected(self) -> None:
        """Refresh the selected feeds (or the feeds of the selected items)."""
        ids = self._selected_sources()
        if not ids:
            self._status().showMessage("Select the feeds (or items of the feed) to refresh.", 6000)
        self.refresh_sources(ids)

    def ask_credentials_of_selected(self) -> None:
        """Ask for the selected feed's user name and password."""
        ids = self._selected_sources()
        if len(ids) != 1:
            self._status().showMessage("Select one feed to set its password.", 6000)
            return
        self.ask_credentials(ids[0])

    def refresh_sources(self, source_ids: list[int]) -> None:
        """Refresh these feeds now, whatever their state (this is also "retry")."""
        if source_ids:
            self._start(self.refresher.refresh(source_ids), "Refreshing…")

    def _refresh_on_start(self) -> None:
        if not self.refresher.is_running() and self.sources_model.rowCount():
            self.refresh_due()

    def _start(self, started: bool, text: str, importing: bool = False) -> None:
        if not started:
            self._status().showMessage("A refresh is already running.", 4000)
            return
        self._items_changed = self._feeds_checked = False
        self.refresh_started.emit()
        self.progress.begin(text, importing)
        self._name_cancel(importing, running=True)

    def use_cancel_action(self, action: QAction) -> None:
        """``action`` (Feeds → Stop Refreshing) cancels the running refresh: enabled only while one runs, and
        named "Stop Importing" during an import."""
        self._cancel_action = action
        action.triggered.connect(self.cancel)
        self._name_cancel(importing=False, running=self.refresher.is_running())

    def _name_cancel(self, importing: bool, running: bool) -> None:
        if self._cancel_action is not None:
            self._cancel_action.setText("S&top Importing" if importing else "S&top Refreshing")
            self._cancel_action.setEnabled(running)

    @Slot()
    def cancel(self) -> None:
        """Stop starting feeds; the ones in flight finish and are kept."""
        if self.refresher.is_running():
            self.progress.cancelling()
            self.refresher.cancel()

    @Slot(dict)
    def _on_feed_done(self, outcome: dict[str, object]) -> None:
        self.progress.advance(str(outcome.get("title") or outcome.get("url")))
        if outcome.get("new") or outcome.get("updated"):
            self._items_changed = True
        self._feeds_checked = True
        if not self._reload_timer.isActive():  # a throttle, not a debounce: lists follow a long refresh
            self._reload_timer.start()

    def _reload_after_feeds(self) -> None:
        self.reload_sources()
        if self._items_changed:
            self._on_library_changed(Changes(structure=True))
        elif self._feeds_checked:  # a feed failing, or fine again: the sidebar says how many fail
            self._on_library_changed(Changes(states={ItemState.FEEDS}))
        self._items_changed = self._feeds_checked = False

    @Slot(object)
    def _on_finished(self, summary: RefreshSummary) -> None:
        self.progress.hide()
        self._name_cancel(importing=False, running=False)
        self._reload_timer.stop()
        self._reload_after_feeds()
        self.refreshed.emit(summary)
        if summary.error:
            self._on_error(summary.error, "Import failed" if summary.importing else "Refresh failed")
            return
        if summary.notes and summary.importing:  # what was left out of a successful import: worth reading
            self._on_note("\n".join(summary.notes), "Notes from the import")
        # A refresh's notes are the command line's words for the feeds it left out: the window says it in its own.
        left_out = 0 if summary.importing or summary.cancelled else waiting_feeds(self._db)
        self._status().showMessage(refreshed_sentence(summary, left_out), 15000)

    # OPML -------------------------------------------------------------------------------------------

    @Slot()
    def ask_import_opml(self) -> None:
        """Choose an OPML file and import it."""
        name, _filter = QFileDialog.getOpenFileName(self._window, "Import Subscriptions", str(Path.home()),
                                                    "OPML files (*.opml *.xml);;All files (*)")
        if name:
            self.import_opml(Path(name))

    def import_opml(self, path: Path) -> None:
        """Subscribe to every feed of ``path`` and fetch them, with progress."""
        self._start(self.refresher.import_opml(path), f"Importing {path.name}…", importing=True)

    @Slot()
    def ask_export_opml(self) -> None:
        """Choose where to write the subscriptions as OPML, and write them."""
        name, _filter = QFileDialog.getSaveFileName(self._window, "Export Subscriptions",
                                                    str(Path.home() / "earmark-subscriptions.opml"),
                                                    "OPML files (*.opml)")
        if name:
            self.export_opml(Path(name))

    def export_opml(self, path: Path) -> None:
        """Write the subscriptions to ``path`` in the background."""
        self._runner.read(save_opml, path,
                          on_done=lambda count: self._status().showMessage(
                              f"Exported {counted(count, 'subscription')} to {path}.", 10000),
                          on_error=lambda message: self._on_error(message, "Export failed"))

    # Passwords --------------------------------------------------------------------------------------

    def ask_credentials(self, source_id: int) -> None:
        """Ask for a feed's user name and password, store them and refresh the feed."""
        source = get_source(self._db, source_id)
        dialog = CredentialsDialog(source.title, self._window)
        dialog.accepted.connect(lambda: self._store_credentials(source_id, dialog.user, dialog.password))
        dialog.open()

    def _store_credentials(self, source_id: int, user: str, password: str) -> None:
        def store(kept: bool) -> None:
            if not kept:
                self._status().showMessage("The feed's password was not kept: no keyring runs, and passwords are "
                                           "not kept in the library file.", 10000)
                return
            self._runner.write(set_credentials, source_id, user or None, password,
                               on_done=lambda _none: self.refresh_sources([source_id]),
                               on_error=lambda message: self._on_error(message, "The password was not kept"))

        if user:
            self.keyring.ensure(store)
        else:
            store(True)  # forgetting them needs no keyring

    def ask_unsubscribe(self, source_ids: list[int]) -> None:
        """Ask, then unsubscribe from these feeds (their episodes go, except those with notes or favourites)."""
        if not source_ids:
            self._status().showMessage("Select the feeds (or items of the feed) to unsubscribe from.", 6000)
            return
        titles = ", ".join(f"“{get_source(self._db, source_id).title}”" for source_id in source_ids)
        box = QMessageBox(QMessageBox.Icon.Question, "Unsubscribe",
                          f"Unsubscribe from {titles}? Their episodes go, except those with your notes or marked "
                          "favourite; with sync set up, your other devices unsubscribe too.", parent=self._window)
        box.setObjectName("unsubscribeQuestion")
        yes = box.addButton("&Unsubscribe", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _result: self._runner.write(
            unsubscribe_sources, source_ids, on_done=self._on_unsubscribed,
            on_error=lambda message: self._on_error(message, "Unsubscribe failed"))
            if box.clickedButton() is yes else None)
        self.unsubscribe_box = box
        box.open()

    def _on_unsubscribed(self, changes: Changes) -> None:
        self.unsubscribe_box = None
        self._on_library_changed(changes)
        self.reload_sources()

    def _on_passwords_settled(self, waiting: str | None) -> None:
        """Without a keyring, the passwords of an older version wait in the library file: say so (the question
        comes when a password is next given, not over the window as it opens)."""
        if waiting is not None:
            self._status().showMessage(waiting, 30000)

    # Data ---------------------------------------------------------------------------------------------

    def reload_sources(self) -> None:
        """Re-read the subscriptions in the background."""
        self._runner.read(read_subscriptions, on_done=self.sources_model.populate)

    def shutdown(self) -> None:
        """Stop a running refresh (what it stored stays) before the window closes."""
        self.periodic.stop()
        self._start_timer.stop()
        self._reload_timer.stop()  # a throttled reload due after the last feed must not outlive the window
        self.refresher.blockSignals(True)  # a refresh ending now must not reach the closing window
        self.refresher.shutdown()
