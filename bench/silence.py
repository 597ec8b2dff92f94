"""Finding an episode's silences: the seconds `analyse_source` (PyAV decoding, 20 ms levels, spans) takes for an
hour of podcast audio, beside its target, per format; and, when soundfile (libsndfile) is importable, the same
decode-and-level work through it, side by side in one run (why PyAV: see docs/libraries.md).

    .venv/bin/python bench/silence.py            (needs sox to write the hour of audio; ~1 minute)
    PYTHONPATH=/path/with/soundfile .venv/bin/python bench/silence.py

Prints the load average beside the figures: this machine is shared, read them as ratios.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np  # noqa: E402

from earmark.core.audio.analyse import analyse_source, silent_spans  # noqa: E402
from earmark.core.audio.decode import WINDOW  # noqa: E402
from helpers.audio import write_spoken_and_silent  # noqa: E402

TARGET_SECONDS = 30.0  # an hour of audio analysed within half a minute: done before the listener reaches a pause
MINUTES = 60
ROUNDS = 3


def _hour(folder: Path) -> dict[str, Path]:
    """An hour of speech-like audio with pauses, as WAV, FLAC and Ogg Vorbis (and Opus when sox can)."""
    minute = write_spoken_and_silent(folder / "minute.wav", [("tone", 4.0), ("quiet", 1.5), ("tone", 7.0),
                                                            ("quiet", 0.6)] * 5, rate=22050)
    hour = folder / "hour.wav"
    subprocess.run(["sox", *[str(minute)] * MINUTES, str(hour)], check=True)
    files = {"wav": hour}
    for suffix in ("flac", "ogg"):
        out = folder / f"hour.{suffix}"
        if subprocess.run(["sox", str(hour), str(out)], capture_output=True).returncode == 0:
            files[suffix] = out
    return files


def _soundfile_levels(path: Path) -> np.ndarray:
    import soundfile

    levels = []
    with soundfile.SoundFile(str(path)) as audio:
        step = int(WINDOW * audio.samplerate)
        for block in audio.blocks(blocksize=step * 500, dtype="float32", always_2d=True):
            mono = block.mean(axis=1)
            whole = mono.size // step * step
            levels.append(np.mean(mono[:whole].reshape(-1, step) ** 2, axis=1))
    power = np.concatenate(levels)
    return 10 * np.log10(np.maximum(power, 1e-24))


def _timed(work) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    if shutil.which("sox") is None:
        print("sox is needed to write the hour of audio")
        return 1
    try:
        import soundfile  # noqa: F401
        have_soundfile = True
    except ImportError:
        have_soundfile = False
    with tempfile.TemporaryDirectory() as folder:
        files = _hour(Path(folder))
        print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {MINUTES} min of audio, median of "
              f"{ROUNDS}; target: at most {TARGET_SECONDS:g} s")
        print(f"{'format':8} {'PyAV (earmark)':>16} {'spans':>6} {'soundfile':>12} {'spans':>6}")
        for name, path in files.items():
            spans = analyse_source(str(path))[0]
            ours = _timed(lambda p=path: analyse_source(str(p)))
            other, other_spans = "not installed", ""
            if have_soundfile:
                other_spans = str(len(silent_spans(_soundfile_levels(path), WINDOW)))
                other = f"{_timed(lambda p=path: silent_spans(_soundfile_levels(p), WINDOW)):.2f} s"
            verdict = "met" if ours <= TARGET_SECONDS else "NOT met"
            print(f"{name:8} {ours:>14.2f} s {len(spans):>6} {other:>12} {other_spans:>6}   target {verdict}")
        print("m4a/AAC (most podcasts): PyAV reads it; libsndfile cannot.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
