"""Speech to timed text with faster-whisper (CTranslate2: on an NVIDIA GPU when CTranslate2 sees one, else int8 on
the CPU). Import this module only in the process that transcribes: it loads the engine."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

from earmark.core.errors import NoSpeechError, TranscribeError
from earmark.core.records import record

SAMPLE_RATE = 16000  # what Whisper hears
SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*$")
SILENCE_PEAK = 0.01  # audio whose loudest sample stays below this (of full scale) holds nothing to hear
# Beam search (5 paths, faster-whisper's default) over greedy decoding: on bench/transcribe.py's passages it heard
# more of the technical terms and halved the word error rate, still about 18x real time here. The vocabulary goes
# in as the initial prompt only: given as hotwords too, the names made the tiny model repeat them (word error rate
# 54% instead of 28%, fewer terms heard).
BEAM_SIZE = 5
DOUBT = 0.6  # a word heard with less probability than this is one the engine was unsure of


@record(frozen=True)
class Segment:
    """A stretch of speech: seconds from the start, and what was said; where in ``text`` the words stand that the
    engine was unsure of (start and end offsets)."""

    start: float
    end: float
    text: str
    doubtful: tuple[tuple[int, int], ...] = ()


@record
class Transcription:
    """What the engine heard in a file."""

    model: str
    language: str
    duration: float
    segments: list[Segment] = field(default_factory=list)


DEVICES = ("auto", "cuda", "cpu")
COMPUTE = {"cuda": "int8_float16", "cpu": "int8"}  # what each device runs fastest with little loss


def gpu_count() -> int:
    """How many CUDA devices CTranslate2 sees (0 without a GPU, a driver or CTranslate2's CUDA build)."""
    try:
        import ctranslate2  # type: ignore[import-untyped]  # ships no type information

        return int(ctranslate2.get_cuda_device_count())
    except Exception:  # no CUDA runtime: CTranslate2 raises rather than answering 0 on some builds
        return 0


class Engine:
    """A loaded model (loading takes a second: transcribe many files with one Engine). ``device`` "auto" uses the
    GPU when CTranslate2 sees one and falls back to the CPU when the model cannot be loaded there; ``device``
    says which one it runs on."""

    def __init__(self, folder: Path, name: str, device: str = "auto") -> None:
        from earmark.core.transcribe.windows import SteadyWhisper

        self.name = name
        threads = min(4, os.cpu_count() or 1)
        self.device = "cuda" if device == "cuda" or (device == "auto" and gpu_count()) else "cpu"
        try:
            self._model = SteadyWhisper(str(folder), device=self.device, compute_type=COMPUTE[self.device],
                                        cpu_threads=threads)
        except (RuntimeError, ValueError):  # CUDA libraries missing or out of memory: the CPU always works
            if self.device == "cpu" or device == "cuda":
                raise
            self.device = "cpu"
            self._model = SteadyWhisper(str(folder), device="cpu", compute_type=COMPUTE["cpu"], cpu_threads=threads)

    def transcribe(self, audio_file: Path, prompt: str = "",
                   progress: Callable[[float], None] | None = None) -> Transcription:
        """The segments heard in ``audio_file``, primed with ``prompt`` (the episode's own words).

        TranscribeError when the file is not audio or holds only silence. ``progress`` is told the share done
        after each segment (it may raise to stop: nothing is returned then)."""
        audio = decode(audio_file)
        duration = len(audio) / SAMPLE_RATE
        if not len(audio) or float(abs(audio).max()) < SILENCE_PEAK:
            raise TranscribeError(f"{audio_file.name} holds only silence: there is nothing to transcribe.")
        pieces, info = self._model.transcribe(audio, initial_prompt=prompt or None, beam_size=BEAM_SIZE,
                                              condition_on_previous_text=True, word_timestamps=True)
        segments: list[Segment] = []
        for piece in pieces:
            segments.extend(sentences(piece.words or [], duration) if piece.words else
                            [Segment(round(piece.start, 2), round(min(piece.end, duration), 2), piece.text.strip())])
            if progress is not None:
                progress(min(1.0, piece.end / duration) if duration else 1.0)
        segments = [segment for segment in segments if segment.text]
        if not segments:
            raise NoSpeechError(f"No speech was heard in {audio_file.name}.")
        return Transcription(self.name, info.language, round(duration, 2), segments)


def sentences(words: list[Any], duration: float) -> list[Segment]:
    """A segment's timed words as one line per sentence: a word said finds its sentence's moment, and a note's
    quote is cut at sentences (Whisper's segments run across them)."""
    lines: list[Segment] = []
    start: float | None = None
    text = ""
    doubtful: list[tuple[int, int]] = []
    for word in words:
        start = word.start if start is None else start
        if word.probability < DOUBT:
            doubtful.append((len(text), len(text) + len(word.word)))
        text += word.word
        if SENTENCE_END.search(word.word) or word is words[-1]:
            lead = len(text) - len(text.lstrip())
            lines.append(Segment(round(start, 2), round(min(word.end, duration), 2), text.strip(),
                                 tuple((max(0, a - lead), b - lead) for a, b in doubtful)))
            start, text, doubtful = None, "", []
    return lines


def decode(audio_file: Path) -> Any:
    """The file's sound as 16 kHz mono samples (a numpy array); TranscribeError when it is not audio."""
    from faster_whisper.audio import decode_audio

    try:
        return decode_audio(str(audio_file), sampling_rate=SAMPLE_RATE)
    except FileNotFoundError as exc:
        raise TranscribeError(f"The downloaded file {audio_file} is missing.") from exc
    except Exception as exc:  # PyAV's errors for what it cannot read: a broken or foreign file
        raise TranscribeError(f"{audio_file.name} is not audio Earmark can read, so it cannot be "
                              "transcribed.") from exc
