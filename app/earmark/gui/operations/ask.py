"""Asking the library from the window: run in the pool (each pool thread keeps its own Asker, with the vectors'
bits and the sentence model loaded once)."""

from __future__ import annotations

import threading
from pathlib import Path

from earmark.core.db.database import Database
from earmark.core.passages.ask import Answer, Asker
from earmark.core.records import record

_local = threading.local()


@record
class Asked:
    """The answers to a question, and the sentence saying answers come from words alone ('' with the model)."""

    question: str
    answers: list[Answer]
    words_alone: str


def ask_library(db: Database, library: Path, question: str, generation: int, limit: int = 20) -> Asked:
    """The passages answering ``question``; ``generation`` counts the indexings finished (a thread's Asker made
    before the last one is made again: the vectors' bits it holds are stale)."""
    from earmark.core.passages.session import asker, load_embedder

    held: tuple[tuple[int, int], Asker, str] | None = getattr(_local, "asker", None)
    if held is None or held[0] != (id(db), generation):
        embedder, why = load_embedder(db)
        held = _local.asker = ((id(db), generation), asker(db, library, embedder), why)
    return Asked(question, held[1].ask(question, limit), held[2])
