"""A transcript written with the show's own spelling of its names: a name the engine heard as separate words
("torch Dynamo", "AOT autograd", "open AI") or said out ("C plus plus", "torch dot compile"), or in the wrong
case ("pytorch"), is written as the episode's vocabulary writes it (TorchDynamo, AOTAutograd, OpenAI, C++,
torch.compile, PyTorch). Heard words make a name only where the name's own parts meet (torch|Dynamo, AOT|Autograd):
"a ten" never becomes ATen. Search finds the name as the show writes it, and a note's quote reads right."""

from __future__ import annotations

import re

from earmark.core.text.identifiers import looks_technical, split_identifier

_HEARD_WORD = re.compile(r"[^\W_]+")  # letters and digits: what a heard name is made of
_JOINER = re.compile(r"[ ,\-]{1,3}")  # what may stand between the parts of one name as the engine writes it
_SAID = (("++", " plus plus "), ("#", " sharp "), (".", " dot "))  # how a name's signs are said
MAX_PARTS = 4  # heard words one name may come as (torch dot compile)
MIN_KEY = 3  # shorter names (C, Go) are left alone: too many plain words sound like them


def spellings(terms: list[str]) -> dict[str, str]:
    """How each name of the vocabulary may be heard (lower-case words: the name whole, its parts, or said out)
    → the name as written. Only names: plain words (Play, The) keep the case the engine gave them."""
    found: dict[str, str] = {}
    for term in terms:
        if not (looks_technical(term) or any(sign in term for sign in "+#")):
            continue
        parts = split_identifier(term)
        said = term
        for sign, words in _SAID:
            said = said.replace(sign, words)
        for key in (_key(term, ""), " ".join(parts), _key(said)):
            if len(key.replace(" ", "")) >= MIN_KEY:
                found.setdefault(key, term)
    return found


def respell(text: str, names: dict[str, str]) -> str:
    """``text`` with every run of heard words that spells one of ``names`` (from spellings) written as the name."""
    if not names:
        return text
    words = list(_HEARD_WORD.finditer(text))
    pieces: list[str] = []
    kept_to = 0
    at = 0
    while at < len(words):
        parts, name = _longest_name(text, words, at, names)
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
        run = words[at:at + parts]
        if any(not _JOINER.fullmatch(text[a.end():b.start()]) for a, b in zip(run, run[1:], strict=False)):
            continue
        name = names.get(_key(text[run[0].start():run[-1].end()]))
        if name is not None:
            return parts, name
    return 0, ""


def _key(text: str, between: str = " ") -> str:
    return between.join(_HEARD_WORD.findall(text.lower()))
