"""The player interface every backend implements, and the states it reports."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from urllib.parse import unquote, urlparse

from PySide6.QtCore import QObject, QTimer, Signal

from earmark.core.models import Chapter
from earmark.playback.problems import Problem, Trouble, describe


class PlayerState(StrEnum):
    """Where a player is; ``ENDED`` means the media played to its end."""

    STOPPED = "stopped"
    LOADING = "loading"
    PLAYING = "playing"
    PAUSED = "paused"
    ENDED = "ended"
    ERROR = "error"


SERVER_RETRY_DELAYS = (2.0, 5.0, 10.0)  # a server error is retried after these many seconds, then reported
MIN_RATE = 0.5
MAX_RATE = 4.0
RATE_STEP = 0.05


class Player(QObject):
    """One media player. Methods are called on the GUI thread; signals are emitted there too.

    Signals: ``state_changed(str)``, ``position_changed(float)`` (seconds, a few times a second while
    playing, after seeks and on loading), ``seeked(float)`` (after a seek, with the target),
    ``duration_changed(float)`` (0: not known yet), ``rate_changed(float)``, ``volume_changed(int, bool)``
    (percent, muted), ``buffering_changed(bool)`` (playing, but waiting for data), ``chapters_found(list)``
    (the Chapters embedded in the media), ``ended()`` (played to its very end), ``problem_reported(object)``
    (a Problem: every failure, also those the player retries by itself), ``failed(str)`` (the sentence of a
    failure that stopped playback until the user acts).

    After a failure, ``position()`` is where playback stopped, and ``play()`` (or ``retry()``) resumes there.
    """

    state_changed = Signal(str)
    position_changed = Signal(float)
    seeked = Signal(float)
    duration_changed = Signal(float)
    rate_changed = Signal(float)
    volume_changed = Signal(int, bool)
    chapters_found = Signal(list)
    buffering_changed = Signal(bool)
    ended = Signal()
    problem_reported = Signal(object)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state = PlayerState.STOPPED
        self._uri: str | None = None
        self._volume = 100
        self._muted = False
        self._fade = 1.0  # a sleep timer's fade-out scales the volume without changing it
        self._voice_boost = False
        self._title: str | None = None
        self._problem: Problem | None = None
        self._resume_at = 0.0  # where the media was loaded, then where it stopped after a failure
        self._attempts = 0  # failed loads of this media in a row (server errors retried by themselves)
        self._cued = False  # the media is chosen, paused at _resume_at, but not opened yet (cue)
        self._cued_length: float | None = None
        self.retry_delays = SERVER_RETRY_DELAYS  # tests shorten the waits
        self._retry_timer = QTimer(self)
        self._retry_timer.setSingleShot(True)
        self._retry_timer.timeout.connect(self._retry_now)

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

    @property
    def problem(self) -> Problem | None:
        """The failure that stopped the media (None once it plays)."""
        return self._problem

    def title(self) -> str:
        """What to call the media in sentences: the title given to ``load``, else its file name."""
        return self._title or display_name(self._uri)

    def load(self, uri: str, start: float = 0.0, title: str | None = None) -> None:
        """Open media (a file:// or http(s) URI) and start playing it at ``start`` seconds; ``title`` names it
        in sentences."""
        self._retry_timer.stop()
        self._attempts = 0
        self._title = title
        self._begin(uri, start)

    def cue(self, uri: str, start: float = 0.0, title: str | None = None, length: float | None = None) -> None:
        """Make ``uri`` the media, paused at ``start``, without opening it: nothing is fetched or heard until
        ``play`` opens it there (a restart brings back the last episode this way); ``length`` is shown meanwhile."""
        self.stop()
        self._title = title
        self._uri = uri
        self._resume_at = start
        self._cued, self._cued_length = True, length
        self.position_changed.emit(start)
        if length:
            self.duration_changed.emit(length)
        self._set_state(PlayerState.PAUSED)

    @property
    def cued(self) -> bool:
        """The media is cued (``cue``): paused at its place, not opened yet."""
        return self._cued

    def _play_cued(self) -> bool:
        """Open cued media at its place and play it (what every backend's ``play`` does first)."""
        if not self._cued or self._uri is None:
            return False
        self._begin(self._uri, self._resume_at)
        return True

    def _seek_cued(self, seconds: float) -> bool:
        """Move cued media's place (what every backend's ``seek`` does first)."""
        if not self._cued:
            return False
        self._resume_at = max(0.0, min(seconds, self._cued_length or seconds))
        self.position_changed.emit(self._resume_at)
        self.seeked.emit(self._resume_at)
        return True

    def retry(self) -> None:
        """Open the media again where it stopped (after a failure), or where it was loaded: the user asks, so
        a server error gets its retries again."""
        self._attempts = 0
        self._retry_now()

    def _retry_now(self) -> None:
        self._retry_timer.stop()
        if self._uri is not None:
            self._begin(self._uri, self._resume_at)

    def _begin(self, uri: str, start: float) -> None:
        self._cued = False
        self._uri = uri
        self._resume_at = start
        self._problem = None
        self.position_changed.emit(start)
        self._open(uri, start)

    def _open(self, uri: str, start: float) -> None:
        """The backend's part of ``load``."""
        raise NotImplementedError

    def report(self, kind: Trouble, detail: str = "", position: float | None = None) -> None:
        """Stop with a failure: say it once (``problem_reported``, and ``failed`` when it is final), keep where
        playback stopped, and try again by itself after a server error, a few times."""
        if position is not None:
            self._resume_at = position
            self.position_changed.emit(position)  # what the bar shows is where it stopped, as the sentence says
        retry_in = None
        if kind == Trouble.SERVER_ERROR and self._attempts < len(self.retry_delays):
            retry_in = self.retry_delays[self._attempts]
        self._attempts += 1
        sentence = describe(kind, self.title(), detail=detail, position=self._resume_at, duration=self.duration(),
                            retry_in=retry_in, attempts=self._attempts)
        self._problem = Problem(kind, sentence, self._resume_at, retry_in)
        self._set_state(PlayerState.ERROR)
        self.problem_reported.emit(self._problem)
        if retry_in is not None:
            self._retry_timer.start(int(retry_in * 1000))
        else:
            self.failed.emit(sentence)

    def refuse(self, kind: Trouble, title: str) -> None:
        """Say that an item cannot be played at all (no audio), leaving the player as it is."""
        problem = Problem(kind, describe(kind, title))
        self.problem_reported.emit(problem)
        self.failed.emit(problem.sentence)

    def play(self) -> None:
        """Resume (or start) playback of the loaded media."""
        raise NotImplementedError

    def pause(self) -> None:
        """Pause, keeping the position."""
        raise NotImplementedError

    def stop(self) -> None:
        """Stop and unload; the position is forgotten by the player (keep it first)."""
        raise NotImplementedError

    def _forget(self) -> None:
        """What every backend's ``stop`` does: no media, no failure pending, no retry."""
        self._retry_timer.stop()
        self._uri = None
        self._problem = None
        self._cued = False

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

    def media_chapters(self) -> list[Chapter]:
        """The chapters embedded in the loaded media (empty when it has none or is not playing yet)."""
        return []

    def _apply_volume(self) -> None:
        """Hand the effective volume (volume × fade, or 0 when muted) to the backend."""

    def _apply_voice_boost(self) -> None:
        """Hand the voice boost switch to the backend."""

    def shutdown(self) -> None:
        """Release the backend's resources (the player is unusable afterwards)."""
        self.stop()

    def volume(self) -> int:
        """The volume in percent (0–100), whether or not muted."""
        return self._volume

    def muted(self) -> bool:
        """Whether the sound is off."""
        return self._muted

    def set_volume(self, percent: int) -> None:
        """Set the volume (clamped to 0–100)."""
        self._volume = max(0, min(100, int(percent)))
        self._apply_volume()
        self.volume_changed.emit(self._volume, self._muted)

    def set_muted(self, muted: bool) -> None:
        """Turn the sound off or on again."""
        self._muted = muted
        self._apply_volume()
        self.volume_changed.emit(self._volume, self._muted)

    def set_fade(self, factor: float) -> None:
        """Scale the volume by ``factor`` (0–1) for a fade-out; 1 restores it."""
        self._fade = max(0.0, min(1.0, factor))
        self._apply_volume()

    def effective_volume(self) -> int:
        """What the listener hears, in percent: 0 when muted, the volume scaled by a fade otherwise."""
        return 0 if self._muted else round(self._volume * self._fade)

    def buffering(self) -> bool:
        """Whether playback waits for data (a stream slower than the audio)."""
        return False

    def voice_boost(self) -> bool:
        """Whether the voice boost filter is on."""
        return self._voice_boost

    def set_voice_boost(self, on: bool) -> None:
        """Turn the voice boost (louder, clearer speech) on or off; applies at once."""
        self._voice_boost = on
        self._apply_voice_boost()

    def toggle(self) -> None:
        """Pause when playing (or about to: loading), play otherwise."""
        if self._state in (PlayerState.PLAYING, PlayerState.LOADING):
            self.pause()
        elif self._uri is not None:
            self.play()

    def skip(self, delta: float) -> None:
        """Seek relative to the current position."""
        if self._uri is not None:
            self.seek(max(0.0, self.position() + delta))

    def change_rate(self, steps: int) -> None:
        """Speed up (or with negative ``steps``, slow down) by 0.05× steps."""
        self.set_rate(self.rate() + steps * RATE_STEP)


def clamp_rate(rate: float) -> float:
    """A speed within the supported range, rounded to the 0.05 steps the UI offers."""
    return round(min(MAX_RATE, max(MIN_RATE, rate)) * 20) / 20


def display_name(uri: str | None) -> str:
    """A media's file name, for sentences when it has no title."""
    if not uri:
        return "The media"
    name = unquote(urlparse(uri).path.rsplit("/", 1)[-1])
    return name or uri


def missing_local_file(uri: str) -> str | None:
    """The path of a local media file that does not exist (None for web URLs and present files)."""
    parsed = urlparse(uri)
    if parsed.scheme not in ("", "file"):
        return None
    path = Path(unquote(parsed.path)) if parsed.scheme else Path(uri)
    return None if path.is_file() else str(path)
