"""The robustness suite's machinery: the parser contract, corpus seeds and byte mutations (random and hypothesis).

The contract for every parser of outside data: it returns a result (that passes the parser's own checks) or
raises one of its declared EarmarkError subclasses with a one-line sentence; never another exception, never more
than PER_INPUT_SECONDS on one input. Hypothesis deadlines are not used for that: they measure wall time per
example and fail at random on a loaded CI machine; the limit here is far above the slowest input ever measured.
"""

from __future__ import annotations

import os
import random
import time
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from earmark.core.errors import EarmarkError
from helpers.feed_server import fixture_files

# Seconds one input may take. The slowest input measured (a 64 KiB mutated feed that only feedparser's loose
# parser reads, on a 2-core box running the full suite) takes about 0.3 s: this catches hangs, not slowness.
PER_INPUT_SECONDS = 10.0
# Corpus files larger than this seed the mutations with their first SEED_BYTES (itself a truncation): a mutated
# 1.6 MB feed costs seconds in feedparser, and the bugs sit in the markup, not in the length.
SEED_BYTES = 64 * 1024
# EARMARK_FUZZ_SCALE=20 runs twenty times the examples (and mutations per corpus file): for a deep run by hand.
SCALE = max(1, int(os.environ.get("EARMARK_FUZZ_SCALE", "1")))


# Inputs given to each parser in this session (the robustness conftest prints them at the end).
TRIED: Counter[str] = Counter()
FAILED_CLEANLY: Counter[str] = Counter()


def scaled(examples: int) -> int:
    """``examples`` times EARMARK_FUZZ_SCALE."""
    return examples * SCALE


@dataclass(frozen=True)
class Parser:
    """One entry point that takes outside data, as the robustness suite drives it.

    ``run`` takes the raw bytes (text parsers decode them as they would get them); ``errors`` are the exceptions
    it may raise (empty: it must never raise); ``corpora`` are the shared fixture folders whose files seed the
    mutations (``seeds`` adds generated ones); ``check`` asserts what every successful result must satisfy
    (hostile links neutralised, times finite...); ``max_bytes`` is its size cap, when it has one.
    """

    name: str
    run: Callable[[bytes], Any]
    errors: tuple[type[EarmarkError], ...]
    corpora: tuple[str, ...] = ()
    check: Callable[[bytes, Any], None] | None = None
    max_bytes: int | None = None
    seeds: Callable[[], list[bytes]] | None = None
    examples: int = 300  # hypothesis examples per fuzz test (times EARMARK_FUZZ_SCALE)
    notes: str = ""  # for docs/reliability.md: what the entry point is

    def seed_files(self) -> list[Path]:
        return fixture_files(*self.corpora)

    def seed_data(self) -> list[bytes]:
        """Every seed: the corpus files (cut at SEED_BYTES) and the generated ones."""
        data = [path.read_bytes()[:SEED_BYTES] for path in self.seed_files()]
        return data + (self.seeds() if self.seeds else [])


@dataclass(slots=True)
class Outcome:
    """What one input gave: the result or the (allowed) error, and how long it took."""

    result: Any = None
    error: EarmarkError | None = None
    seconds: float = 0.0


def assert_sentence(exc: BaseException) -> None:
    """A user-facing error: one non-empty line of text, no traceback."""
    message = str(exc)
    assert message.strip(), f"{type(exc).__name__} has an empty message"
    assert "\n" not in message and "\r" not in message, f"message is not one line: {message!r}"
    assert "Traceback" not in message, message


def honour(parser: Parser, data: bytes) -> Outcome:
    """Run ``parser`` on ``data`` and assert the contract; any other exception propagates (the test fails, and
    hypothesis shrinks the input)."""
    start = time.perf_counter()
    outcome = Outcome()
    TRIED[parser.name] += 1
    try:
        outcome.result = parser.run(data)
    except EarmarkError as exc:
        if not isinstance(exc, parser.errors):
            raise AssertionError(f"{parser.name} raised {type(exc).__name__}, not one of {parser.errors}") from exc
        assert_sentence(exc)
        outcome.error = exc
        FAILED_CLEANLY[parser.name] += 1
    outcome.seconds = time.perf_counter() - start
    assert outcome.seconds < PER_INPUT_SECONDS, f"{parser.name} took {outcome.seconds:.1f} s on {len(data)} bytes"
    if outcome.error is None and parser.check is not None:
        parser.check(data, outcome.result)
    return outcome


# --- mutations ---------------------------------------------------------------------------------------------------

# Fragments that break parsers: markup openers and closers, entities, encodings, BOMs, line ends, numbers
# JSON should not hold, hostile links. Inserted and spliced by both mutators.
TOKENS: tuple[bytes, ...] = (
    b"<", b">", b"/>", b"</", b"&", b"&amp;", b"&#0;", b"&#x110000;", b"&#xD800;", b"&nbsp;", b"&eacute;", b"&x;",
    b"<![CDATA[", b"]]>", b"<!--", b"-->", b"<!DOCTYPE rss [<!ENTITY a \"aaaa\">]>", b"<?xml version=\"1.0\"?>",
    b"<?xml version=\"1.0\" encoding=\"utf-16\"?>", b"<?xml version=\"1.0\" encoding=\"x-bogus\"?>",
    b"\x00", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\r\n", b"\r", b"\n\n", b"\t", b"\"", b"'", b"=",
    b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe2\x80\xae",
    b"xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"", b"xml:base=\"javascript:alert(1)//\"",
    b"<item>", b"</item>", b"<entry>", b"<outline xmlUrl=\"file:///etc/passwd\"/>", b"<script>alert(1)</script>",
    b"<img src=\"http://tracker.example/p.gif\" onerror=\"x()\">", b"javascript:alert(1)", b"file:///etc/passwd",
    b"../../../etc/passwd", b"[::1", b"-1", b"1e308", b"1e999", b"-0", b"NaN", b"Infinity", b"null", b"true",
    b"[]", b"{}", b"[", b"{", b"}", b"]", b",", b":", b"\"startTime\":", b"\"chapters\":", b"\"segments\":",
    b"99:99:99,999",
    b"00:00:01,000 --> 00:00:02,000", b"-->", b"WEBVTT", b"NOTE", b"0:00:01.000,0:00:02.000", b"<time>",
    b"\"\\ud800\"", b"\"\\u0000\"",
)


def mutate(data: bytes, rng: random.Random, others: Sequence[bytes] = (), steps: int | None = None) -> bytes:
    """``data`` changed by 1 to 4 random edits: bit flips, truncation, deletion, duplication of a slice,
    insertion of a TOKEN, or a splice of another seed."""
    out = bytearray(data)
    for _ in range(steps or rng.randint(1, 4)):
        at = rng.randint(0, len(out))
        kind = rng.randrange(6)
        if kind == 0 and out:
            at = min(at, len(out) - 1)
            out[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            del out[at:]
        elif kind == 2:
            del out[at : at + rng.randint(1, 64)]
        elif kind == 3:
            start = rng.randint(0, len(out))
            piece = bytes(out[start : start + rng.randint(1, 256)])
            out[at:at] = piece * rng.randint(1, 8)
        elif kind == 4 or not others:
            out[at:at] = rng.choice(TOKENS)
        else:
            other = rng.choice(others)
            start = rng.randint(0, len(other))
            out[at:at] = other[start : start + rng.randint(1, 512)]
    return bytes(out)


def seeded_rng(*parts: object) -> random.Random:
    """A generator whose numbers depend only on ``parts`` (file name, parser): the same mutations every run."""
    return random.Random(zlib.crc32(repr(parts).encode()))


@st.composite
def mutated(draw: st.DrawFn, seeds: Sequence[bytes]) -> bytes:
    """A seed changed by 1 to 4 edits chosen by hypothesis (so a failure shrinks to fewer, simpler edits).

    Positions come from a hypothesis-controlled Random: hypothesis' own integers favour small values, which
    would cut nearly every seed near its start.
    """
    out = bytearray(draw(st.sampled_from(seeds)))
    rng = draw(st.randoms(use_true_random=False))
    for _ in range(draw(st.integers(1, 4))):
        at = rng.randint(0, len(out))
        kind = draw(st.sampled_from(("flip", "truncate", "delete", "duplicate", "token", "splice")))
        if kind == "flip" and out:
            at = min(at, len(out) - 1)
            out[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "truncate":
            del out[at:]
        elif kind == "delete":
            del out[at : at + draw(st.integers(1, 64))]
        elif kind == "duplicate":
            start = rng.randint(0, len(out))
            out[at:at] = bytes(out[start : start + draw(st.integers(1, 256))]) * draw(st.integers(1, 8))
        elif kind == "token":
            out[at:at] = draw(st.sampled_from(TOKENS))
        elif kind == "splice":
            other = draw(st.sampled_from(seeds))
            start = rng.randint(0, len(other))
            out[at:at] = other[start : start + draw(st.integers(1, 512))]
    return bytes(out)
