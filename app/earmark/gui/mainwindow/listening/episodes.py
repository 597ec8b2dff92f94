"""The window's episode commands: mark played/unplayed, downloads (with progress and disk usage in the status
bar), and a podcast's playback settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QLabel, QMainWindow

from earmark.core.db.database import Database
from earmark.core.db.downloads import newest_item_id
from earmark.core.db.podcast_prefs import get_prefs
from earmark.core.db.sources import get_source
from earmark.core.downloads.failures import size_text
from earmark.core.models import Changes, ItemState, PodcastPrefs
from earmark.core.settings import get_setting
from earmark.gui.downloads import DownloadManager
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.operations.playback import store_played, store_prefs
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.podcast_settings import PodcastSettingsDialog
from earmark.playback.progress import PlaybackSession

MEGABYTE = 1024 * 1024


class EpisodeController(QObject):
    """Runs the Episode menu on the items ``selected()`` returns (ids) and the podcast ``selected_source()``
    names; owns the DownloadManager."""

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database, session: PlaybackSession,
                 actions: Actions, selected: Callable[[], list[int]], selected_source: Callable[[], int | None],
                 on_changes: Callable[[Changes], None]) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._session = session
        self._selected = selected
        self._selected_source = selected_source
        self._on_changes = on_changes
        self.downloads = DownloadManager(runner, db, self)
        self._items_before_refresh = newest_item_id(db)
        self.usage = QLabel()
        self.usage.setObjectName("downloadUsage")
        window.statusBar().addPermanentWidget(self.usage)
        self.downloads.usage_changed.connect(self._show_usage)
        self.downloads.progressed.connect(self._show_progress)
        self.downloads.changed.connect(lambda item_id: on_changes(Changes(items={item_id},
                                                                          states={ItemState.DOWNLOADS})))
        self.downloads.failed.connect(lambda _item, message: window.statusBar().showMessage(message, 15000))
        a = actions
        a.mark_played.triggered.connect(lambda: self.mark(True))
        a.mark_unplayed.triggered.connect(lambda: self.mark(False))
        a.download.triggered.connect(lambda: self.downloads.download(self._selected()))
        a.pause_download.triggered.connect(self._toggle_pause)
        a.delete_download.triggered.connect(lambda: self.downloads.delete(self._selected()))
        a.podcast_settings.triggered.connect(self.edit_podcast_settings)
        if not runner.read_only:  # resuming downloads would fetch files whose records cannot be kept
            self.downloads.start()

    def refresh_started(self) -> None:
        """A refresh process was just started (it stores nothing before its interpreter is up): the items it
        brings are those after the newest one now."""
        self._items_before_refresh = newest_item_id(self._db)

    def feed_refreshed(self, outcome: dict[str, object]) -> None:
        """A feed of the refresh is in: download its new episodes when its podcast asks for that."""
        source_id = outcome.get("source_id")
        if outcome.get("new") and isinstance(source_id, int):
            self.downloads.auto_download(source_id, self._items_before_refresh)

    def mark(self, played: bool) -> None:
        """Mark the selected items played or unplayed."""
        ids = self._selected()
        if ids:
            playing = self._session.item
            if playing is not None and playing.id in ids:
                playing.played = played
            self._runner.write(store_played, ids, played, on_done=self._on_changes)

    def _toggle_pause(self) -> None:
        for item_id in self._selected():
            self.downloads.toggle_pause(item_id)

    @Slot(int, int, object)
    def _show_progress(self, item_id: int, received: int, total: int | None) -> None:
        title = self.downloads.titles.get(item_id, "an episode")
        share = f"{received * 100 // total}% of {size_text(total)}" if total else f"{size_text(received)} so far"
        self._window.statusBar().showMessage(f"Downloading “{title}”: {share}", 3000)

    @Slot(int)
    def _show_usage(self, size: int) -> None:
        self.usage.setText(f"Downloads: {size / MEGABYTE:.1f} MB" if size else "")

    def edit_podcast_settings(self) -> None:
        """Edit the selected podcast's playback settings (applied at once when it is playing)."""
        source_id = self._selected_source()
        if source_id is None:
            self._window.statusBar().showMessage("Select a podcast (or one of its episodes) first.", 6000)
            return
        source = get_source(self._db, source_id)
        if source.kind != "podcast":
            self._window.statusBar().showMessage(
                f"“{source.title}” is a site of articles: playback settings are a podcast's.", 6000)
            return
        playing = self._session.item
        prefs = (replace(self._session.prefs) if playing is not None and playing.source_id == source_id
                 else get_prefs(self._db, source_id))  # the playing podcast's, as changed a moment ago
        dialog = PodcastSettingsDialog(source.title, prefs, self._default_speed(), self._window)
        dialog.accepted.connect(lambda: self._store_prefs(source_id, dialog.prefs))
        dialog.open()

    def _store_prefs(self, source_id: int, prefs: PodcastPrefs) -> None:
        self._runner.write(store_prefs, source_id, replace(prefs))
        item = self._session.item
        if item is not None and item.source_id == source_id:
            current = self._session.prefs
            current.skip_intro, current.skip_outro = prefs.skip_intro, prefs.skip_outro
            current.speed, current.auto_download = prefs.speed, prefs.auto_download
            current.voice_boost = prefs.voice_boost
            self._session.player.set_voice_boost(prefs.voice_boost)
            if prefs.skip_silence != current.skip_silence:
                self._session.set_skip_silence(prefs.skip_silence)
            self._session.player.set_rate(prefs.speed if prefs.speed is not None else self._default_speed())

    def _default_speed(self) -> float:
        return float(get_setting(self._db, "playback.speed"))  # type: ignore[arg-type]
