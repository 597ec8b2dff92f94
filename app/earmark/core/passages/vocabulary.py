"""How common a question's words are among the passages: each word stemmed by FTS5's own tokenizer (a table in
memory), its share of the passages read from the index's vocabulary (fts5vocab).

fts5vocab counts a word's passages by reading all of its entries (a word in a tenth of 260,000 passages: a few
milliseconds), so counts are kept until the index changes (SQLite's data_version tells when another connection
wrote, total_changes when this one did): as a question is typed, its words are asked again at each key."""

from __future__ import annotations

import sqlite3

TOKENIZER = "porter unicode61 remove_diacritics 2"  # as the passage index's (store.py)
KEPT = 20_000  # words whose counts are kept at most (a few MB)


class Vocabulary:
    """Shares of the passages holding words, for one index connection."""

    def __init__(self, index: sqlite3.Connection) -> None:
        self._index = index
        index.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_vocab USING fts5vocab(main, passage_words, "
                      "'row')")
        self._stems = sqlite3.connect(":memory:")
        self._stems.execute(f"CREATE VIRTUAL TABLE words USING fts5 (word, tokenize='{TOKENIZER}')")
        self._stems.execute("CREATE VIRTUAL TABLE stems USING fts5vocab(words, 'row')")
        self._version: tuple[int, int] | None = None
        self._total = 0
        self._counts: dict[str, int] = {}

    def total(self) -> int:
        """How many passages there are."""
        self._fresh()
        return self._total

    def shares(self, words: list[str]) -> dict[str, float]:
        """Each word's share of the passages (0–1; words not in the index are left out)."""
        total = self.total()
        if not total:
            return {}
        counts = {word: self._count(word) for word in words}
        return {word: count / total for word, count in counts.items() if count}

    def _fresh(self) -> None:
        """Forget the counts when the index changed since they were read."""
        version = (self._index.execute("PRAGMA data_version").fetchone()[0], self._index.total_changes)
        if version != self._version or len(self._counts) > KEPT:
            self._version, self._counts = version, {}
            self._total = int(self._index.execute("SELECT count(*) FROM passages").fetchone()[0])

    def _count(self, word: str) -> int:
        if word not in self._counts:
            self._stems.execute("DELETE FROM words")
            self._stems.execute("INSERT INTO words VALUES (?)", [word])
            stem = self._stems.execute("SELECT term FROM stems").fetchone()
            row = self._index.execute("SELECT doc FROM temp.passage_vocab WHERE term = ?", [stem[0]]).fetchone() \
                if stem else None
            self._counts[word] = int(row[0]) if row else 0
        return self._counts[word]
