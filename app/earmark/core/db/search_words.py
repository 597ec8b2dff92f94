"""The library's vocabulary of compound names and acronyms, which search uses to find a word inside a name.

FTS5's tokenizer keeps ``AOTAutograd`` as one word (``aotautograd``), so a search for "autograd" cannot find it in
the index alone. The analyser (core/text) finds such names in everything the index holds; ``search_words`` keeps
each part → the whole words containing it (autograd → aotautograd), ``search_aliases`` the acronyms the library
defines (fsdp → fully sharded data parallel). The index itself stays as it is; searches add these words to the
query (core/db/search_query.py).

Triggers queue every item whose indexed text changed in ``search_pending``; ``learn_pending`` reads them and
learns their words. write_transaction calls it before each commit, so whatever writes through it keeps the
vocabulary in step; a bulk writer with its own transaction calls it before its COMMIT. A first import works out
the vocabulary of its new items where it parses them (``new_item_vocabulary``, in the parsing processes) and
stores it with them (``learnt``), instead of reading their text back in the writer. Words only ever join the
vocabulary: one whose text has gone stays, and only widens a search by a word no item holds (relearn_all starts
it afresh).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Sequence

from earmark.core.models import Vocabulary

# A word as the search index cuts it: letters and digits (underscores, dots and other punctuation separate words).
_WORD = re.compile(r"[^\W_]+")
BATCH = 1000  # pending items read at a time
MAX_EXPANSIONS = 64  # whole words a query word may stand for (a common part such as "torch" has many)
NOTHING: Vocabulary = ((), ())


def query_words(text: str) -> list[str]:
    """The words of what the user typed, each one word of the index (``__torch_function__`` → torch, function)."""
    return _WORD.findall(text)


def fold(word: str) -> str:
    """A word as the index compares it: lower case, accents removed (FTS5's unicode61 with remove_diacritics)."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def key_of(name: str) -> str:
    """A name as the words a search sees in it, folded and separated by single spaces (``Just-in-time`` →
    ``just in time``): how aliases are kept and looked up."""
    return " ".join(fold(word) for word in query_words(name))


def learn_pending(conn: sqlite3.Connection) -> int:
    """Learn the words of every queued item (inside the caller's transaction); returns how many were read."""
    count = 0
    while True:
        ids = [row[0] for row in conn.execute("SELECT item_id FROM search_pending ORDER BY item_id LIMIT ?",
                                              [BATCH])]
        if not ids:
            return count
        marks = ",".join("?" * len(ids))
        rows = conn.execute(f"SELECT title, text, notes, transcript, highlights FROM search_content "
                            f"WHERE id IN ({marks})", ids)
        learn_texts(conn, (item_text(*row) for row in rows))
        conn.execute(f"DELETE FROM search_pending WHERE item_id IN ({marks})", ids)
        count += len(ids)


def item_text(title: str, text: str, notes: str = "", transcript: str = "", highlights: str = "") -> str:
    """The text of an item's row of the search index (its columns, one a line) as its vocabulary is learnt."""
    return "\n".join((title, text, notes, transcript, highlights))


def vocabulary(text: str) -> Vocabulary:
    """The compound names (each part → the whole word) and acronym definitions of ``text``."""
    # The analyser loads with the first text learnt (~5 ms): a start, or a command, that only reads needs none of it.
    from earmark.core.text import acronym_definitions, case_compounds

    words: set[tuple[str, str]] = set()
    aliases: set[tuple[str, str]] = set()
    for whole, parts in case_compounds(text).items():
        folded = fold(whole)
        words.update((fold(part), folded) for part in parts if _searchable(part))
    if "(" in text:
        aliases.update((key_of(acronym), key_of(expansion)) for acronym, expansion in acronym_definitions(text))
    return (tuple(sorted(words)), tuple(sorted(aliases))) if words or aliases else NOTHING


def new_item_vocabulary(title: str, text: str) -> Vocabulary:
    """What learning a new item of this title and search text (no notes, transcript nor highlights yet) adds."""
    return vocabulary(item_text(title, text))


def learn_texts(conn: sqlite3.Connection, texts: Iterable[str]) -> None:
    """Add the compound names and acronym definitions of ``texts`` to the vocabulary."""
    _store(conn, (vocabulary(text) for text in texts))


def learnt(conn: sqlite3.Connection, items: Sequence[tuple[int, Vocabulary]]) -> None:
    """Store the vocabulary of items just written, worked out beforehand from exactly the text they were written
    with (``new_item_vocabulary``), and take them off the queue (inside the caller's transaction)."""
    if not items:
        return
    _store(conn, (known for _, known in items))
    conn.executemany("DELETE FROM search_pending WHERE item_id = ?", [(item_id,) for item_id, _ in items])


def _store(conn: sqlite3.Connection, vocabularies: Iterable[Vocabulary]) -> None:
    words: set[tuple[str, str]] = set()
    aliases: set[tuple[str, str]] = set()
    for found_words, found_aliases in vocabularies:
        words.update(found_words)
        aliases.update(found_aliases)
    if words:
        conn.executemany("INSERT OR IGNORE INTO search_words (part, word) VALUES (?, ?)", sorted(words))
    if aliases:
        conn.executemany("INSERT OR IGNORE INTO search_aliases (name, alias) VALUES (?, ?)", sorted(aliases))


def _searchable(part: str) -> bool:
    """Parts worth finding a name by: words of two letters or more (not 8 in FP8, nor a lone letter)."""
    return len(part) > 1 and not part.isdigit()


def relearn_all(conn: sqlite3.Connection) -> None:
    """Forget the vocabulary and learn it again from every item (inside the caller's transaction)."""
    conn.execute("DELETE FROM search_words")
    conn.execute("DELETE FROM search_aliases")
    conn.execute("INSERT OR IGNORE INTO search_pending (item_id) SELECT id FROM items")
    learn_pending(conn)


def words_containing(conn: sqlite3.Connection, part: str, prefix: bool = False) -> list[str]:
    """The whole words of the library that contain ``part`` (or, with ``prefix``, a part starting with it)."""
    key = fold(part)
    if not prefix:
        rows = conn.execute("SELECT word FROM search_words WHERE part = ? ORDER BY word LIMIT ?",
                            [key, MAX_EXPANSIONS])
    else:
        rows = conn.execute("SELECT DISTINCT word FROM search_words WHERE part >= ? AND part < ? ORDER BY word LIMIT ?",
                            [key, key + "\U0010ffff", MAX_EXPANSIONS])
    return [row[0] for row in rows if row[0] != key]


def learnt_aliases(conn: sqlite3.Connection, name: str) -> list[str]:
    """What the library defines ``name`` as (an acronym's expansions), or the acronyms an expansion stands for."""
    rows = conn.execute("SELECT alias FROM search_aliases WHERE name = ?1 UNION SELECT name FROM search_aliases "
                        "WHERE alias = ?1", [key_of(name)])
    return [row[0] for row in rows]
