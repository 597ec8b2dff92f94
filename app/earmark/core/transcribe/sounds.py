"""How a name sounds, roughly: a key that words heard for it share with the name as written ("a 10" and ATen
both sound "aten"), for names the engine broke into pieces it knew. Letters that sound alike are made one,
every run of vowels is one vowel, front (e, i, y) or back (a, o, u), numbers are said out."""

from __future__ import annotations

import re

_NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen twenty").split()
_SPELLED = (("x", "ks"), ("ph", "f"), ("gh", ""), ("ck", "k"), ("sch", "sk"), ("tch", "x"), ("ch", "x"), ("sh", "x"),
            ("th", "0"), ("wh", "w"), ("qu", "kw"), ("q", "k"), ("z", "s"), ("dg", "j"),
            (r"c(?=[eiy])", "s"), ("c", "k"), (r"(?<=[aeiouy])h", ""))
_VOWELS = re.compile(r"[aeiouy]+")
_DOUBLED = re.compile(r"(.)\1+")


def sound_key(words: list[str]) -> str:
    """The key of lower-case words said in a row ("" when one is neither letters nor a number up to twenty).
    A letter doubled across two words is said twice: "at ten" does not sound as "aten"."""
    keys = [_word_key(_NUMBERS[int(word)] if word.isdigit() and int(word) < len(_NUMBERS) else word)
            for word in words]
    return "".join(keys) if all(keys) else ""


def _word_key(spoken: str) -> str:
    if not (spoken.isascii() and spoken.isalpha()):
        return ""
    for letters, sound in _SPELLED:
        spoken = re.sub(letters, sound, spoken)
    return _DOUBLED.sub(r"\1", _VOWELS.sub(lambda vowels: "a" if vowels[0][0] in "aou" else "e", spoken))
