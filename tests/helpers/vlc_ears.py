"""Hearing what VLC plays: its audio through libVLC's memory output instead of a sound card, as the peak
level of every buffer, to prove that volume, mute and fades reach VLC (the dummy output ignores volume, and
``audio_get_volume`` reports nothing without a real one)."""

from __future__ import annotations

import array
import ctypes
import threading
import time

import vlc

from earmark.playback.vlc_player import VlcPlayer

RATE = 8000


class Ears:
    """Listens to ``player``'s VLC: ``heard`` holds (monotonic time, peak sample) for every buffer played."""

    def __init__(self, player: VlcPlayer) -> None:
        player.start_engine()
        self.heard: list[tuple[float, int]] = []
        self.power: list[tuple[float, float, int]] = []  # (time, mean square sample, samples) of every buffer
        self._lock = threading.Lock()

        @vlc.CallbackDecorators.AudioPlayCb
        def play(_data: object, samples: int, count: int, _pts: int) -> None:  # on VLC's thread
            buffer = array.array("h", ctypes.string_at(samples, count * 2))
            power = sum(sample * sample for sample in buffer) / max(1, len(buffer))
            with self._lock:
                self.heard.append((time.monotonic(), max(map(abs, buffer), default=0)))
                self.power.append((time.monotonic(), power, len(buffer)))

        media_player = player._player  # libVLC's media player: its audio goes to ``play`` instead of a device
        media_player.audio_set_callbacks(play, None, None, None, None, None)
        media_player.audio_set_format("S16N", RATE, 1)
        self._play = play
        player.__dict__["_ears"] = self  # VLC calls back until the player is released: live as long as it

    def level(self, window: float = 0.3) -> int:
        """The loudest sample of the last ``window`` seconds (-1 when nothing was heard then)."""
        now = time.monotonic()
        with self._lock:
            recent = [peak for at, peak in self.heard if now - at <= window]
        return max(recent, default=-1)
