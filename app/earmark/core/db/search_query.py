"""What the user typed as an FTS5 MATCH expression that also finds words inside compound names and aliases.

Each word the user typed becomes a group of alternatives: the word itself (the last one also as a prefix), the
library's compound names that contain it ("autograd" → AOTAutograd), and its aliases from the maintained table
and from the library (FSDP ↔ Fully Sharded Data Parallel, Inductor ↔ TorchInductor). A run of typed words that
is an alias is one group ("fully sharded data parallel" → or FSDP). Every group must match, as before.

An alias of several words is looked for as a phrase ("fully sharded data parallel", "pytorch 2").
"""

from __future__ import annotations

import re
import sqlite3
from functools import lru_cache

from earmark.core.db.search_words import fold, key_of, learnt_aliases, query_words, words_containing

MAX_ALIAS_WORDS = 5  # the longest alias looked for in a run of typed words
# A typed word or name: what spaces and punctuation other than that inside names (torch.compile,
# __torch_function__, all-reduce, aten::add, don't) separate.
_TYPED = re.compile(r"[\w.\-:/'’]+")


@lru_cache(maxsize=1)
def _groups() -> dict[str, tuple[str, ...]]:
    """The maintained aliases by key (see key_of): each name → every name of its group (the analyser and its
    table load with the first search, not with the list a start shows)."""
    from earmark.core.text import maintained

    found: dict[str, tuple[str, ...]] = {}
    for group in maintained().groups():
        keys = tuple(dict.fromkeys(key_of(name) for name in group))
        found.update((key, keys) for key in keys)
    return found


def _phrase(name: str) -> str:
    """A name (a key: words separated by single spaces) as an FTS5 phrase."""
    return f'"{name}"'


def _aliases(conn: sqlite3.Connection, name: str) -> list[str]:
    """The other names of ``name`` (a key) that a search may use (not those holding ``name`` itself: they could
    only find what ``name`` finds)."""
    names = [*_groups().get(name, ()), *learnt_aliases(conn, name)]
    return [_phrase(other) for other in dict.fromkeys(names) if other != name and name not in other.split()]


def _alternatives(options: list[str]) -> str:
    unique = list(dict.fromkeys(options))
    return unique[0] if len(unique) == 1 else "(" + " OR ".join(unique) + ")"


def match_expression(conn: sqlite3.Connection, text: str) -> str:
    """The MATCH expression for ``text`` (empty when it holds no word): every typed word or alias run must
    match; the last word (of two letters or more) matches as a prefix as well. A name typed with punctuation
    (__torch_function__, torch.compile) is looked for as typed: its pieces as a phrase."""
    words: list[str] = []  # the typed words, a name typed with punctuation as one phrase ("torch function")
    for chunk in _TYPED.findall(text):
        pieces = [fold(piece) for piece in query_words(chunk)]
        if pieces:
            words.append(" ".join(pieces))
    groups: list[str] = []
    at = 0
    while at < len(words):
        run = _alias_run(conn, words, at)
        if run:
            name = " ".join(words[at:at + run])
            groups.append(_alternatives([_phrase(name), *_aliases(conn, name)]))
            at += run
            continue
        word = words[at]
        prefix = at == len(words) - 1 and len(word.rsplit(" ", 1)[-1]) >= 2  # a one-letter prefix: nearly all
        options = [_phrase(word) + ("*" if prefix else "")]
        if " " not in word:
            options += [_phrase(whole) for whole in words_containing(conn, word, prefix)] + _aliases(conn, word)
        groups.append(_alternatives(options))
        at += 1
    return " AND ".join(groups)


def _alias_run(conn: sqlite3.Connection, words: list[str], at: int) -> int:
    """How many typed words from ``at`` on form a known alias of two words or more (0 when none does)."""
    for size in range(min(MAX_ALIAS_WORDS, len(words) - at), 1, -1):
        if any(" " in word for word in words[at:at + size]):
            continue
        name = " ".join(words[at:at + size])
        if name in _groups() or learnt_aliases(conn, name):
            return size
    return 0
