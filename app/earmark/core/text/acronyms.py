"""Acronyms defined beside their expansion in a text: "Fully Sharded Data Parallel (FSDP)", "PT2 (PyTorch 2)"."""

from __future__ import annotations

import re
from functools import lru_cache

from earmark.core.text.identifiers import split_identifier
from earmark.core.text.words import words

_BRACKETED = re.compile(r"\(([^()\n]{1,80})\)")
_SENTENCE_END = re.compile(r"[.!?;:()\n](?:\s|$)|[()\n]")
LOOK_BACK = 120  # characters before a bracket where its expansion may be
_ACRONYM = re.compile(r"^(?=(?:[^A-Z]*[A-Z]){2})[A-Za-z][A-Za-z0-9]{1,9}$")  # two capitals or more: FSDP, PT2
# Small words an expansion may skip or use: "Bidirectional Encoder Representations from Transformers" (BERT).
_SMALL = frozenset("a an and as at by for from in of on or the to with".split())
MAX_EXTRA_WORDS = 3  # an expansion has at most this many more words than its acronym has letters


def acronym_definitions(text: str) -> list[tuple[str, str]]:
    """(acronym, expansion) pairs defined in ``text``, both lower case, the expansion's words separated by single
    spaces: "Fully Sharded Data Parallel (FSDP)" and "FSDP (Fully Sharded Data Parallel)" both give
    (fsdp, fully sharded data parallel). The expansion's initials must spell the acronym; a CamelCase word may
    give the initials of its parts (PyTorch 2 → PT2) and small words (of, and, the) may be skipped."""
    found: list[tuple[str, str]] = []
    for bracket in _BRACKETED.finditer(text):
        inside = bracket.group(1).strip()
        before = [w.surface for w in words(_sentence_before(text, bracket.start()))]
        if _ACRONYM.match(inside) and before:
            expansion = _expansion_ending(before, inside)
            if expansion:
                found.append((inside.lower(), expansion))
        elif before and _ACRONYM.match(before[-1]):
            inner = [w.surface for w in words(inside)]
            if inner and _spells(before[-1], tuple(inner)):
                found.append((before[-1].lower(), _joined(inner)))
    return found


def _sentence_before(text: str, end: int) -> str:
    """The text before ``end`` back to the start of its sentence (at most LOOK_BACK characters)."""
    return _SENTENCE_END.split(text[max(0, end - LOOK_BACK):end])[-1]


def _expansion_ending(before: list[str], acronym: str) -> str | None:
    """The shortest run of words ending ``before`` whose initials spell ``acronym``."""
    for size in range(1, min(len(before), len(_GROUP.findall(acronym)) + MAX_EXTRA_WORDS) + 1):
        run = tuple(before[-size:])
        if run[0].lower() not in _SMALL and _spells(acronym, run):
            return _joined(list(run))
    return None


def _joined(surfaces: list[str]) -> str:
    return " ".join(surface.lower() for surface in surfaces)


_GROUP = re.compile(r"[A-Z0-9][a-z]*|[a-z]+")  # LoRA → Lo, R, A: lower-case letters come from the same word


@lru_cache(maxsize=4096)
def _spells(acronym: str, run: tuple[str, ...]) -> bool:
    """Whether the words of ``run`` spell ``acronym``: each word (but small ones, which may also be skipped)
    gives the start of the next letter group, or of as many groups as it has parts (PyTorch → P, T; Low-Rank →
    Lo, R)."""
    groups = tuple(group.lower() for group in _GROUP.findall(acronym))
    return _match(groups, 0, run, 0)


def _match(groups: tuple[str, ...], at: int, run: tuple[str, ...], index: int) -> bool:
    if index == len(run):
        return at == len(groups)
    surface = run[index]
    if surface.lower() in _SMALL and _match(groups, at, run, index + 1):
        return True
    for pieces in _readings(surface):
        wanted = groups[at:at + len(pieces)]
        if len(wanted) == len(pieces) and all(piece.startswith(group) for piece, group in zip(pieces, wanted,
                                                                                                strict=True)) \
                and _match(groups, at + len(pieces), run, index + 1):
            return True
    return False


def _readings(surface: str) -> list[tuple[str, ...]]:
    """How a word may spell letters: whole (PyTorch → p…), or part by part (PyTorch → p…, t…)."""
    parts = split_identifier(surface)
    whole = (surface.lower(),)
    return [whole, parts] if parts else [whole]
