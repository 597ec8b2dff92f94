"""How common a question's words are: counted by the indexer for all words at once, when the index has grown by a
twentieth; a question only looks its words up."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library
from earmark.core.passages import vocabulary
from earmark.core.passages.session import update_index
from earmark.core.passages.store import open_index, passages_path
from earmark.core.passages.vocabulary import Vocabulary


def _articles(first: int, count: int, words: str) -> list[ArticleData]:
    return [ArticleData(title=f"Note {n}", url=f"http://example.invalid/{n}", site="Site", html=f"<p>{words}</p>")
            for n in range(first, first + count)]


def test_a_question_looks_up_counts_the_indexer_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vocabulary, "LEAST", 2)  # common from 2 passages (2,000 in the library)
    path = tmp_path / "library.db"
    db = open_library(path)
    save_articles(db, _articles(0, 3, "Guards and tensors.") + _articles(3, 37, "Tensors alone."))
    update_index(db, path, None)
    index = open_index(passages_path(path))
    read: list[str] = []
    index.set_trace_callback(read.append)
    shares = Vocabulary(index).shares(["guards", "guarding", "tensors", "strides"])
    assert shares == {"guards": 0.075, "guarding": 0.075, "tensors": 1.0}  # strides: in none, rare
    assert not [statement for statement in read if "passage_vocab" in statement or "passage_words" in statement]

    save_articles(db, _articles(40, 1, "Strides and guards."))  # a fortieth more: not counted again
    update_index(db, path, None)
    assert Vocabulary(index).shares(["guards", "strides"]) == {"guards": 0.075}
    save_articles(db, _articles(41, 2, "Strides."))  # now more than a twentieth
    update_index(db, path, None)
    assert Vocabulary(index).shares(["guards", "strides"]) == {"guards": 4 / 43, "strides": 3 / 43}
    index.close()
    db.close()
