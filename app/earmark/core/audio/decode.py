"""Decoding an episode (a file, or a stream over http) to the loudness of each short window, with PyAV
(FFmpeg's decoders, in its wheel: MP3, AAC/M4A, Opus, Vorbis, FLAC, WAV). Imported when an episode is
analysed, never at start-up."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from earmark.core.errors import AudioError

RATE = 8000  # Hz: enough to hear speech from silence, little to compute
WINDOW = 0.02  # seconds per loudness value
NETWORK_TIMEOUT = 30.0  # seconds: a stream that sends nothing this long is given up
SILENT_DB = -240.0  # the level of digital silence


def window_levels(source: str, progress: Callable[[float], None] | None = None) -> np.ndarray:
    """The RMS level (dBFS) of each WINDOW of the audio at ``source`` (a path or an http(s) URL), mono.
    ``progress`` gets the seconds decoded now and then. AudioError says why it cannot be read."""
    import av  # deferred: 100 MB of FFmpeg libraries

    try:
        container = av.open(source, timeout=NETWORK_TIMEOUT)
    except (av.FFmpegError, OSError) as exc:
        raise AudioError(f"{_name(source)} cannot be opened as audio ({_reason(exc)}).") from None
    per_window = int(WINDOW * RATE)
    squares: list[np.ndarray] = []
    carry = np.zeros(0, dtype=np.float32)
    with container:
        if not container.streams.audio:
            raise AudioError(f"{_name(source)} has no audio to analyse.")
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="flt", layout="mono", rate=RATE)
        decoded = 0
        try:
            for frame in container.decode(stream):
                for chunk in resampler.resample(frame):
                    carry = _windows(np.concatenate([carry, chunk.to_ndarray().reshape(-1)]), per_window, squares)
                    decoded += chunk.samples
                if progress is not None and decoded % (RATE * 60) < frame.samples:
                    progress(decoded / RATE)
            for chunk in resampler.resample(None):
                carry = _windows(np.concatenate([carry, chunk.to_ndarray().reshape(-1)]), per_window, squares)
        except (av.FFmpegError, OSError) as exc:
            if not squares:
                raise AudioError(f"{_name(source)} cannot be decoded ({_reason(exc)}).") from None
            # damaged further in: what was decoded is kept (an episode cut short is still worth skipping in)
    if carry.size:
        squares.append(np.array([float(np.mean(carry.astype(np.float64) ** 2))]))
    if not squares:
        raise AudioError(f"{_name(source)} holds no audio.")
    power = np.concatenate(squares)
    return np.where(power > 0, 10 * np.log10(np.maximum(power, 1e-24)), SILENT_DB)


def _windows(samples: np.ndarray, per_window: int, out: list[np.ndarray]) -> np.ndarray:
    """Append the mean square of each whole window of ``samples``; the rest is carried to the next chunk."""
    whole = samples.size // per_window * per_window
    if whole:
        out.append(np.mean(samples[:whole].astype(np.float64).reshape(-1, per_window) ** 2, axis=1))
    return samples[whole:]


def _name(source: str) -> str:
    return source.rsplit("/", 1)[-1] if "://" not in source or source.startswith("file:") else source


def _reason(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc)
    return str(text).split(":")[-1].strip() or type(exc).__name__
