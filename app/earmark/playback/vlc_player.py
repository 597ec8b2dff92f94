"""The python-vlc backend. VLC's callbacks run on VLC's threads and only emit signals."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote, urlparse

from PySide6.QtCore import QElapsedTimer, QObject, QTimer, Signal, Slot

from earmark.core.models import Chapter
from earmark.playback.player import Player, PlayerState, clamp_rate, missing_local_file

POLL_MS = 200
STALL_SECONDS = 20.0  # a stream that sends nothing for this long (starting or playing) is reported
SEEK_SETTLE_SECONDS = 1.0  # VLC's clock this close to a seek's target means the seek was applied
SEEK_WAIT_MS = 2000  # a seek VLC has not applied by then (a stream that cannot seek) is given up
DEFAULT_ARGS = ("--no-video", "--quiet", "--no-xlib", "--no-metadata-network-access")
# Voice boost through VLC's equalizer (libVLC can switch it per player while playing, unlike the compressor
# and normaliser filters, which are fixed per instance): louder overall, speech frequencies lifted, rumble cut.
VOICE_PREAMP_DB = 6.0
VOICE_BANDS_DB = {0: -6.0, 1: -4.0, 2: -2.0, 5: 2.0, 6: 4.0, 7: 3.0}  # 60 Hz, 170 Hz, 310 Hz, 3 kHz, 6 kHz, 12 kHz


class PlaybackUnavailableError(RuntimeError):
    """libVLC could not be loaded on this machine."""


def _import_vlc():  # type: ignore[no-untyped-def]
    try:
        import vlc
    # python-vlc raises NotImplementedError when it finds no libvlc, and exits when PYTHON_VLC_LIB_PATH is wrong.
    except (ImportError, OSError, NotImplementedError, SystemExit) as exc:
        raise PlaybackUnavailableError(
            "Playback needs VLC: install libvlc (Debian: libvlc5 and vlc-plugin-base)."
        ) from exc
    return vlc


class VlcPlayer(Player):
    """Plays media through libVLC. ``extra_args`` go to the VLC instance (tests pass ``--aout=dummy``).

    libVLC is loaded on the first ``load()``, not at construction: that keeps ~40 ms out of the window's
    start-up, and a machine without VLC learns it (through ``failed``) when it first tries to play.
    """

    _vlc_event = Signal(str, float, int)  # event name, value, load generation

    def __init__(self, extra_args: tuple[str, ...] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        env_args = tuple(os.environ.get("EARMARK_VLC_ARGS", "").split())
        self._args = [*DEFAULT_ARGS, *env_args, *extra_args]
        self._instance: Any = None
        self._player: Any = None
        self._rate = 1.0
        self._duration: float | None = None
        self._reached_playing = False
        self._generation = 0  # bumped on every load: events of the previous media are dropped
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._emit_position)
        self._vlc_event.connect(self._on_vlc_event)
        self.stall_seconds = STALL_SECONDS
        self._last_position = -1.0
        self._since_progress = QElapsedTimer()  # since the position last moved (or loading began)
        self._watchdog = QTimer(self)
        self._watchdog.setInterval(500)
        self._watchdog.timeout.connect(self._check_stall)
        # VLC applies a seek a little later: until its clock gets there, the target is the position (so that
        # keys pressed in quick succession add up).
        self._seek_target: float | None = None
        self._since_seek = QElapsedTimer()

    def start_engine(self) -> None:
        """Load libVLC now (PlaybackUnavailableError when it cannot be loaded)."""
        if self._player is not None:
            return
        vlc = _import_vlc()
        instance = vlc.Instance(self._args)
        if instance is None:
            raise PlaybackUnavailableError("VLC could not be started (libvlc_new failed).")
        self._instance = instance
        self._player = instance.media_player_new()
        events = self._player.event_manager()
        mapping = {
            vlc.EventType.MediaPlayerPlaying: "playing",
            vlc.EventType.MediaPlayerPaused: "paused",
            vlc.EventType.MediaPlayerStopped: "stopped",
            vlc.EventType.MediaPlayerEndReached: "ended",
            vlc.EventType.MediaPlayerEncounteredError: "error",
        }
        for event_type, name in mapping.items():
            events.event_attach(event_type, self._relay, name)
        events.event_attach(vlc.EventType.MediaPlayerLengthChanged, self._relay_length)

    # VLC threads: emit only (reading the generation is atomic under the GIL).
    def _relay(self, _event: object, name: str) -> None:
        self._vlc_event.emit(name, 0.0, self._generation)

    def _relay_length(self, event: object) -> None:
        self._vlc_event.emit("length", float(event.u.new_length) / 1000.0, self._generation)  # type: ignore[attr-defined]

    @Slot(str, float, int)
    def _on_vlc_event(self, name: str, value: float, generation: int) -> None:
        if generation != self._generation:
            return  # queued before the current media was loaded
        if name == "length":
            if value > 0:
                self._duration = value
                self.duration_changed.emit(value)
        elif name == "playing":
            first = not self._reached_playing
            self._reached_playing = True
            self._since_progress.start()
            self._player.set_rate(self._rate)
            self._apply_volume()  # VLC's audio output exists from now on
            self._poll.start()
            self._set_state(PlayerState.PLAYING)
            if first:
                chapters = self.media_chapters()
                if chapters:
                    self.chapters_found.emit(chapters)
        elif name == "paused":
            self._poll.stop()
            self._emit_position()
            self._set_state(PlayerState.PAUSED)
        elif name == "ended":
            self._poll.stop()
            if not self._reached_playing or not self._duration:
                # VLC reports a file it cannot open as "ended": tell the user instead.
                self._fail(f"{_display_name(self._uri)} could not be played: the file is missing, damaged or in "
                           "a format VLC cannot read.")
                return
            self._set_state(PlayerState.ENDED)
            self.ended.emit()
        elif name == "error":
            self._poll.stop()
            self._fail(f"{_display_name(self._uri)} could not be played (VLC reported an error).")
        elif name == "stopped" and self._state in (PlayerState.PLAYING, PlayerState.PAUSED):
            self._poll.stop()
            self._set_state(PlayerState.STOPPED)

    @Slot()
    def _emit_position(self) -> None:
        if self._uri is not None:
            position = self.position()
            if position != self._last_position:
                self._last_position = position
                self._since_progress.start()
            self.position_changed.emit(position)

    @Slot()
    def _check_stall(self) -> None:
        """Report a stream that stopped sending: VLC itself waits for it indefinitely."""
        if self._state == PlayerState.PAUSED or self._since_progress.elapsed() < self.stall_seconds * 1000:
            return
        if self._state not in (PlayerState.LOADING, PlayerState.PLAYING):
            self._watchdog.stop()
            return
        starting = self._state == PlayerState.LOADING
        self._poll.stop()
        self._watchdog.stop()
        self._generation += 1  # what VLC reports about this media from now on is of no interest
        self._player.stop()
        self._fail(f"{_display_name(self._uri)} {'did not start' if starting else 'stopped'}: no audio arrived "
                   f"for {self.stall_seconds:g} s (the server may be down or too slow).")

    def load(self, uri: str, start: float = 0.0) -> None:
        self._poll.stop()
        self._uri = uri
        try:
            self.start_engine()
        except PlaybackUnavailableError as exc:
            self._fail(str(exc))
            return
        self._player.stop()  # synchronous: the old media's last events carry the old generation
        self._generation += 1
        self._seek_target = None
        self._duration = None
        self._reached_playing = False
        missing = missing_local_file(uri)
        if missing:
            self._fail(f"The audio file {missing} is missing.")
            return
        media = self._instance.media_new(uri)
        if start > 0:
            media.add_option(f":start-time={start:.3f}")
        self._player.set_media(media)
        self._apply_voice_boost()
        media.release()
        self._set_state(PlayerState.LOADING)
        self._last_position = -1.0
        self._since_progress.start()
        self._watchdog.start()
        if self._player.play() == -1:
            self._fail(f"{_display_name(uri)} could not be played.")

    def play(self) -> None:
        if self._uri is None:
            return
        if self._state in (PlayerState.ENDED, PlayerState.ERROR, PlayerState.STOPPED):
            self.load(self._uri, 0.0)
        else:
            self._since_progress.start()
            self._player.set_pause(0)

    def pause(self) -> None:
        if self._state in (PlayerState.PLAYING, PlayerState.LOADING):
            self._player.set_pause(1)
        self._since_progress.start()

    def stop(self) -> None:
        self._poll.stop()
        self._watchdog.stop()
        if self._player is not None:
            self._player.stop()
        self._uri = None
        self._set_state(PlayerState.STOPPED)

    def seek(self, seconds: float) -> None:
        if self._uri is None or self._player is None:
            return
        target = max(0.0, seconds)
        if self._duration:
            target = min(target, max(0.0, self._duration - 0.5))
        self._player.set_time(int(target * 1000))
        self._seek_target = target
        self._since_seek.start()
        self.position_changed.emit(target)
        self.seeked.emit(target)

    def position(self) -> float:
        if self._player is None:
            return 0.0
        millis = self._player.get_time()
        reported = max(0.0, millis / 1000.0) if millis is not None else 0.0
        if self._seek_target is not None:
            if abs(reported - self._seek_target) > SEEK_SETTLE_SECONDS and self._since_seek.elapsed() < SEEK_WAIT_MS:
                return self._seek_target
            self._seek_target = None
        return reported

    def duration(self) -> float | None:
        return self._duration

    def set_rate(self, rate: float) -> None:
        self._rate = clamp_rate(rate)
        if self._player is not None:
            self._player.set_rate(self._rate)
        self.rate_changed.emit(self._rate)

    def rate(self) -> float:
        return self._rate

    def vlc_rate(self) -> float:
        """The speed VLC itself reports (0 before the engine is loaded)."""
        return float(self._player.get_rate()) if self._player is not None else 0.0

    def media_chapters(self) -> list[Chapter]:
        if self._player is None or not self._reached_playing:
            return []
        count = self._player.get_chapter_count()
        if count is None or count <= 0:
            return []
        descriptions = self._player.get_full_chapter_descriptions(-1) or []
        return [Chapter(d.time_offset / 1000.0, _text(d.name) or f"Chapter {n}")
                for n, d in enumerate(descriptions, start=1)]

    def _apply_volume(self) -> None:
        if self._player is not None:
            self._player.audio_set_volume(self.effective_volume())

    def _apply_voice_boost(self) -> None:
        if self._player is None:
            return
        if not self._voice_boost:
            self._player.set_equalizer(None)
            return
        vlc = _import_vlc()
        equalizer = vlc.AudioEqualizer()
        equalizer.set_preamp(VOICE_PREAMP_DB)
        for band, gain in VOICE_BANDS_DB.items():
            equalizer.set_amp_at_index(gain, band)
        self._player.set_equalizer(equalizer)  # VLC copies the settings
        equalizer.release()

    def shutdown(self) -> None:
        self._poll.stop()
        self._watchdog.stop()
        if self._player is not None:
            self._player.stop()
            self._player.release()
            self._instance.release()
            self._player = self._instance = None


def _text(value: bytes | str | None) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace").strip()
    return (value or "").strip()


def _display_name(uri: str | None) -> str:
    if not uri:
        return "The media"
    name = unquote(urlparse(uri).path.rsplit("/", 1)[-1])
    return name or uri
