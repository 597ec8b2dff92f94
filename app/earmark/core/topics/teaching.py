"""What an item explains: the concepts its title names ("AOTAutograd", "CUDA graphs", "Reference counting"), read
with the analyser of technical words. A title about one concept explains it fully; a title naming several explains
each in part; the words of a phrase ("ATen" in "ATen APIs") are explained weakly; the pieces of a name ("autograd"
in AOTAutograd), the broader concepts the analyser adds (AOTAutograd is PT2) and a series' name ("Inductor" in
"Inductor - IR": the episode uses Inductor, it does not explain it) not at all. Its chapters' titles explain theirs
in part, and so does what its own words or its transcript say it explains ("It also introduces PrimTorch", "what
strides are") or say what it is on the way ("A FakeTensor is a tensor with no data …"). An item never learns from
another what its own title or chapters name (pieces included)."""

from __future__ import annotations

import re
from itertools import chain

from earmark.core.topics import concepts
from earmark.core.topics.scoring import series_name
from earmark.core.topics.vocabulary import broader

PIECE = 0.5  # of a maximal concept's share, for a piece of it
CHAPTER = 0.5  # of what a chapter's title explains: a chapter is a part of the item
SAID = 0.5  # of what the item's text says it explains: one subject among those of the item
# Words that say how a title treats its subject, not what the subject is ("Intro to distributed", "History of
# functorch"), as the analyser keeps them (stems).
_ABOUT = frozenset(("intro", "introduct", "histori", "anatomi", "question", "overview", "basic", "tour", "note",
                    "explain", "primer", "deep dive", "all about"))
_SERIES_SPLIT = re.compile(r"\s[-–—|]\s|:\s")
# "explains what strides are", "introduces PrimTorch, a new operator set", "an overview of CUDA graphs": the words
# after the verb up to a clause's end; "what a learning rate is"
_SAYS = re.compile(r"\b(?:explains|introduces|introduced|(?:an?|the)\s+(?:overview|explainer|introduction|primer)\s+"
                   r"(?:of|on|to))\s+(?:what|how|why)?\s*(?P<what>[^.,;:!?()\n]+)", re.IGNORECASE)
_WHAT_IS = re.compile(r"\bwhat\s+(?:an?\s+|the\s+)?(?P<what>[^.,;:!?()\n]{2,60}?)\s+(?:is|are)\b", re.IGNORECASE)
# Said on the way, as a transcript says it: "A guard is a check that …", "Guards are how Dynamo …": the subject of
# a sentence that says what it is (a few words, its sentence's start).
_DEFINES = re.compile(r"(?:^|(?<=[.!?])\s+)(?:so\s+|now\s+|basically\s+)?(?P<what>[\w.+#-]+(?:\s+[\w.+#-]+){0,3}?)"
                      r"\s+(?:is|are)\s+(?:basically\s+|just\s+|really\s+|simply\s+)?(?:an?|the|how|what|where)\s",
                      re.IGNORECASE)
# Sentence subjects that point back or stand for something unnamed ("This is a …", "The problem is the …").
_NO_SUBJECT = frozenset(("this", "that", "it", "there", "here", "which", "what", "who", "these", "those", "they",
                         "he", "she", "we", "you", "i", "one", "and", "but", "so", "now", "today", "episode",
                         "problem", "idea", "answer", "question", "point", "thing", "reason", "goal", "key", "trick",
                         "difference", "issue", "result", "plan", "catch", "upshot", "rule", "name", "other"))
_CLAUSE_END = re.compile(r"\s(?:and|or|with|in|on|to|for|from|through|against|between|that|which|as|by|is|are|was|"
                         r"were|work|works|does|do)(?:\s.*)?$|^(?:to|in|on|for)\s.*$", re.IGNORECASE)


def inside(term: str, other: str) -> bool:
    """Whether ``term`` is a word of the phrase ``other`` or a piece of the name ``other`` ("autograd" in
    "aotautograd")."""
    return term != other and (term in other.split() or term.replace(" ", "") in other.replace(" ", ""))


def title_concepts(title: str) -> list[tuple[str, float]]:
    """The concepts a title names, each with how much of it the item explains (0 to 1)."""
    subject = title
    if series_name(title) is not None:
        subject = _SERIES_SPLIT.split(title, maxsplit=1)[-1]
    found = list(dict.fromkeys(concepts.concepts(subject)))
    wider = broader()
    families = set(chain.from_iterable(wider.get(term, ()) for term in found))
    direct = [term for term in found if term not in families and term not in _ABOUT]
    flats = [term.replace(" ", "") for term in direct]
    joined = "\0".join(flats)  # a concept inside another is found twice in it (the title's are distinct)
    maximal = {term for term, flat in zip(direct, flats, strict=True) if joined.count(flat) == 1}
    share = 1.0 / len(maximal) if maximal else 0.0
    words = {word for term in maximal for word in term.split()}
    return [(term, share if term in maximal else share * PIECE if term in words else 0.0) for term in direct]


def said_subjects(text: str) -> list[str]:
    """What ``text`` says it explains or introduces, as written ("PrimTorch", "strides")."""
    found = []
    for pattern in (_SAYS, _WHAT_IS):
        for match in pattern.finditer(text):
            what = _CLAUSE_END.sub("", match["what"].strip())
            if what:
                found.append(what)
    return list(dict.fromkeys(found))


def defined_subjects(text: str) -> list[str]:
    """What ``text`` says what it is, as a sentence's subject ("A guard is a check that …": "guard")."""
    found = []
    for match in _DEFINES.finditer(text):
        words = match["what"].split()
        if words[0].lower() in ("the", "a", "an"):
            words = words[1:]
        if words and not any(word.lower() in _NO_SUBJECT for word in words):
            found.append(" ".join(words))
    return list(dict.fromkeys(found))


def item_concepts(title: str, chapters: str = "", text: str = "") -> list[tuple[str, float]]:
    """The concepts an item's title, chapter titles (one a line) and words (``text``, its transcript included:
    what it says it explains, what it says what it is) name, each with how much of it the item explains."""
    found = dict(title_concepts(title))
    parts = [(line, CHAPTER) for line in chapters.splitlines()] + [(what, SAID) for what in said_subjects(text)]
    for line, weight in parts:
        for term, strength in title_concepts(line):
            found[term] = max(found.get(term, 0.0), strength * weight)
    named = set(concepts.concepts(title))  # the series' name too: "Inductor IR is …" of "Inductor - IR"
    for what in defined_subjects(text):  # the whole thing defined, not its words, nor what the title names
        defined = title_concepts(what)
        if not named.intersection(term for term, _strength in defined):
            found.update((term, max(found.get(term, 0.0), SAID)) for term, strength in defined if strength >= 1.0)
    return list(found.items())
