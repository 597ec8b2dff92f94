"""Checks that a library's search index and vocabulary are what a rebuild from its content would give."""

from __future__ import annotations

import re

from earmark.core.db.database import Database
from earmark.core.db.search_words import relearn_all

_PROBE = re.compile(r"[^\W_]+")
MAX_PROBES = 600


def _vocabulary(db: Database) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    words = db.execute("SELECT part, word FROM search_words ORDER BY 1, 2").fetchall()
    aliases = db.execute("SELECT name, alias FROM search_aliases ORDER BY 1, 2").fetchall()
    return words, aliases


def _probes(db: Database) -> list[str]:
    """Words of the library to search for: every word of notes, transcripts and highlights, and a spread of the
    words of titles and texts."""
    small: set[str] = set()
    big: set[str] = set()
    for title, text, notes, transcript, highlights in db.execute(
            "SELECT title, text, notes, transcript, highlights FROM search_content"):
        small.update(_PROBE.findall(f"{notes} {transcript} {highlights}".lower()))
        big.update(_PROBE.findall(f"{title} {text}".lower()))
    spread = sorted(big - small)
    step = max(1, len(spread) // MAX_PROBES)
    return sorted(small) + spread[::step] + ["nothingatallmatchesthis"]


def _matches(db: Database, words: list[str]) -> dict[str, list[int]]:
    return {word: [row[0] for row in db.execute(
        "SELECT rowid FROM search_index WHERE search_index MATCH ? ORDER BY rowid", [f'"{word}"'])]
        for word in words}


def assert_index_in_step(db: Database, *, learnt: bool = True) -> None:
    """The search index holds exactly what its content (items, notes, transcripts, highlights) holds: FTS5's own
    check against the content passes, and every probe word finds the same items before and after a rebuild.
    With ``learnt``, no item is left to learn and the vocabulary of compound names knows every word that learning
    every item again gives (it may know more: a word whose text changed stays, and only widens a search a little).
    """
    db.execute("INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)")
    probes = _probes(db)
    before = _matches(db, probes)
    vocabulary = _vocabulary(db)
    pending = db.execute("SELECT count(*) FROM search_pending").fetchone()[0]
    db.execute("SAVEPOINT rebuild_check")
    try:
        db.execute("INSERT INTO search_index (search_index) VALUES ('rebuild')")
        assert _matches(db, probes) == before
        relearn_all(db.conn)
        relearnt = _vocabulary(db)
    finally:
        db.execute("ROLLBACK TO rebuild_check")
        db.execute("RELEASE rebuild_check")
    if learnt:
        assert pending == 0
        assert set(relearnt[0]) <= set(vocabulary[0]) and set(relearnt[1]) <= set(vocabulary[1])
