"""A transcript written with the show's own spelling of its names: a name the engine heard as separate words
("torch Dynamo", "AOT autograd", "open AI") or said out ("C plus plus", "torch dot compile"), or in the wrong
case ("pytorch"), is written as the episode's vocabulary writes it (TorchDynamo, AOTAutograd, OpenAI, C++,
torch.compile, PyTorch). Heard words make a name only where the name's own parts meet (torch|Dynamo, AOT|Autograd):
"a ten" does not become ATen. Only where the engine was unsure of what it wrote, heard words that sound as a name
of the episode (core/transcribe/sounds.py) are written as the name: "a 10" heard doubtfully becomes ATen. Search
finds the name as the show writes it, and a note's quote reads right."""

from __future__ import annotations

import re

from earmark.core.text.identifiers import looks_technical, split_identifier
from earmark.core.transcribe.sounds import sound_key

_HEARD_WORD = re.compile(r"[^\W_]+")  # letters and digits: what a heard name is made of
_JOINER = re.compile(r"[ ,\-]{1,3}")  # what may stand between the parts of one name as the engine writes it
_SAID = (("++", " plus plus "), ("#", " sharp "), (".", " dot "))  # how a name's signs are said
MAX_PARTS = 4  # heard words one name may come as (torch dot compile)
MIN_KEY = 3  # shorter names (C, Go) are left alone: too many plain words sound like them
MIN_SOUND = 4  # a sound key this long at least: shorter ones (atm, kat) are shared by too many plain words
ONE_WORD_SOUND = 6  # one heard word is a name by its sound only this long ("Tryton"): "eaten" stays, not ATen


def spellings(terms: list[str]) -> dict[str, str]:
    """How each name of the vocabulary may be heard (lower-case words: the name whole, its parts, or said out)
    → the name as written. Only names: plain words (Play, The) keep the case the engine gave them."""
    found: dict[str, str] = {}
    for term in terms:
        if not _written_as_name(term):
            continue
        parts = split_identifier(term)
        said = term
        for sign, words in _SAID:
            said = said.replace(sign, words)
        for key in (_key(term, ""), " ".join(parts), _key(said)):
            if len(key.replace(" ", "")) >= MIN_KEY:
                found.setdefault(key, term)
    return found


def sounds(terms: list[str]) -> dict[str, str]:
    """How each name of the vocabulary sounds (sounds.sound_key) → the name, for the names spellings keeps and
    the capitalised words of a long sound (Triton: heard as one word only); a sound two names share is left
    out."""
    found: dict[str, str] = {}
    shared: set[str] = set()
    capitalised = (term for term in terms if term[:1].isupper() and term.isalpha())
    for term in dict.fromkeys([*spellings(terms).values(), *capitalised]):
        key = sound_key(_key(term).split())
        if len(key) >= (MIN_SOUND if _written_as_name(term) else ONE_WORD_SOUND):
            if found.get(key, term) != term:
                shared.add(key)
            found[key] = term
    return {key: term for key, term in found.items() if key not in shared}


def respell(text: str, names: dict[str, str], sounding: dict[str, str] | None = None,
            doubtful: tuple[tuple[int, int], ...] = ()) -> str:
    """``text`` with every run of heard words that spells one of ``names`` (from spellings) written as the name;
    and every run of two or more words that sounds as one of ``sounding`` (from sounds) with a word the engine
    was unsure of (``doubtful``: where such words stand in ``text``)."""
    if not names:
        return text
    words = list(_HEARD_WORD.finditer(text))
    unsure = [any(start < word.end() and word.start() < end for start, end in doubtful) for word in words]
    pieces: list[str] = []
    kept_to = 0
    at = 0
    while at < len(words):
        parts, name = _longest_name(text, words, at, names)
        if not parts and sounding:
            parts, name = _sounded_name(text, words, unsure, at, sounding)
        if parts:
            pieces += [text[kept_to:words[at].start()], name]
            kept_to = words[at + parts - 1].end()
            at += parts
        else:
            at += 1
    pieces.append(text[kept_to:])
    return "".join(pieces)


def _longest_name(text: str, words: list[re.Match[str]], at: int, names: dict[str, str]) -> tuple[int, str]:
    """How many heard words from ``at`` on spell a name, and the name (0 and "": none). Parts are joined only by
    a space, a comma or a hyphen, never across a sentence's end."""
    for parts in range(min(MAX_PARTS, len(words) - at), 0, -1):
        if _joined(text, words[at:at + parts]):
            name = names.get(_key(text[words[at].start():words[at + parts - 1].end()]))
            if name is not None:
                return parts, name
    return 0, ""


def _sounded_name(text: str, words: list[re.Match[str]], unsure: list[bool], at: int,
                  sounding: dict[str, str]) -> tuple[int, str]:
    """As _longest_name, by sound: two or more joined words from ``at`` on, one of them doubtful, for a name
    written as one (TorchDynamo, ATen); or one doubtful word of a long sound (ONE_WORD_SOUND) written otherwise
    ("Tryton" for Triton)."""
    for parts in range(min(MAX_PARTS, len(words) - at), 0, -1):
        if any(unsure[at:at + parts]) and _joined(text, words[at:at + parts]):
            key = sound_key(_key(text[words[at].start():words[at + parts - 1].end()]).split())
            name = sounding.get(key)
            if name is not None and (_written_as_name(name) if parts > 1 else
                                     len(key) >= ONE_WORD_SOUND and name.lower() != words[at].group().lower()):
                return parts, name
    return 0, ""


def _written_as_name(term: str) -> bool:
    """A name as spellings keeps them (PyTorch, C++), not a capitalised word (Triton, The)."""
    return looks_technical(term) or any(sign in term for sign in "+#")


def _joined(text: str, run: list[re.Match[str]]) -> bool:
    return all(_JOINER.fullmatch(text[a.end():b.start()]) for a, b in zip(run, run[1:], strict=False))


def _key(text: str, between: str = " ") -> str:
    return between.join(_HEARD_WORD.findall(text.lower()))
