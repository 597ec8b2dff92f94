"""The python-vlc backend. VLC's callbacks run on VLC's threads and only emit signals (or note log facts)."""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QElapsedTimer, QObject, QTimer, Signal, Slot

from earmark.core.models import Chapter
from earmark.playback.player import Player, PlayerState, clamp_rate, missing_local_file
from earmark.playback.problems import Trouble
from earmark.playback.vlc_engine import (
    COMPRESSOR_ARGS,
    DEFAULT_ARGS,
    PlaybackUnavailableError,
    import_vlc,
    media_chapters,
    set_voice_boost,
)
from earmark.playback.vlc_log import StreamLog, attach, stopped_early, unplayable

POLL_MS = 200
STALL_SECONDS = 20.0  # a stream that sends nothing for this long (starting or playing) is reported
BUFFERING_SECONDS = 1.5  # a playing stream whose clock has not moved for this long is waiting for data
SEEK_SETTLE_SECONDS = 1.0  # VLC's clock this close to a seek's target means the seek was applied
SEEK_WAIT_MS = 2000  # a seek VLC has not applied by then (a stream that cannot seek) is given up
START_WAIT_MS = 15_000  # the same for the start position (a stream without Range support is read up to it)
VOICE_FILTERS = "equalizer:compressor"  # the voice boost: speech frequencies lifted, then dynamics compressed
_EVENTS = {"MediaPlayerPlaying": "playing", "MediaPlayerPaused": "paused", "MediaPlayerStopped": "stopped",
           "MediaPlayerEndReached": "ended", "MediaPlayerEncounteredError": "error"}


class VlcPlayer(Player):
    """Plays media through libVLC. ``extra_args`` go to the VLC instance (tests pass ``--aout=dummy``).

    libVLC is loaded on the first ``load()``, not at construction: that keeps ~40 ms out of the window's
    start-up, and a machine without VLC learns it (through ``failed``) when it first tries to play. VLC tells
    only that a stream failed or ended; why comes from its log (vlc_log.py), and "ended" counts as the end of
    the episode only when the position got there.
    """

    _vlc_event = Signal(str, float, int)  # event name, value, load generation

    def __init__(self, extra_args: tuple[str, ...] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        env_args = tuple(os.environ.get("EARMARK_VLC_ARGS", "").split())
        self._args = [*DEFAULT_ARGS, *COMPRESSOR_ARGS, *env_args, *extra_args]
        self._instance: Any = None
        self._player: Any = None
        self._log = StreamLog()
        self._log_callback: Any = None  # kept alive while VLC may call it
        self._rate = 1.0
        self._duration: float | None = None
        self._reached_playing = False
        self._buffering = False
        self._volume_pending = False  # the volume could not be handed to VLC yet
        self._filters = ""  # the audio filters of the player's output (the voice boost's compressor)
        self._filters_waiting = False  # chosen while paused: they come when it plays again
        self._generation = 0  # bumped on every load: events of the previous media are dropped
        self._clock_seen = 0.0  # where VLC's clock last was, as its time events (on its threads) said
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
        self._seek_wait_ms = SEEK_WAIT_MS
        self._since_seek = QElapsedTimer()

    def start_engine(self) -> None:
        """Load libVLC now (PlaybackUnavailableError when it cannot be loaded)."""
        if self._player is not None:
            return
        vlc = import_vlc()
        instance = vlc.Instance(self._args)
        if instance is None:
            raise PlaybackUnavailableError("VLC could not be started (libvlc_new failed).")
        self._instance = instance
        self._log_callback = attach(instance, self._log)
        self._player = instance.media_player_new()
        events = self._player.event_manager()
        for event_name, name in _EVENTS.items():
            events.event_attach(getattr(vlc.EventType, event_name), self._relay, name)
        events.event_attach(vlc.EventType.MediaPlayerLengthChanged, self._relay_length)
        events.event_attach(vlc.EventType.MediaPlayerTimeChanged, self._note_time)

    # VLC threads: emit and note only (reading the generation is atomic under the GIL). No libVLC function may be
    # called here: the GUI thread's stop() holds the player's lock while it waits for these threads, so one that
    # asked the player for its time at the end of an episode waited for that lock forever, and so did the window.
    def _relay(self, _event: object, name: str) -> None:
        # Where VLC ended: by the time the GUI thread hears of it, the player has stopped and forgotten.
        value = self._clock_seen if name == "ended" else 0.0
        self._vlc_event.emit(name, value, self._generation)

    def _note_time(self, event: object) -> None:
        self._clock_seen = float(event.u.new_time) / 1000.0  # type: ignore[attr-defined]

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
            self._on_playing()
        elif name == "paused":
            self._poll.stop()
            self._emit_position()
            self._set_state(PlayerState.PAUSED)
        elif name == "ended":
            self._on_end(value)
        elif name == "error":
            self._halt()
            self.report(*unplayable(self._log.facts()))
        elif name == "stopped" and self._state in (PlayerState.PLAYING, PlayerState.PAUSED):
            self._poll.stop()
            self._set_state(PlayerState.STOPPED)

    def _on_playing(self) -> None:
        first = not self._reached_playing
        self._reached_playing = True
        self._problem = None
        self._attempts = 0
        self._since_progress.start()
        self._player.set_rate(self._rate)
        self._apply_volume()  # VLC's audio output exists from now on
        self._poll.start()
        self._set_state(PlayerState.PLAYING)
        if first:
            chapters = self.media_chapters()
            if chapters:
                self.chapters_found.emit(chapters)

    def _on_end(self, at: float) -> None:
        """VLC reached the end of what it could read (at ``at`` seconds): the episode's end, or a stream that
        stopped early."""
        position = max(self._last_position, at)
        self._halt()
        facts = self._log.facts()
        if not self._reached_playing or not self._duration:
            # VLC reports a file it cannot open, a web page it "played" or a stream cut before it could start
            # as ended: tell the user what happened instead.
            self.report(*unplayable(facts))
            return
        early = stopped_early(facts, position, self._duration) if _is_stream(self._uri) else None
        if early is not None:
            self.report(early, position=position)
            return
        self._set_state(PlayerState.ENDED)
        self.ended.emit()

    def _halt(self) -> None:
        self._poll.stop()
        self._watchdog.stop()
        self._set_buffering(False)

    @Slot()
    def _emit_position(self) -> None:
        if self._volume_pending:
            self._apply_volume()
        if self._uri is not None:
            position = self.position()
            if position != self._last_position:
                self._last_position = position
                self._since_progress.start()
                self._set_buffering(False)
            self.position_changed.emit(position)

    def _set_buffering(self, buffering: bool) -> None:
        if buffering != self._buffering:
            self._buffering = buffering
            self.buffering_changed.emit(buffering)

    def buffering(self) -> bool:
        return self._buffering

    @Slot()
    def _check_stall(self) -> None:
        """Show a stream that waits for data, and stop one that stopped sending: VLC itself waits forever."""
        waited = self._since_progress.elapsed()
        if self._state == PlayerState.PLAYING and waited >= BUFFERING_SECONDS * 1000:
            self._set_buffering(True)
        if self._state == PlayerState.PAUSED or waited < self.stall_seconds * 1000:
            return
        if self._state not in (PlayerState.LOADING, PlayerState.PLAYING):
            self._watchdog.stop()
            return
        starting = self._state == PlayerState.LOADING
        position = self._resume_at if starting else self.position()
        self._halt()
        self._generation += 1  # what VLC reports about this media from now on is of no interest
        self._player.stop()
        detail = f"nothing arrived for {self.stall_seconds:g} s"
        self.report(Trouble.SLOW_START if starting else Trouble.TOO_SLOW, detail, position)

    def _open(self, uri: str, start: float = 0.0) -> None:
        self._poll.stop()
        try:
            self.start_engine()
        except PlaybackUnavailableError as exc:
            self.report(Trouble.NO_PLAYER, str(exc))
            return
        self._player.stop()  # synchronous: the old media's last events carry the old generation
        self._generation += 1
        self._clock_seen = start
        self._log.reset()
        # VLC reports 0 until it has reached the start: until then, the start is the position (a save
        # meanwhile would rewind the episode).
        self._seek_target = start if start > 0 else None
        self._seek_wait_ms = START_WAIT_MS
        self._since_seek.start()
        self._duration = None
        self.duration_changed.emit(0.0)
        self._reached_playing = False
        self._set_buffering(False)
        missing = missing_local_file(uri)
        if missing:
            self.report(Trouble.MISSING, missing)
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
            self.report(Trouble.UNREADABLE)

    def play(self) -> None:
        if self._uri is None or self._play_cued():
            return
        if self._state == PlayerState.ERROR:
            self.retry()
        elif self._state in (PlayerState.ENDED, PlayerState.STOPPED):
            self._begin(self._uri, 0.0)
        elif self._filters_waiting:
            self._filters_waiting = False
            self._open(self._uri, self.position())
        else:
            self._since_progress.start()
            self._player.set_pause(0)

    def pause(self) -> None:
        if self._state in (PlayerState.PLAYING, PlayerState.LOADING):
            self._player.set_pause(1)
        self._since_progress.start()

    def stop(self) -> None:
        self._halt()
        if self._player is not None:
            self._player.stop()
        self._forget()
        self._set_state(PlayerState.STOPPED)

    def seek(self, seconds: float) -> None:
        if self._uri is None or self._seek_cued(seconds) or self._player is None:
            return
        target = max(0.0, seconds)
        if self._duration:
            target = min(target, max(0.0, self._duration - 0.5))
        if self._state in (PlayerState.LOADING, PlayerState.ERROR):
            self._resume_at = target  # where the media starts (or a retry resumes)
        self._player.set_time(int(target * 1000))
        self._seek_target = target
        self._seek_wait_ms = SEEK_WAIT_MS
        self._since_seek.start()
        self.position_changed.emit(target)
        self.seeked.emit(target)

    def position(self) -> float:
        if self._player is None or self._cued or self._state in (PlayerState.LOADING, PlayerState.ERROR):
            return self._resume_at if self._uri is not None else 0.0
        reported = self._vlc_time()
        if self._seek_target is not None:
            waiting = self._since_seek.elapsed() < self._seek_wait_ms
            if abs(reported - self._seek_target) > SEEK_SETTLE_SECONDS and waiting:
                return self._seek_target
            self._seek_target = None
        return reported

    def _vlc_time(self) -> float:
        millis = self._player.get_time() if self._player is not None else None
        return max(0.0, millis / 1000.0) if millis is not None else 0.0

    def duration(self) -> float | None:
        return self._cued_length if self._cued else self._duration

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
        return media_chapters(self._player)

    def _apply_volume(self) -> None:
        if self._player is not None:
            # -1 until VLC has an audio output, which it may open after it says "playing": the poll tries again
            self._volume_pending = self._player.audio_set_volume(self.effective_volume()) != 0

    def _apply_voice_boost(self) -> None:
        if self._player is None:
            return
        filters = VOICE_FILTERS if self._voice_boost else ""
        if filters == self._filters:
            return
        set_voice_boost(self._player, self._voice_boost)  # the equalizer sets the filters its way: first
        from earmark.playback.vlc_filters import set_audio_filters  # ctypes: loaded with libVLC, not at start

        if not set_audio_filters(self._player, filters):
            return
        self._filters = filters
        # The output with the filters comes with the next media: playing, the media is opened again where it is
        # (a moment's gap); paused, when it plays again.
        if self._uri is not None and self._state == PlayerState.PLAYING:
            self._open(self._uri, self.position())
        self._filters_waiting = self._state == PlayerState.PAUSED

    def shutdown(self) -> None:
        self._halt()
        self._retry_timer.stop()
        if self._player is not None:
            self._player.stop()
            if self._log_callback is not None:
                self._instance.log_unset()  # waits for callbacks under way: none runs after this
            self._player.release()
            self._instance.release()
            self._player = self._instance = self._log_callback = None


def _is_stream(uri: str | None) -> bool:
    return bool(uri) and uri.split(":", 1)[0].lower() in ("http", "https")  # type: ignore[union-attr]
