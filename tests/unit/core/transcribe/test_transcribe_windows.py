"""How each 30-second window is decoded (core/transcribe/windows.py): once, by beam search, never by sampling; a
window whose text repeats itself once more without the previous text, then with a penalty on repeated tokens;
still repeating over what the model calls no speech, skipped as silence. faster-whisper's own decoding is replaced
by a script of what it returns."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("faster_whisper")

from faster_whisper import WhisperModel  # noqa: E402 - only with the engine installed

from earmark.core.transcribe.windows import LOOPING, REPEATING, SteadyWhisper  # noqa: E402

SOT = 50257
PREVIOUS = [50360, 11, 12, 13]  # sot_prev, then the previous text
OWN = [SOT, 50362]


@dataclass
class Options:  # the fields of faster-whisper's TranscriptionOptions the decoder reads
    temperatures: list[float]
    no_speech_threshold: float | None = 0.6
    repetition_penalty: float = 1.0


def _decode(monkeypatch: pytest.MonkeyPatch, script: list[tuple[float, float]], threshold: float | None = 0.6,
            previous: list[int] = PREVIOUS) -> tuple[Any, list[tuple[list[int], list[float], float]]]:
    """SteadyWhisper's decoding of a window, faster-whisper answering (compression ratio, no-speech
    probability) from ``script`` in turn; and what it was asked (prompt, temperatures)."""
    asked: list[tuple[list[int], list[float], float]] = []

    def scripted(_model: Any, _encoded: Any, prompt: list[int], _tokenizer: Any, options: Any) -> Any:
        ratio, no_speech = script[len(asked)]
        asked.append((prompt, options.temperatures, options.repetition_penalty))
        return SimpleNamespace(no_speech_prob=no_speech, tried=len(asked)), -0.3, 0.0, ratio

    monkeypatch.setattr(WhisperModel, "generate_with_fallback", scripted)
    model = SteadyWhisper.__new__(SteadyWhisper)  # no model loaded: only the decoding policy is exercised
    decoded = model.generate_with_fallback(None, previous + OWN, SimpleNamespace(sot=SOT),
                                           Options([0.0, 0.2, 0.4, 0.6, 0.8, 1.0], threshold))  # type: ignore[arg-type]
    return decoded, asked


def test_a_window_is_decoded_once_without_sampling(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded, asked = _decode(monkeypatch, [(1.5, 0.01)])
    assert asked == [(PREVIOUS + OWN, [0.0], 1.0)]
    assert decoded[0].tried == 1 and decoded[1] == -0.3


def test_a_window_that_repeats_itself_is_decoded_again_without_the_previous_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    decoded, asked = _decode(monkeypatch, [(LOOPING + 3, 0.01), (1.4, 0.01)])
    assert asked == [(PREVIOUS + OWN, [0.0], 1.0), (OWN, [0.0], 1.0)]
    assert decoded[0].tried == 2


def test_a_window_still_repeating_itself_is_decoded_with_a_penalty_on_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded, asked = _decode(monkeypatch, [(LOOPING + 3, 0.01), (LOOPING + 2, 0.01), (1.2, 0.01)])
    assert asked[2] == (OWN, [0.0], REPEATING) and decoded[0].tried == 3
    decoded, asked = _decode(monkeypatch, [(LOOPING + 3, 0.01), (1.2, 0.01)], previous=[])  # no previous text
    assert asked == [(OWN, [0.0], 1.0), (OWN, [0.0], REPEATING)] and decoded[0].tried == 2


def test_a_window_repeating_itself_over_no_speech_is_skipped_as_silence(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded, asked = _decode(monkeypatch, [(LOOPING + 9, 0.8), (LOOPING + 2, 0.8), (LOOPING + 5, 0.8)])
    assert len(asked) == 3
    assert decoded[0].tried == 2 and decoded[1] == -math.inf  # the one repeating least, below any threshold


def test_a_window_repeating_itself_over_speech_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded, _asked = _decode(monkeypatch, [(LOOPING + 1, 0.1), (LOOPING + 2, 0.1), (LOOPING + 3, 0.1)])
    assert decoded[0].tried == 1 and decoded[1] == -0.3
    decoded, _asked = _decode(monkeypatch, [(LOOPING + 1, 0.9), (LOOPING + 2, 0.9), (LOOPING + 3, 0.9)],
                              threshold=None)
    assert decoded[1] == -0.3
