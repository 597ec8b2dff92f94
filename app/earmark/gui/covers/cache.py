"""The window's one cover cache: views ask it for a cover at the size they show and get the cover when it is in
memory, else a placeholder while a worker reads the cached file (or fetches the image, once, and records what
came of it); ``changed`` then says which image address to paint again. Nothing here blocks the UI thread."""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QIcon, QImage, QPixmap

from earmark.core.db.covers import cover_state, record_covers
from earmark.core.db.database import Database
from earmark.core.images.fetch import CoverState, fetch_cover
from earmark.core.images.paths import cached_file
from earmark.gui.covers.placeholder import placeholder
from earmark.gui.tasks import TaskRunner
from earmark.gui.theme import is_dark

log = logging.getLogger(__name__)
K = TypeVar("K")
MAX_COVER_BYTES = 20 * 2**20  # covers kept in memory, least recently shown out first (a list's 22 px one: 2 KB)
MAX_PLACEHOLDER_BYTES = 4 * 2**20
MAX_FETCHES = 2  # images fetched at once: feeds and downloads keep the rest of the pool


class CoverCache(QObject):
    """Covers by image address and size. ``folder`` is the cover cache (the user's, by default); with
    ``fetch`` off only covers already cached are shown (a library opened read-only fetches nothing).
    Signal: ``changed(str)`` with the address whose cover arrived or changed."""

    changed = Signal(str)
    _read = Signal(str, int, object)  # from the disk readers: address, size, the QImage or None

    def __init__(self, runner: TaskRunner, parent: QObject | None = None, *, folder: Path | None = None,
                 fetch: bool = True) -> None:
        super().__init__(parent)
        self._runner = runner
        self._folder = folder
        self._fetch = fetch
        self._pixmaps: OrderedDict[tuple[str, int], QPixmap] = OrderedDict()
        self._placeholders: OrderedDict[tuple[str, int, bool], QPixmap] = OrderedDict()
        self._held = [0, 0]  # bytes of the covers and of the placeholders in memory
        self._loading: set[tuple[str, int]] = set()
        self._waiting: dict[str, set[int]] = {}  # sizes asked for while the image is fetched
        self._queue: deque[str] = deque()
        self._fetching = 0
        self._without: set[str] = set()  # addresses that give no cover (refused, unreachable) this session
        self._revalidating: set[str] = set()
        # Files are read by threads of their own: the runner's pool can be busy for seconds at start-up.
        self._disk = ThreadPoolExecutor(max_workers=2, thread_name_prefix="earmark-covers")
        self._read.connect(self._on_read)
        self.destroyed.connect(lambda: self._disk.shutdown(wait=False, cancel_futures=True))

    def pixmap(self, url: str | None, title: str, pixels: int) -> QPixmap:
        """The cover of ``url`` ``pixels`` wide (logical pixels), or the placeholder of ``title`` for now."""
        ratio = _ratio()
        size = round(pixels * ratio)
        if url:
            found = self._pixmaps.get((url, size))
            if found is not None:
                self._pixmaps.move_to_end((url, size))
                return found
            if url not in self._without:
                self._load(url, size)
        key = (title, size, is_dark())
        shown = self._placeholders.get(key)
        if shown is None:
            shown = self._placeholders[key] = QPixmap.fromImage(placeholder(*key))
            shown.setDevicePixelRatio(ratio)
            self._held[1] += _bytes(shown)
            _trim(self._placeholders, self._held, 1, MAX_PLACEHOLDER_BYTES)
        self._placeholders.move_to_end(key)
        return shown

    def icon(self, url: str | None, title: str, pixels: int) -> QIcon:
        """``pixmap`` as an icon."""
        return QIcon(self.pixmap(url, title, pixels))

    def largest(self, url: str | None) -> QPixmap | None:
        """The largest cover of ``url`` in memory, None when none is (a notification's icon)."""
        sizes = [key[1] for key in self._pixmaps if key[0] == url]
        return self._pixmaps[(str(url), max(sizes))] if sizes else None

    def has(self, url: str | None, pixels: int) -> bool:
        """Whether the cover of ``url`` at this size is in memory (else ``pixmap`` gives a placeholder)."""
        return bool(url) and (url, round(pixels * _ratio())) in self._pixmaps

    def revalidate(self, urls: list[str]) -> None:
        """Ask the servers again whether these images changed (conditional GET), as a refresh does."""
        if not self._fetch:
            return
        for url in urls:
            self._without.discard(url)
            self._revalidating.add(url)
            self._waiting.setdefault(url, set())
            if url not in self._queue:
                self._queue.append(url)
        self._next_fetch()

    # Loading -----------------------------------------------------------------------------------------------

    def _load(self, url: str, size: int) -> None:
        if (url, size) in self._loading or url in self._waiting:
            if url in self._waiting:
                self._waiting[url].add(size)
            return
        self._loading.add((url, size))
        self._disk.submit(self._read_in_thread, url, size)

    def _read_in_thread(self, url: str, size: int) -> None:
        try:
            image = read_cover(url, size, self._folder)
        except Exception:  # a bug: logged, and the placeholder stays
            log.exception("Reading the cover of %s failed", url)
            image = None
        self._read.emit(url, size, image)

    def _on_read(self, url: str, size: int, image: QImage | None) -> None:
        self._loading.discard((url, size))
        if image is not None:
            self._keep(url, size, image)
            self.changed.emit(url)
        elif self._fetch and url not in self._without:
            self._waiting.setdefault(url, set()).add(size)
            if url not in self._queue:
                self._queue.append(url)
            self._next_fetch()
        else:
            self._without.add(url)

    def _keep(self, url: str, size: int, image: QImage) -> None:
        pixmap = QPixmap.fromImage(image)
        pixmap.setDevicePixelRatio(size / max(1, image.width()) * _ratio() if image.width() != size else _ratio())
        old = self._pixmaps.pop((url, size), None)
        self._held[0] += _bytes(pixmap) - (_bytes(old) if old is not None else 0)
        self._pixmaps[(url, size)] = pixmap
        _trim(self._pixmaps, self._held, 0, MAX_COVER_BYTES)

    def _next_fetch(self) -> None:
        while self._queue and self._fetching < MAX_FETCHES:
            url = self._queue.popleft()
            self._fetching += 1
            self._runner.read(fetch_if_needed, url, url in self._revalidating, self._folder,
                              on_done=partial(self._fetched, url), on_error=partial(self._not_fetched, url))

    def _not_fetched(self, url: str, _message: str) -> None:
        self._fetched(url, None)

    def _fetched(self, url: str, state: CoverState | None) -> None:
        self._fetching -= 1
        self._revalidating.discard(url)
        sizes = self._waiting.pop(url, set())
        if state is not None:
            self._runner.write(record_covers, [state])
        if state is not None and state.file and state.problem is None:  # new, changed or the same: read again
            for key in [key for key in self._pixmaps if key[0] == url]:
                sizes.add(key[1])
                self._held[0] -= _bytes(self._pixmaps.pop(key))
            for size in sizes:
                self._load(url, size)
        elif not any(key[0] == url for key in self._pixmaps):
            self._without.add(url)
        self._next_fetch()


def fetch_if_needed(db: Database, url: str, revalidate: bool, folder: Path | None) -> CoverState | None:
    """Fetch the image at ``url`` unless the library says it was refused before (a refresh, ``revalidate``,
    asks again; conditionally when its file is cached). The new state, None when nothing was fetched. Network
    work: in a worker."""
    state = cover_state(db, url)
    if state.problem and not revalidate:
        return None
    if state.file and cached_file(url, folder=folder) is None:  # the cache was emptied: fetch it whole
        state = CoverState(url)
    return fetch_cover(state, folder)


def read_cover(url: str, size: int, folder: Path | None) -> QImage | None:
    """The cached cover of ``url`` scaled to ``size`` device pixels, None when it is not cached (in a worker: a
    QImage, unlike a QPixmap, may be made off the UI thread)."""
    path = cached_file(url, size, folder)
    if path is None:
        return None
    image = QImage(str(path))
    if image.isNull():
        return None
    if image.width() != size:
        image = image.scaled(size, size, Qt.AspectRatioMode.IgnoreAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    return image


def _bytes(pixmap: QPixmap) -> int:
    return pixmap.width() * pixmap.height() * 4


def _trim(held: OrderedDict[K, QPixmap], counts: list[int], slot: int, budget: int) -> None:
    """Drop the least recently shown pixmaps until ``held`` fits its ``budget`` (``counts[slot]`` its bytes)."""
    while counts[slot] > budget and len(held) > 1:
        counts[slot] -= _bytes(held.popitem(last=False)[1])


def _ratio() -> float:
    app = QGuiApplication.instance()
    return float(app.devicePixelRatio()) if isinstance(app, QGuiApplication) else 1.0
