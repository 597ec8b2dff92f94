"""Episode downloads in background threads, with progress, pause/resume, retries and clean-up."""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from earmark.core.db.database import Database
from earmark.core.db.downloads import (
    add_download,
    delete_played_downloads,
    disk_usage,
    get_download,
    new_episode_ids,
    pending_downloads,
    remove_download,
    update_download,
)
from earmark.core.db.podcast_prefs import auto_download_sources
from earmark.core.downloads.transfer import RETRY_DELAYS, DownloadCancelled, Expected, download, part_path
from earmark.core.errors import EarmarkError
from earmark.core.models import Download
from earmark.core.settings import downloads_folder, get_setting
from earmark.gui.tasks import TaskRunner

log = logging.getLogger(__name__)
WORKERS = 2  # downloads at once
PROGRESS_EVERY = 0.25  # seconds between progress signals of one download


class DownloadManager(QObject):
    """Starts, pauses, resumes and deletes downloads. Transfers run in its own threads (never the library
    pool, which they would hold for minutes); records are written by the runner's writer.

    Signals: ``progressed(int, int, object)`` (item id, bytes received, total or None), ``changed(int)`` when
    a download's record changed, ``failed(int, str)`` with the sentence to show, ``usage_changed(int)`` with
    the bytes downloads take on disk.
    """

    progressed = Signal(int, int, object)
    changed = Signal(int)
    failed = Signal(int, str)
    usage_changed = Signal(int)
    _ended = Signal(int, object)  # item id, None when complete, else the exception

    def __init__(self, runner: TaskRunner, db: Database, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._db = db
        self._pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="earmark-download")
        self._stops: dict[int, threading.Event] = {}
        self.titles: dict[int, str] = {}  # the episodes transferred (or transferred this session), by item id
        self._ended.connect(self._on_ended)
        self._closing = False
        self.retry_delays: tuple[float, ...] | None = None  # tests shorten the waits between retries

    def start(self) -> None:
        """Resume the downloads left unfinished, and delete old played ones (on start-up)."""
        days = int(get_setting(self._db, "downloads.delete_played_after"))  # type: ignore[call-overload]
        self._runner.write(delete_played_downloads, days, on_done=lambda _ids: self.report_usage())
        self._runner.read(pending_downloads, on_done=self._transfer_all)

    def active(self) -> set[int]:
        """Items whose download is running."""
        return set(self._stops)

    def download(self, item_ids: list[int]) -> None:
        """Download these episodes (queued again when paused or failed; ignored when done or running)."""
        folder = downloads_folder(self._db)
        for item_id in item_ids:
            if item_id not in self._stops:
                self._runner.write(add_download, item_id, folder, on_done=self._transfer,
                                   on_error=partial(self.failed.emit, item_id))

    def toggle_pause(self, item_id: int) -> None:
        """Pause a running download, or resume a paused one."""
        stop = self._stops.get(item_id)
        if stop is not None:
            stop.set()
        else:
            self.download([item_id])

    def delete(self, item_ids: list[int]) -> None:
        """Stop and forget downloads, deleting their files."""
        for item_id in item_ids:
            stop = self._stops.pop(item_id, None)
            if stop is not None:
                stop.set()
            self._runner.write(remove_download, item_id, on_done=partial(self._changed_after, item_id))

    def auto_download(self, source_id: int, after_id: int) -> None:
        """After a refresh brought new episodes of ``source_id``: download those stored after item ``after_id``
        when the podcast has auto-download on."""
        def new_ids(db: Database) -> list[int]:
            return new_episode_ids(db, source_id, after_id) if source_id in auto_download_sources(db) else []

        self._runner.read(new_ids, on_done=self.download)

    def report_usage(self) -> None:
        """Measure the disk usage in the background and emit ``usage_changed``."""
        self._runner.read(disk_usage, on_done=self.usage_changed.emit)

    def _transfer_all(self, records: list[Download]) -> None:
        for record in records:
            self._transfer(record)

    def _transfer(self, record: Download) -> None:
        if record.status == "done" or record.item_id in self._stops:
            return
        stop = threading.Event()
        self._stops[record.item_id] = stop
        self.titles[record.item_id] = record.title or "an episode"
        retries = int(get_setting(self._db, "downloads.retries"))  # type: ignore[call-overload]
        self._runner.write(update_download, record.item_id, "downloading",
                           on_done=lambda _none: self.changed.emit(record.item_id))
        self._pool.submit(self._run, record, stop, retries)

    def _run(self, record: Download, stop: threading.Event, retries: int) -> None:
        """Worker thread: transfer, report progress by signal, never touch the library or widgets."""
        last = 0.0

        def progress(received: int, total: int | None) -> None:
            nonlocal last
            if time.monotonic() - last >= PROGRESS_EVERY or received == total:
                last = time.monotonic()
                self.progressed.emit(record.item_id, received, total)

        try:
            download(record.url, Path(record.path), progress=progress, stop=stop, retries=retries,
                     delays=RETRY_DELAYS if self.retry_delays is None else self.retry_delays, name=record.title,
                     expected=Expected(record.content_type, record.enclosure_length))
            self._ended.emit(record.item_id, None)
        except Exception as exc:  # every failure is reported on the GUI thread (a bug is also logged there)
            self._ended.emit(record.item_id, exc)

    @Slot(int, object)
    def _on_ended(self, item_id: int, error: BaseException | None) -> None:
        if self._closing:
            return  # the record still says "downloading": it resumes on the next start
        if self._stops.pop(item_id, None) is None and isinstance(error, DownloadCancelled):
            return  # deleted while running: the record is gone
        record = get_download(self._db, item_id)
        path = Path(record.path) if record else None
        received = part_path(path).stat().st_size if path and part_path(path).exists() else None
        if error is None:
            size = path.stat().st_size if path and path.exists() else None
            self._record(item_id, "done", received=size, size=size)
        elif isinstance(error, DownloadCancelled):
            self._record(item_id, "paused", received=received)
        else:
            if not isinstance(error, EarmarkError):
                log.error("Download failed", exc_info=error)
            message = str(error) if isinstance(error, EarmarkError) else f"The download failed: {error!r}."
            self._record(item_id, "failed", received=received, error=message)
            self.failed.emit(item_id, message)

    def _record(self, item_id: int, status: str, received: int | None = None, size: int | None = None,
                error: str | None = None) -> None:
        self._runner.write(partial(update_download, item_id=item_id, status=status, received=received, size=size,
                                   error=error),
                           on_done=lambda _none: self._changed(item_id))

    def _changed_after(self, item_id: int, _result: object) -> None:
        self._changed(item_id)

    def _changed(self, item_id: int) -> None:
        self.changed.emit(item_id)
        self.report_usage()

    def shutdown(self) -> None:
        """Stop every transfer (partial files stay; they resume on the next start) and wait for the threads."""
        self._closing = True
        for stop in self._stops.values():
            stop.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
