"""The player interface every backend implements, and the states it reports."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from urllib.parse import unquote, urlparse

from PySide6.QtCore import QObject, Signal


class PlayerState(StrEnum):
    """Where a player is; ``ENDED`` means the media played to its end."""

    STOPPED = "stopped"
    LOADING = "loading"
    PLAYING = "playing"
    PAUSED = "paused"
    ENDED = "ended"
    ERROR = "error"


MIN_RATE = 0.5
MAX_RATE = 4.0


class Player(QObject):
    """One media player. Methods are called on the GUI thread; signals are emitted there too.

    Signals: ``state_changed(str)``, ``position_changed(float)`` (seconds, a few times a second while
    playing and after seeks), ``duration_changed(float)``, ``ended()``, ``failed(str)`` (a plain sentence).
    """

    state_changed = Signal(str)
    position_changed = Signal(float)
    duration_changed = Signal(float)
    ended = Signal()
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state = PlayerState.STOPPED
        self._uri: str | None = None

    @property
    def state(self) -> PlayerState:
        """The current state."""
        return self._state

    @property
    def uri(self) -> str | None:
        """The media loaded, if any."""
        return self._uri

    def _set_state(self, state: PlayerState) -> None:
        if state != self._state:
            self._state = state
            self.state_changed.emit(str(state))

    def _fail(self, message: str) -> None:
        self._set_state(PlayerState.ERROR)
        self.failed.emit(message)

    def load(self, uri: str, start: float = 0.0) -> None:
        """Open media (a file:// or http(s) URI) and start playing it at ``start`` seconds."""
        raise NotImplementedError

    def play(self) -> None:
        """Resume (or start) playback of the loaded media."""
        raise NotImplementedError

    def pause(self) -> None:
        """Pause, keeping the position."""
        raise NotImplementedError

    def stop(self) -> None:
        """Stop and unload; the position is forgotten by the player (keep it first)."""
        raise NotImplementedError

    def seek(self, seconds: float) -> None:
        """Jump to ``seconds`` from the start (clamped to the media)."""
        raise NotImplementedError

    def position(self) -> float:
        """Seconds from the start."""
        raise NotImplementedError

    def duration(self) -> float | None:
        """Length in seconds once known."""
        raise NotImplementedError

    def set_rate(self, rate: float) -> None:
        """Playback speed, 0.5× to 4×."""
        raise NotImplementedError

    def rate(self) -> float:
        """The playback speed."""
        raise NotImplementedError

    def shutdown(self) -> None:
        """Release the backend's resources (the player is unusable afterwards)."""
        self.stop()

    def toggle(self) -> None:
        """Pause when playing, play otherwise."""
        if self._state == PlayerState.PLAYING:
            self.pause()
        elif self._uri is not None:
            self.play()

    def skip(self, delta: float) -> None:
        """Seek relative to the current position."""
        if self._uri is not None:
            self.seek(max(0.0, self.position() + delta))


def clamp_rate(rate: float) -> float:
    """A speed within the supported range, rounded to the 0.05 steps the UI offers."""
    return round(min(MAX_RATE, max(MIN_RATE, rate)) * 20) / 20


def missing_local_file(uri: str) -> str | None:
    """The path of a local media file that does not exist (None for web URLs and present files)."""
    parsed = urlparse(uri)
    if parsed.scheme not in ("", "file"):
        return None
    path = Path(unquote(parsed.path)) if parsed.scheme else Path(uri)
    return None if path.is_file() else str(path)
