"""A question whose words include one that thousands of passages hold: the rarer words decide (and the common one,
asked alone, still finds passages)."""

from __future__ import annotations

from pathlib import Path

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library
from earmark.core.passages.session import asker, update_index


def test_a_word_thousands_of_passages_hold_gives_way_to_the_rare_ones(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    db = open_library(path)
    save_articles(db, [ArticleData(title=f"Note {n}", url=f"http://example.invalid/{n}", site="Site",
                                   html=f"<p>Tensors everywhere, part {n}.</p>") for n in range(2100)]
                  + [ArticleData(title="Guards", url="http://example.invalid/guards", site="Site",
                                 html="<p>Tensors and the guards that check them before a graph runs.</p>")])
    update_index(db, path, None)
    ask = asker(db, path, None)
    # Only the passage holding the rare word answers: the common one is left out of the query (with it, the
    # 2,100 passages holding "tensors" would all be scored and fill the answers).
    assert [answer.title for answer in ask.ask("tensors guards", 10)] == ["Guards"]
    assert len(ask.ask("tensors", 10)) == 10  # all common: required, and found
    db.close()
