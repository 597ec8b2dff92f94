"""Highlights anchored to quoted text: made from a selection, found again in the article however it is rendered.

Offsets shift when an article is rendered anew (another font, a re-fetched page, plain text from another
renderer), so a highlight keeps its quote and the words around it. Matching ignores how whitespace is laid out.
"""

from __future__ import annotations

from earmark.core.models import Anchor

CONTEXT_CHARS = 32


class _Folded:
    """A text with each run of whitespace folded to one space (and, with ``caseless``, lower-cased), and the
    offset in the original text of every character kept."""

    def __init__(self, text: str, caseless: bool = False) -> None:
        chars: list[str] = []
        offsets: list[int] = []
        for offset, char in enumerate(text):
            if char.isspace():
                if chars and chars[-1] == " ":
                    continue
                char = " "
            elif caseless and len(char.lower()) == 1:
                char = char.lower()
            chars.append(char)
            offsets.append(offset)
        self.text = "".join(chars)
        self.offsets = offsets

    def span(self, start: int, length: int) -> tuple[int, int]:
        """The original span of ``length`` folded characters from folded offset ``start``."""
        return self.offsets[start], self.offsets[start + length - 1] + 1


def fold(text: str, caseless: bool = False) -> str:
    """``text`` with whitespace runs folded to single spaces, trimmed (and lower-cased with ``caseless``)."""
    return _Folded(text.strip(), caseless).text


def whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """``text[start:end]`` widened to whole words, as readers expect of a sloppy drag ("ior PyTorch developers
    fr" becomes "Senior PyTorch developers from"); a span starting or ending between words stays as it is."""
    def inside(at: int) -> bool:  # between two characters of one word
        return 0 < at < len(text) and _word_char(text[at - 1]) and _word_char(text[at])

    while start < end and inside(start):
        start -= 1
    while inside(end):
        end += 1
    return start, end


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_'’-"


def make_anchor(text: str, start: int, end: int) -> tuple[str, Anchor]:
    """The quote ``text[start:end]`` (trimmed of surrounding whitespace) and the anchor that finds it again."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    prefix = fold(text[max(0, start - CONTEXT_CHARS):start] + "\x00")[:-1]  # keeps a trailing space
    suffix = fold("\x00" + text[end:end + CONTEXT_CHARS])[1:]
    return text[start:end], Anchor(prefix=prefix, suffix=suffix, start=start)


def find_text(text: str, wanted: str) -> tuple[int, int] | None:
    """Where ``wanted`` first occurs in ``text``: as written, else ignoring case (whitespace never counts)."""
    for caseless in (False, True):
        folded, needle = _Folded(text, caseless), fold(wanted, caseless)
        at = folded.text.find(needle) if needle else -1
        if at >= 0:
            return folded.span(at, len(needle))
    return None


def locate(text: str, quote: str, anchor: Anchor) -> tuple[int, int] | None:
    """Where the highlight of ``quote`` is in ``text`` now: of every occurrence of the quote, the one whose
    surroundings best match the anchor's, the nearest to where it was on a tie. None when the quote is gone."""
    folded, needle = _Folded(text), fold(quote)
    if not needle:
        return None
    candidates: list[int] = []
    at = folded.text.find(needle)
    while at >= 0:
        candidates.append(at)
        at = folded.text.find(needle, at + 1)
    if not candidates:
        return None

    def score(at: int) -> tuple[int, int]:
        before = folded.text[max(0, at - len(anchor.prefix)):at]
        after = folded.text[at + len(needle):at + len(needle) + len(anchor.suffix)]
        context = _common_suffix(before, anchor.prefix) + _common_prefix(after, anchor.suffix)
        return context, -abs(folded.offsets[at] - anchor.start)

    best = max(candidates, key=score)
    return folded.span(best, len(needle))


def _common_prefix(a: str, b: str) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _common_suffix(a: str, b: str) -> int:
    return _common_prefix(a[::-1], b[::-1])
