"""What of a text the topic graph leaves out: sponsor lines, link lists under a heading ("Links:"), the lines
a source repeats in most of its items; and the stop words no concept starts or ends with."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

# Common English words, plus words every episode description uses ("episode", "discusses"): they say nothing
# about what an item is about, so no phrase starts or ends with one and none is a phrase on its own.
STOP_WORDS = frozenset("""
a about above after again against all almost along already also although always am among an and another any
anyone anything are around as at away back be became because become becomes been before being below between
both but by came can cannot could did do does doing done down during each either else enough even ever every
few for from further get gets getting give given gives go goes going got had has have having he her here hers
him his how however i if in into is isn it its itself just keep know known last less let like ll made make
makes many may me might more most much must my near need needs never new next no nor not now of off often on
once one only onto or other others our out over own part per perhaps put quite rather re really same say says
see seem seems several she should show shows since so some something still such take takes than that the their
them then there these they thing things this those though through thus to together too toward under until up
upon us use used uses using ve very via want was way ways we well went were what whatever when where whether
which while who whole whom whose why will with within without would yet you your yours
episode episodes podcast podcasts show notes talk talks discuss discusses discussed explain explains explained
cover covers covered look looks listen hear read article today week links link go goes whole good great lot lots
include includes including topic topics
""".split())
# Lines that every source repeats in some form: sponsor reads, calls to subscribe, headings of link lists.
_BOILERPLATE_LINE = re.compile(
    r"^\s*(?:links?|further reading|show notes|credits|transcript|sponsor(?:ed)?(?: by)?|this episode is "
    r"(?:sponsored|brought to you)|support (?:the|this) (?:show|podcast)|subscribe|follow us|rate and review)\b",
    re.IGNORECASE)
_FOOTER_HEADING = re.compile(
    r"^\s*(?:links?|further reading|references|resources|related links|mentioned in (?:this|the) (?:episode|show)|"
    r"show notes|sponsors?|credits)\s*:?\s*$", re.IGNORECASE)
FOOTER_LINE_CHARS = 160  # a link list's lines are link texts: a longer line is prose again
BOILERPLATE_SHARE = 0.5  # a line in at least this share of a source's items is the source's boilerplate
BOILERPLATE_MIN_ITEMS = 4
_BOILERPLATE_MIN_CHARS = 20


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A plural's singular, crudely (``graphs`` → ``graph``, ``classes`` stays): enough to join the forms of a
    word in short texts."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "'s")):
        return word[:-1]
    return word


def line_key(line: str) -> str:
    """A line reduced to its words, for spotting the same line in many items."""
    return " ".join(re.findall(r"[a-z]+", line.lower()))


def boilerplate(texts: Iterable[str]) -> frozenset[str]:
    """The line keys that at least BOILERPLATE_SHARE of ``texts`` (one source's items) have."""
    texts = list(texts)
    if len(texts) < BOILERPLATE_MIN_ITEMS:
        return frozenset()
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update({key for line in text.splitlines()
                       if len(key := line_key(line)) >= _BOILERPLATE_MIN_CHARS})
    return frozenset(key for key, count in counts.items() if count >= BOILERPLATE_SHARE * len(texts))


def clean(text: str, shared: frozenset[str] = frozenset()) -> str:
    """``text`` without sponsor lines, the source's ``shared`` boilerplate, and link lists: a heading such as
    "Links:" or "Further reading" and the short lines under it (an item's own footer, not what it is about). Web
    addresses stay: the analyser that reads the text skips them."""
    lines = []
    in_footer = False
    for line in text.splitlines():
        if _FOOTER_HEADING.match(line):
            in_footer = True
            continue
        if in_footer and line.strip() and len(line) <= FOOTER_LINE_CHARS:
            continue
        in_footer = False
        if not _BOILERPLATE_LINE.match(line) and (not shared or line_key(line) not in shared):
            lines.append(line)
    return "\n".join(lines)
