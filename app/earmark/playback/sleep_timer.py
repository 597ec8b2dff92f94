"""The sleep timer: pause after N minutes, or at the end of the episode or chapter, fading the sound out."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QDeadlineTimer, QObject, QTimer, Signal, Slot

from earmark.playback.player import PlayerState
from earmark.playback.progress import PlaybackSession

FADE_SECONDS = 10.0
TICK_MS = 250


class SleepMode(StrEnum):
    """What the timer waits for."""

    OFF = "off"
    MINUTES = "minutes"
    END_OF_EPISODE = "episode"
    END_OF_CHAPTER = "chapter"


class SleepTimer(QObject):
    """Pauses the session's player when the chosen moment comes, after lowering the volume over the last
    ``fade`` seconds (the volume is restored once paused).

    Signals: ``changed(str)`` with a description of the timer ("" when off), ``fired()`` when it paused.
    """

    changed = Signal(str)
    fired = Signal()

    def __init__(self, session: PlaybackSession, fade: float = FADE_SECONDS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._fade = fade
        self.mode = SleepMode.OFF
        self._deadline = QDeadlineTimer()
        self._chapter_end: float | None = None
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._on_tick)

    @property
    def active(self) -> bool:
        """Whether the timer is set."""
        return self.mode != SleepMode.OFF

    def start_minutes(self, minutes: float) -> None:
        """Pause after ``minutes`` of wall time."""
        self._deadline = QDeadlineTimer(int(minutes * 60_000))
        self._start(SleepMode.MINUTES, f"Sleep in {minutes:g} min")

    def at_end_of_episode(self) -> None:
        """Stop at the end of this episode (nothing plays after it)."""
        self._start(SleepMode.END_OF_EPISODE, "Sleep at the end of the episode")

    def at_end_of_chapter(self) -> None:
        """Pause where the next chapter starts (the end of the episode in its last chapter)."""
        chapters, index = self._session.chapters, self._session.chapter
        self._chapter_end = chapters[index + 1].start if 0 <= index < len(chapters) - 1 else None
        self._start(SleepMode.END_OF_CHAPTER, "Sleep at the end of the chapter")

    def cancel(self) -> None:
        """Turn the timer off and restore the volume."""
        self._tick.stop()
        self.mode = SleepMode.OFF
        self._session.player.set_fade(1.0)
        self.changed.emit("")

    def _start(self, mode: SleepMode, text: str) -> None:
        self.mode = mode
        self._tick.start()
        self.changed.emit(text)

    def _seconds_left(self) -> float | None:
        player = self._session.player
        if self.mode == SleepMode.MINUTES:
            return self._deadline.remainingTime() / 1000.0
        end = self._chapter_end if self.mode == SleepMode.END_OF_CHAPTER else None
        end = end if end is not None else player.duration()
        if end is None:
            return None
        return (end - player.position()) / max(player.rate(), 0.01)

    @Slot()
    def _on_tick(self) -> None:
        player = self._session.player
        left = self._seconds_left()
        if left is None or player.state != PlayerState.PLAYING:
            return
        if left <= 0:
            self._fire()
        elif left < self._fade:
            player.set_fade(left / self._fade)
        if self.mode == SleepMode.MINUTES:
            self.changed.emit(f"Sleep in {int(left // 60)}:{int(left % 60):02d}")

    def _fire(self) -> None:
        self._session.player.pause()
        self.cancel()
        self.fired.emit()

    def ends_here(self) -> bool:
        """Called when an episode finished: True (and the timer is done) when the timer was waiting for that
        end, so nothing else may start playing."""
        if self.mode not in (SleepMode.END_OF_EPISODE, SleepMode.END_OF_CHAPTER):
            return False
        self.cancel()
        self.fired.emit()
        return True
