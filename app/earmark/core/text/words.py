"""The words of a text as the analyser reads them: each one whole (lower case) and, for a compound name, its parts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from earmark.core.records import record
from earmark.core.text.identifiers import normal_form, split_identifier

# A word: letters and digits, with underscores anywhere and single dots, hyphens or pluses between its letters
# (torch.compile, __torch_function__, all-reduce, c++). Web addresses are not words (they are skipped).
_WORD = re.compile(r"_*[^\W_]\w*(?:[.\-+][^\W_]\w*)*\+*")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# Where a name that FTS5 keeps whole may hide parts: a capital letter or a digit inside a word (see case_compounds;
# a pattern that starts with one set of characters is what Python's re scans fastest).
MAX_NAME = 32  # characters; longer "names" are hashes or run-together text
MAX_DIGIT_CHANGES = 2  # letters/digits alternating more often than this: an identifier, not a name (uint8, GPT4o pass)
_HINT = re.compile(r"[A-Z0-9](?<=[^\W_][A-Z0-9])[^\W_]*")  # the hint and the rest of its word
# What a phrase never crosses: a sentence's end, a comma, a bracket or quote, a dash between spaces, a line break.
# No word holds a break nor starts inside one, so cutting at the breaks first and finding the words of each run
# after finds what one scan for both would (and is faster: each step is one C call).
_BREAK = re.compile(r"[.!?;:](?=\s|$)|[,()\[\]{}\"“”«»|]|\s[-–—]\s|\n")


@record(frozen=True)
class Word:
    """One written word: as written, whole (lower case), and its parts when it is a compound name."""

    surface: str  # AOTAutograd
    whole: str  # aotautograd
    parts: tuple[str, ...]  # (aot, autograd); () for a plain word


@lru_cache(maxsize=65536)
def word(surface: str) -> Word:
    """The Word for one written word (``AOTAutograd`` → whole ``aotautograd``, parts ``aot``, ``autograd``)."""
    return Word(surface, normal_form(surface), split_identifier(surface))


def words(text: str) -> Iterator[Word]:
    """Every word of ``text`` in order (web addresses left out)."""
    for match in _WORD.finditer(_URL.sub(" ", text)):
        yield word(match.group())


def run_surfaces(text: str) -> list[list[str]]:
    """The words of ``text`` as written, in runs that a phrase never crosses (a sentence's end, a comma, a bracket
    or quote, a dash between spaces, a line break); web addresses left out."""
    return list(filter(None, map(_WORD.findall, _BREAK.split(_URL.sub(" ", text)))))


def runs(text: str) -> Iterator[list[Word]]:
    """The words of ``text`` in runs (see run_surfaces)."""
    for surfaces in run_surfaces(text):
        yield list(map(word, surfaces))


def tokens(text: str) -> list[str]:
    """Every word of ``text``, lower case: each whole, followed by its parts when it is a compound name
    (``AOTAutograd and FP8`` → aotautograd, aot, autograd, and, fp8, fp, 8)."""
    found: list[str] = []
    for each in words(text):
        found.append(each.whole)
        found.extend(part for part in each.parts if part != each.whole)
    return found


@lru_cache(maxsize=65536)
def _compound(surface: str) -> tuple[str, ...]:
    """The parts of a name for the vocabulary, or () for no name: hashes and identifiers from web addresses
    (1dee99c973fd…, i6v7gqw5byv6) are no vocabulary."""
    if len(surface) > MAX_NAME:
        return ()
    parts = split_identifier(surface)
    changes = sum(a.isdigit() != b.isdigit() for a, b in zip(parts, parts[1:], strict=False))
    return () if changes > MAX_DIGIT_CHANGES else parts


def case_compounds(text: str) -> dict[str, tuple[str, ...]]:
    """The compound names of ``text`` that only capitals or digits cut (AOTAutograd, CUDAGraph, FP8, PyTorch), whole
    (lower case) → parts: what a full-text index that splits at punctuation only does not know.

    Fast on plain prose (about 10 µs for 2 KB): only words holding a capital or a digit after their first
    character are looked at.
    Names whose parts punctuation already separates (torch.compile, torch_function) are not listed.
    """
    found: dict[str, tuple[str, ...]] = {}
    for hint in _HINT.finditer(text):
        start = hint.start() - 1
        while start and text[start - 1].isalnum():
            start -= 1
        surface = text[start:hint.end()]
        parts = _compound(surface)
        if parts:
            found[surface.lower()] = parts
    return found

