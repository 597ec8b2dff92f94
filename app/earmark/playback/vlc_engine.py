"""libVLC itself: loading it, the options Earmark starts it with, and what the player asks of a VLC media
player beyond play and pause (chapters, the voice boost equalizer)."""

from __future__ import annotations

from typing import Any

from earmark.core.models import Chapter

DEFAULT_ARGS = (
    "--no-video", "--quiet", "--no-xlib", "--no-metadata-network-access",
    # VLC's https module (used for http too) resumes a broken stream with a Range request by itself when the
    # server accepts ranges; the older http module, which VLC falls back to for some servers, needs this.
    "--http-reconnect",
)
# Measured on a generated passage alternating speech-level and 30 dB softer audio (tests/unit/playback/
# test_voice_boost.py, RMS of 100 ms of VLC's real output): the range (95th - 10th percentile) falls from 30.3 dB
# to 22.8 dB with the equalizer before it, the loud parts keep their level (-14.9 and -14.6 dBFS). VLC's volume
# normaliser (normvol) was tried as well: it widened the range (30 to 35 dB alone, 20 to 24 dB after the
# compressor), so it is not used. (The compressor itself is chosen in vlc_filters.py.)
COMPRESSOR_ARGS = ("--compressor-rms-peak=0.2", "--compressor-attack=10", "--compressor-release=100",
                   "--compressor-threshold=-35", "--compressor-ratio=8", "--compressor-knee=6",
                   "--compressor-makeup-gain=14")
# Voice boost through VLC's equalizer (libVLC can switch it per player while playing, unlike the compressor
# and normaliser filters, which are fixed per instance): louder overall, speech frequencies lifted, rumble cut.
VOICE_PREAMP_DB = 6.0
VOICE_BANDS_DB = {0: -6.0, 1: -4.0, 2: -2.0, 5: 2.0, 6: 4.0, 7: 3.0}  # 60 Hz, 170 Hz, 310 Hz, 3 kHz, 6 kHz, 12 kHz


class PlaybackUnavailableError(RuntimeError):
    """libVLC could not be loaded on this machine."""


def import_vlc():  # type: ignore[no-untyped-def]
    """The python-vlc module (PlaybackUnavailableError with a sentence when libVLC is missing)."""
    try:
        import vlc
    # python-vlc raises NotImplementedError when it finds no libvlc, and exits when PYTHON_VLC_LIB_PATH is wrong.
    except (ImportError, OSError, NotImplementedError, SystemExit) as exc:
        raise PlaybackUnavailableError(
            "Playback needs VLC: install libvlc (Debian: libvlc5 and vlc-plugin-base)."
        ) from exc
    return vlc


def media_chapters(player: Any) -> list[Chapter]:
    """The chapters a VLC media player reports for its media."""
    count = player.get_chapter_count()
    if count is None or count <= 0:
        return []
    descriptions = player.get_full_chapter_descriptions(-1) or []
    return [Chapter(d.time_offset / 1000.0, _text(d.name) or f"Chapter {n}", source="file")
            for n, d in enumerate(descriptions, start=1)]


def set_voice_boost(player: Any, on: bool) -> None:
    """Switch the voice boost equalizer of a VLC media player on or off."""
    if not on:
        player.set_equalizer(None)
        return
    vlc = import_vlc()
    equalizer = vlc.AudioEqualizer()
    equalizer.set_preamp(VOICE_PREAMP_DB)
    for band, gain in VOICE_BANDS_DB.items():
        equalizer.set_amp_at_index(gain, band)
    player.set_equalizer(equalizer)  # VLC copies the settings
    equalizer.release()


def _text(value: bytes | str | None) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace").strip()
    return (value or "").strip()
