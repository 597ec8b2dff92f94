"""Skipping silence while playing: when the position enters a part of a silent span the podcast's level skips,
the player jumps to that part's end. Between the player's position reports (a few a second), a timer set for
when the next part begins makes the jump on time. The jumps land in silence and leave from silence (each level
keeps a short pause at both sides), so they make no click. The media seconds skipped are counted for the
statistics."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QObject, QTimer, Slot

from earmark.core.audio.silence import Span, jump_target
from earmark.playback.player import Player, PlayerState

LOOKAHEAD_SECONDS = 0.5  # a part beginning within this much listening time gets a timer
LANDING_MS = 1500  # after a jump, positions before its target are VLC's stale clock for this long at most


class SilenceSkipper(QObject):
    """Jumps over ``skips`` (the parts of silent spans to skip, in order) on ``player``."""

    def __init__(self, player: Player, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._player = player
        self._skips: list[Span] = []
        self._saved = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._check)
        self._landing: float | None = None  # where the last jump went, until the player reports being there
        self._since_jump = QElapsedTimer()
        player.position_changed.connect(self._on_position)

    @property
    def skips(self) -> list[Span]:
        """The parts skipped in the media playing."""
        return self._skips

    def set_skips(self, skips: list[Span]) -> None:
        """Skip these parts from now on (an empty list: skip nothing)."""
        self._skips = sorted(skips)
        self._timer.stop()
        self._landing = None

    def take_saved(self) -> float:
        """The media seconds skipped since the last call."""
        saved, self._saved = self._saved, 0.0
        return saved

    @Slot()
    def _check(self) -> None:
        self._on_position(self._player.position())

    @Slot(float)
    def _on_position(self, position: float) -> None:
        if not self._skips or self._player.state != PlayerState.PLAYING:
            self._timer.stop()
            return
        if self._landing is not None:
            if position < self._landing - 0.05 and self._since_jump.elapsed() < LANDING_MS:
                return  # VLC still reports where it was before the jump: not a second jump, nor saved twice
            self._landing = None
        target = jump_target(self._skips, position)
        if target is not None:
            self._timer.stop()
            self._saved += target - position
            self._player.seek(target)  # reports the target at once: the landing is watched after that
            self._landing = target
            self._since_jump.start()
            return
        upcoming = next((start for start, _end in self._skips if start > position), None)
        rate = self._player.rate() or 1.0
        if upcoming is not None and (upcoming - position) / rate <= LOOKAHEAD_SECONDS:
            self._timer.start(max(0, int((upcoming - position) / rate * 1000)))
