"""What the user typed as an FTS5 MATCH expression that also finds words inside compound names and aliases.

Each word the user typed becomes a group of alternatives: the word itself (the last one also as a prefix), the
library's compound names that contain it ("autograd" → AOTAutograd), and its aliases from the maintained table
and from the library (FSDP ↔ Fully Sharded Data Parallel, Inductor ↔ TorchInductor). A run of typed words that
is an alias is one group ("fully sharded data parallel" → or FSDP). Every group must match, as before.

The index keeps which columns hold a word, not where: an alias of several words matches when all its words are
there. Only aliases whose words are specific enough for that are used (fully sharded data parallel, torch
inductor), not those made of short words or numbers (pytorch 2, just in time), which would match nearly anything.
"""

from __future__ import annotations

import sqlite3
from functools import lru_cache

from earmark.core.db.search_words import fold, key_of, learnt_aliases, query_words, words_containing
from earmark.core.text import maintained

MAX_ALIAS_WORDS = 5  # the longest alias looked for in a run of typed words
MIN_ALIAS_WORD = 3  # letters each word of a several-word alias needs to be used without its word order


@lru_cache(maxsize=1)
def _groups() -> dict[str, tuple[str, ...]]:
    """The maintained aliases by key (see key_of): each name → every name of its group."""
    found: dict[str, tuple[str, ...]] = {}
    for group in maintained().groups():
        keys = tuple(dict.fromkeys(key_of(name) for name in group))
        found.update((key, keys) for key in keys)
    return found


def _term(word: str, prefix: bool = False) -> str:
    return f'"{word}"*' if prefix else f'"{word}"'


def _all_of(name: str) -> str:
    words = name.split()
    return _term(words[0]) if len(words) == 1 else "(" + " ".join(_term(word) for word in words) + ")"


def _specific(name: str) -> bool:
    words = name.split()
    return len(words) == 1 or all(len(word) >= MIN_ALIAS_WORD and word.isalpha() for word in words)


def _aliases(conn: sqlite3.Connection, name: str) -> list[str]:
    """The other names of ``name`` (a key) that a search may use (not those holding ``name`` itself: they could
    only find what ``name`` finds)."""
    names = [*_groups().get(name, ()), *learnt_aliases(conn, name)]
    return [_all_of(other) for other in dict.fromkeys(names)
            if other != name and _specific(other) and name not in other.split()]


def _alternatives(options: list[str]) -> str:
    unique = list(dict.fromkeys(options))
    return unique[0] if len(unique) == 1 else "(" + " OR ".join(unique) + ")"


def match_expression(conn: sqlite3.Connection, text: str) -> str:
    """The MATCH expression for ``text`` (empty when it holds no word): every typed word or alias run must
    match; the last word (of two letters or more) matches as a prefix as well. The pieces of a name typed with
    punctuation (__torch_function__, torch.compile) are taken as they are: that name is what is looked for."""
    words: list[tuple[str, bool]] = []  # (folded word, whether it is one piece of a longer typed name)
    for chunk in text.split():
        pieces = [fold(piece) for piece in query_words(chunk)]
        words += [(piece, len(pieces) > 1) for piece in pieces]
    groups: list[str] = []
    at = 0
    while at < len(words):
        word, literal = words[at]
        run = 0 if literal else _alias_run(conn, words, at)
        if run:
            name = " ".join(each for each, _ in words[at:at + run])
            groups.append(_alternatives([_all_of(name), *_aliases(conn, name)]))
            at += run
            continue
        prefix = at == len(words) - 1 and len(word) >= 2  # a one-letter prefix matches nearly everything
        options = [_term(word, prefix)]
        if not literal:
            options += [_term(whole) for whole in words_containing(conn, word, prefix)] + _aliases(conn, word)
        groups.append(_alternatives(options))
        at += 1
    return " AND ".join(groups)


def _alias_run(conn: sqlite3.Connection, words: list[tuple[str, bool]], at: int) -> int:
    """How many typed words from ``at`` on form a known alias of two words or more (0 when none does)."""
    for size in range(min(MAX_ALIAS_WORDS, len(words) - at), 1, -1):
        if any(literal for _, literal in words[at:at + size]):
            continue
        name = " ".join(each for each, _ in words[at:at + size])
        if name in _groups() or learnt_aliases(conn, name):
            return size
    return 0
