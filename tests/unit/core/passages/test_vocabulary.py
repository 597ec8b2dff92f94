"""How common a question's words are: counted once, and again when the index changes (from any process)."""

from __future__ import annotations

from pathlib import Path

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library
from earmark.core.passages.session import update_index
from earmark.core.passages.store import open_index, passages_path
from earmark.core.passages.vocabulary import Vocabulary


def _articles(first: int, count: int, words: str) -> list[ArticleData]:
    return [ArticleData(title=f"Note {n}", url=f"http://example.invalid/{n}", site="Site", html=f"<p>{words}</p>")
            for n in range(first, first + count)]


def test_a_words_count_is_read_once_until_the_index_changes(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    db = open_library(path)
    save_articles(db, _articles(0, 3, "Guards and tensors.") + _articles(3, 1, "Tensors alone."))
    update_index(db, path, None)
    index = open_index(passages_path(path))
    read: list[str] = []
    index.set_trace_callback(lambda statement: read.append(statement) if "passage_vocab" in statement else None)
    vocabulary = Vocabulary(index)
    assert vocabulary.shares(["guards", "tensors"]) == {"guards": 0.75, "tensors": 1.0}
    assert vocabulary.shares(["guarding", "tensors"]) == {"guarding": 0.75, "tensors": 1.0}
    assert len([s for s in read if "term" in s]) == 3  # guards, tensors, guarding: each once

    save_articles(db, _articles(4, 4, "Strides."))
    update_index(db, path, None)  # another connection writes
    assert vocabulary.shares(["guards", "strides"]) == {"guards": 0.375, "strides": 0.5}
    index.close()
    db.close()
