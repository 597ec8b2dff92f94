"""Compound names split into their parts: CamelCase, letter/digit boundaries, dotted, snake and hyphenated names."""

from __future__ import annotations

import re
from functools import lru_cache

_SEPARATORS = re.compile(r"[._\-+]+")  # inside one name: torch.compile, __torch_function__, all-reduce, a+b
_UPPER, _LOWER, _DIGIT = "U", "L", "D"


def _kind(char: str) -> str:
    if char.isdigit():
        return _DIGIT
    return _UPPER if char.isupper() else _LOWER  # letters without case (CJK) count as lower case


def _case_parts(piece: str) -> list[str]:
    """A name without separators cut where its case or letters/digits change (AOTAutograd → AOT, Autograd)."""
    kinds = [_kind(char) for char in piece]
    cuts = [0]
    for at in range(1, len(piece)):
        before, here = kinds[at - 1], kinds[at]
        after = kinds[at + 1] if at + 1 < len(piece) else ""
        if (before == _DIGIT) != (here == _DIGIT) \
                or (before == _LOWER and here == _UPPER) \
                or (before == _UPPER and here == _UPPER and after == _LOWER):
            cuts.append(at)
    cuts.append(len(piece))
    parts = [piece[start:end] for start, end in zip(cuts, cuts[1:], strict=False)]
    return _kept_whole(parts)


def _kept_whole(parts: list[str]) -> list[str]:
    """Join back what is not a part of its own: a plural ``s`` after capitals (GPUs, APIs), a lone letter (ATen,
    iPhone, H100, x86, 3D)."""
    if len(parts) > 1 and len(parts[-1]) == 2 and parts[-1][1] == "s" and parts[-1][0].isupper() \
            and parts[-2].isupper():
        parts = [*parts[:-2], parts[-2] + parts[-1]]
    joined: list[str] = []
    for part in parts:
        if joined and len(joined[-1]) == 1 and joined[-1].isalpha():
            joined[-1] += part  # a lone letter belongs to what follows it
        else:
            joined.append(part)
    if len(joined) > 1 and len(joined[-1]) == 1 and joined[-1].isalpha():
        joined[-2:] = [joined[-2] + joined[-1]]  # ... or, at the end, to what precedes it
    return joined


@lru_cache(maxsize=65536)
def split_identifier(word: str) -> tuple[str, ...]:
    """The lower-case parts of a compound name, in order; ``()`` when ``word`` is not compound (a plain word, an
    acronym such as CUDA or GPUs, a name kept whole such as ATen, iPhone or H100).

    AOTAutograd → (aot, autograd); CUDAGraph → (cuda, graph); FP8 → (fp, 8); torch.compile → (torch, compile);
    __torch_function__ → (torch, function); all-reduce → (all, reduce).
    """
    parts = [part.lower() for piece in _SEPARATORS.split(word) if piece for part in _case_parts(piece)]
    return tuple(parts) if len(parts) > 1 else ()


def looks_technical(word: str) -> bool:
    """Written as a name rather than a plain word: capitals after the first letter (AOTAutograd, CUDA), digits
    beside letters, dots or underscores (FP8, torch.compile, __torch_function__)."""
    if not any(char.isalpha() for char in word):
        return False
    return any(char.isupper() for char in word[1:]) or any(char.isdigit() or char in "._" for char in word)


def normal_form(word: str) -> str:
    """How a written name is compared: lower case, without the underscores around it (__torch_function__ →
    torch_function)."""
    return word.strip("_").lower()
