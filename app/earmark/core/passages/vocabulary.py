"""How common a question's words are among the passages: each word stemmed by FTS5's own tokenizer (a table in
memory), its share of the passages read from the index's vocabulary (fts5vocab)."""

from __future__ import annotations

import sqlite3

TOKENIZER = "porter unicode61 remove_diacritics 2"  # as the passage index's (store.py)


class Vocabulary:
    """Shares of the passages holding words, for one index connection."""

    def __init__(self, index: sqlite3.Connection) -> None:
        self._index = index
        index.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_vocab USING fts5vocab(main, passage_words, "
                      "'row')")
        self._stems = sqlite3.connect(":memory:")
        self._stems.execute(f"CREATE VIRTUAL TABLE words USING fts5 (word, tokenize='{TOKENIZER}')")
        self._stems.execute("CREATE VIRTUAL TABLE stems USING fts5vocab(words, 'row')")

    def total(self) -> int:
        """How many passages there are."""
        return int(self._index.execute("SELECT count(*) FROM passages").fetchone()[0])

    def shares(self, words: list[str]) -> dict[str, float]:
        """Each word's share of the passages (0–1; words not in the index are left out)."""
        total = self.total()
        if not total:
            return {}
        shares = {}
        for word in words:
            self._stems.execute("DELETE FROM words")
            self._stems.execute("INSERT INTO words VALUES (?)", [word])
            stem = self._stems.execute("SELECT term FROM stems").fetchone()
            row = self._index.execute("SELECT doc FROM temp.passage_vocab WHERE term = ?", [stem[0]]).fetchone() \
                if stem else None
            if row:
                shares[word] = row[0] / total
        return shares
