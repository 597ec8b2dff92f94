"""A backend that plays nothing but keeps time like a real player: for tests and machines without VLC."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QObject, QTimer, Slot

from earmark.core.models import Chapter
from earmark.playback.player import Player, PlayerState, clamp_rate, missing_local_file
from earmark.playback.problems import Trouble

TICK_MS = 100


class NullPlayer(Player):
    """Simulates playback; ``lengths`` maps a URI to its length in seconds (else ``default_length``),
    ``chapters`` a URI to the chapters its media embeds."""

    def __init__(self, default_length: float = 600.0, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.lengths: dict[str, float] = {}
        self.chapters: dict[str, list[Chapter]] = {}
        self._default_length = default_length
        self._base = 0.0  # position when the clock last started
        self._clock = QElapsedTimer()
        self._rate = 1.0
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._on_tick)

    def _length(self) -> float:
        return self.lengths.get(self._uri or "", self._default_length)

    def _open(self, uri: str, start: float = 0.0) -> None:
        self._tick.stop()
        self._base = max(0.0, start)
        missing = missing_local_file(uri)
        if missing:
            self.report(Trouble.MISSING, missing)
            return
        self._base = min(max(0.0, start), self._length())
        self._set_state(PlayerState.LOADING)
        self.duration_changed.emit(self._length())
        self._start_clock()
        if self.media_chapters():
            self.chapters_found.emit(self.media_chapters())

    def _start_clock(self) -> None:
        self._clock.start()
        self._tick.start()
        self._set_state(PlayerState.PLAYING)

    def _stop_clock(self) -> None:
        self._base = self.position()
        self._tick.stop()

    @Slot()
    def _on_tick(self) -> None:
        position = self.position()
        self.position_changed.emit(position)
        if position >= self._length():
            self._stop_clock()
            self._set_state(PlayerState.ENDED)
            self.ended.emit()

    def play(self) -> None:
        if self._uri is None or self._state == PlayerState.PLAYING or self._play_cued():
            return
        if self._state == PlayerState.ERROR:
            self.retry()
            return
        if self._state == PlayerState.ENDED:
            self._base = 0.0
        self._start_clock()

    def pause(self) -> None:
        if self._state == PlayerState.PLAYING:
            self._stop_clock()
            self.position_changed.emit(self._base)
            self._set_state(PlayerState.PAUSED)

    def stop(self) -> None:
        self._stop_clock()
        self._forget()
        self._base = 0.0
        self._set_state(PlayerState.STOPPED)

    def seek(self, seconds: float) -> None:
        if self._uri is None or self._seek_cued(seconds):
            return
        self._base = min(max(0.0, seconds), self._length())
        if self._state == PlayerState.PLAYING:
            self._clock.start()
        self.position_changed.emit(self._base)
        self.seeked.emit(self._base)

    def position(self) -> float:
        if self._cued:
            return self._resume_at
        if self._state != PlayerState.PLAYING:
            return self._base
        return min(self._length(), self._base + self._clock.elapsed() / 1000.0 * self._rate)

    def duration(self) -> float | None:
        return self._length() if self._uri else None

    def set_rate(self, rate: float) -> None:
        if self._state == PlayerState.PLAYING:
            self._base = self.position()
            self._clock.start()
        self._rate = clamp_rate(rate)
        self.rate_changed.emit(self._rate)

    def rate(self) -> float:
        return self._rate

    def media_chapters(self) -> list[Chapter]:
        return list(self.chapters.get(self._uri or "", []))
