"""Asking the library: the passages that answer a question, each with its moment. bm25 over the passages' words,
and, with a sentence model, how near each passage's meaning is; both rankings fused (reciprocal rank fusion), so
a passage found by both comes first and one found by either still comes."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from earmark.core.db.database import Database
from earmark.core.models import Cue
from earmark.core.passages.texts import note_text, paragraph_text, window_cues, window_text
from earmark.core.passages.vocabulary import LEAST, Vocabulary
from earmark.core.passages.words import match_expression, overlap, question_words
from earmark.core.records import record

if TYPE_CHECKING:
    from earmark.core.passages.vectors import Embedder

CANDIDATES = 100  # passages each ranking gives the fusion
# A word in this share of the passages, and in this many, tells little and costs much (see Asker._expressions):
# the count keeps a small library's ranking whole (on the judged set's 400 passages, leaving out words in 5% of
# them found 87% instead of 94%).
COMMON = (0.05, LEAST)
FUSION_K = 60  # reciprocal rank fusion's constant (Cormack et al., 2009)
# Weights of the words' ranking and the meaning's: on the judged set (bench/ask.py) meaning alone found 76%, words
# 94%, both fused 1:1 85%, 1:0.3 91% (the tiny model's transcripts mishear; a question's words are precise).
WEIGHTS = (1.0, 0.3)


@record(frozen=True)
class Answer:
    """A passage that answers: its item, where (seconds for a transcript or a timed note; the paragraph's offset
    in the text otherwise), its words and score, and its source (transcript, show_notes, article, note)."""

    item_id: int
    title: str
    kind: str
    at: float | None
    end: float | None
    text: str
    score: float
    source: str
    offset: int | None = None
    note_id: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {"item_id": self.item_id, "title": self.title, "kind": self.kind, "at": self.at, "end": self.end,
                "text": self.text, "score": self.score, "source": self.source, "offset": self.offset,
                "note_id": self.note_id}


class Asker:
    """Answers questions from a passage index and its library (the vectors' bits are read once, on first need)."""

    def __init__(self, db: Database, index: sqlite3.Connection, embedder: Embedder | None = None) -> None:
        self.db, self.index, self.embedder = db, index, embedder
        self._bits: Any = None
        self._ids: Any = None
        self._vocabulary = Vocabulary(index)
        self.weights = WEIGHTS  # the words' ranking's and the meaning's (bench/ask.py weighs meaning alone)

    def ask(self, question: str, limit: int = 10) -> list[Answer]:
        """The passages that best answer ``question``, best first (none for a question of no words)."""
        words = question_words(question)
        ranked = [self._by_words(words)]
        if self.embedder is not None and question.strip():
            ranked.append(self._by_meaning(question))
        scores: dict[int, float] = {}
        for weight, ranking in zip(self.weights, ranked, strict=False):
            for rank, passage_id in enumerate(ranking):
                scores[passage_id] = scores.get(passage_id, 0.0) + weight / (FUSION_K + rank + 1)
        best = sorted(scores, key=lambda pid: -scores[pid])[:limit]
        return [self._answer(pid, scores[pid] * 1000 / len(ranked), words) for pid in best]

    def _by_words(self, words: list[str]) -> list[int]:
        if not words:
            return []
        found: list[int] = []
        for expression in self._expressions(words):
            found += [pid for pid in self._matching(expression) if pid not in found]
            if len(found) >= CANDIDATES // 2:
                break
        marks = ",".join("?" * len(found))
        live = {row[0] for row in self.index.execute(f"SELECT id FROM passages WHERE id IN ({marks})", found)}
        return [passage_id for passage_id in found if passage_id in live][:CANDIDATES]

    def _expressions(self, words: list[str]) -> list[str]:
        """The FTS5 queries to try in turn until enough passages are found: any of the question's words that are
        in fewer than COMMON of the passages (bm25 gives the others little weight, and scoring every passage
        holding them took most of a question's time); when none is, all of the words, then the two rarest, then
        either of those."""
        shares = self._vocabulary.shares(words)
        total = self._vocabulary.total()
        rare = [word for word in words if shares.get(word, 0.0) < COMMON[0] or shares[word] * total < COMMON[1]]
        if rare:
            return [match_expression(rare)]
        rarest = sorted(words, key=lambda word: shares.get(word, 0.0))[:2]
        return [match_expression([f"+{word}" for word in words]),
                match_expression([f"+{word}" for word in rarest]), match_expression(rarest)]

    def _matching(self, expression: str) -> list[int]:
        """The passages matching an FTS5 expression, best first by bm25 (stale ones included: they are left out
        after the ranking; joined to the live passages, the query took a fifth longer on bench/ask_scale.py's
        library)."""
        return [row[0] for row in self.index.execute(
            "SELECT rowid FROM passage_words WHERE passage_words MATCH ? ORDER BY bm25(passage_words) LIMIT ?",
            [expression, 2 * CANDIDATES])]

    def _by_meaning(self, question: str) -> list[int]:
        import numpy as np

        from earmark.core.passages.vectors import agreement, columns

        assert self.embedder is not None
        if self._bits is None:
            rows = self.index.execute(  # only this model's vectors: another's (while it is replaced) mean nothing
                "SELECT p.id, p.bits FROM passages p JOIN indexed i ON i.item_id = p.item_id "
                "WHERE i.model = ? AND p.bits IS NOT NULL", [self.embedder.name]).fetchall()
            self._ids = np.array([row[0] for row in rows], dtype=np.int64)
            self._bits = columns([row[1] for row in rows]) if rows else None
        if self._bits is None:
            return []
        near = agreement(self.embedder.vectors([question])[0], self._bits)
        count = min(CANDIDATES, len(near))
        top = np.argpartition(-near, count - 1)[:count]
        return [int(self._ids[n]) for n in top[np.argsort(-near[top], kind="stable")]]

    def _answer(self, passage_id: int, score: float, words: list[str]) -> Answer:
        item_id, source, at, end, offset, note_id = self.index.execute(
            'SELECT item_id, source, at, "end", "offset", note_id FROM passages WHERE id = ?', [passage_id]).fetchone()
        title, kind = self.db.execute("SELECT title, kind FROM items WHERE id = ?", [item_id]).fetchone() \
            or ("", "")
        if source == "transcript":
            cues = window_cues(self.db, item_id, at, end)
            text, at = window_text(cues, at, end), moment(cues, at, end, words)
        elif source == "note":
            text = note_text(self.db, note_id)
        else:
            text = paragraph_text(self.db, item_id, source, offset)
        return Answer(item_id, title, kind, at, end, text, round(score, 3), source, offset, note_id)


def moment(cues: list[Cue], at: float, end: float, words: list[str]) -> float:
    """The start of the window's line that holds most of the question's words (the window's start when none
    holds any): playing from there, the answer comes at once."""
    best, most = at, 0
    for cue in cues:
        if at <= cue.start < end and (found := overlap(cue.text, words)) > most:
            best, most = cue.start, found
    return float(best)
