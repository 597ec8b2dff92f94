"""Each 30-second window decoded the same way every time, at a bounded cost. faster-whisper's default falls back
to sampling (temperatures 0.2 to 1.0, five candidates each) on a window whose text repeats itself or that it
heard unsurely: random from one run to the next (CTranslate2 seeds its generator per process) and up to 25 more
decodings of one window (a whole episode took 23 s instead of 10 s). Here a window is decoded once with beam
search; a window whose text repeats itself (the tiny model's "Thank you for watching, I'll see you in the next
video…" over the silence after the last words) is decoded once more without the previous text (what led it
into the loop), then once more with a penalty on repeated tokens; if it still repeats itself it is no speech when
the model itself says so. Imported only by
engine.py, in the process that transcribes."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from faster_whisper import WhisperModel
from faster_whisper.tokenizer import Tokenizer
from faster_whisper.transcribe import TranscriptionOptions

LOOPING = 2.4  # the gzip compression ratio above which a window's text repeats itself (Whisper's own threshold)
REPEATING = 1.15  # the penalty on tokens already said, for a window that repeats itself even without the previous
# text (given to every window, it kept the tiny model from writing the episode's names: 49 of 57 terms, not 52)
Decoded = tuple[Any, float, float, float]  # the engine's result, average log-probability, temperature, ratio


class SteadyWhisper(WhisperModel):
    """faster-whisper's model, decoding each window as the module says."""

    def generate_with_fallback(self, encoder_output: Any, prompt: list[int], tokenizer: Tokenizer,
                               options: TranscriptionOptions) -> Decoded:
        once = replace(options, temperatures=[0.0])
        decoded = super().generate_with_fallback(encoder_output, prompt, tokenizer, once)
        own = prompt[prompt.index(tokenizer.sot):]
        retries = [(own, once)] if own != prompt else []
        retries.append((own, replace(once, repetition_penalty=REPEATING)))
        for tried_prompt, tried in retries:
            if decoded[3] <= LOOPING:
                break
            decoded = min(decoded, super().generate_with_fallback(encoder_output, tried_prompt, tokenizer, tried),
                          key=lambda result: result[3])
        result, _logprob, temperature, ratio = decoded
        if ratio > LOOPING and options.no_speech_threshold is not None \
                and result.no_speech_prob > options.no_speech_threshold:
            return result, -math.inf, temperature, ratio  # below any threshold: faster-whisper skips it as silence
        return decoded
