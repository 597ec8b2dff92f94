"""How common a question's words are among the passages. fts5vocab counts a word's passages by reading all of its
entries (a word in a tenth of 260,000 passages: 3–15 ms of a question), so the indexer counts them once for all
words, when the index has grown or shrunk by a twentieth since the last count (0.8 s of CPU for 261,076
passages), and keeps those in LEAST passages or more: the others are rare, whatever the index's size. A question's
words are stemmed by FTS5's own tokenizer (a table in memory) to be looked up."""

from __future__ import annotations

import sqlite3

TOKENIZER = "porter unicode61 remove_diacritics 2"  # as the passage index's (store.py)
LEAST = 2000  # passages a word must be in to be common (see ask.COMMON)
RECOUNT = 0.05  # the share by which the passages' number changes before words are counted again


def count_words(conn: sqlite3.Connection) -> None:
    """Count the passages of each common word again when their number changed by RECOUNT since the last count."""
    total = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
    row = conn.execute("SELECT value FROM meta WHERE key = 'counted'").fetchone()
    if row is not None and abs(total - int(row[0])) <= RECOUNT * int(row[0]):
        return
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.passage_vocab USING fts5vocab(main, passage_words, 'row')")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("DELETE FROM common_words")
    conn.execute("INSERT INTO common_words SELECT term, doc FROM temp.passage_vocab WHERE doc >= ?", [LEAST])
    conn.execute("INSERT INTO meta VALUES ('counted', ?) ON CONFLICT (key) DO UPDATE SET value = ?", [total, total])
    conn.execute("COMMIT")


class Vocabulary:
    """Shares of the passages holding words, for one index connection."""

    def __init__(self, index: sqlite3.Connection) -> None:
        self._index = index
        self._stems = sqlite3.connect(":memory:")
        self._stems.execute(f"CREATE VIRTUAL TABLE words USING fts5 (word, tokenize='{TOKENIZER}')")
        self._stems.execute("CREATE VIRTUAL TABLE stems USING fts5vocab(words, 'row')")

    def total(self) -> int:
        """How many passages there were when words were last counted."""
        row = self._index.execute("SELECT value FROM meta WHERE key = 'counted'").fetchone()
        return int(row[0]) if row else 0

    def shares(self, words: list[str]) -> dict[str, float]:
        """Each common word's share of the passages (0–1; rare words, in fewer than LEAST, are left out)."""
        total = self.total()
        shares = {}
        for word in words if total else []:
            self._stems.execute("DELETE FROM words")
            self._stems.execute("INSERT INTO words VALUES (?)", [word])
            stem = self._stems.execute("SELECT term FROM stems").fetchone()
            row = self._index.execute("SELECT doc FROM common_words WHERE term = ?", [stem[0]]).fetchone() \
                if stem else None
            if row:
                shares[word] = row[0] / total
        return shares
