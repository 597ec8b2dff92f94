"""The passage index's size: a transcript's words cost the index little beside the words themselves."""

from __future__ import annotations

import random
from pathlib import Path

from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library
from earmark.core.db.transcripts import store_transcript
from earmark.core.models import Cue, Transcript
from earmark.core.passages.session import update_index
from earmark.core.passages.store import open_index, passages_path


def test_the_words_of_an_hour_of_transcripts_take_less_room_in_the_index_than_in_the_library(tmp_path: Path) -> None:
    path = tmp_path / "library.db"
    db = open_library(path)
    save_articles(db, [ArticleData(title=f"Talk {n}", url=f"http://example.invalid/{n}", site="Site",
                                   html="<p>A talk.</p>") for n in range(6)])
    rng = random.Random(1)
    vocabulary = [f"{rng.choice('bcdfgklmnprst')}{rng.choice('aeiou')}{rng.choice('lmnrst')}{n}" for n in range(600)]
    spoken = 0
    for (item_id,) in db.execute("SELECT id FROM items").fetchall():
        cues = [Cue(n * 4.0, n * 4.0 + 4, " ".join(rng.choices(vocabulary, k=10)) + ".") for n in range(150)]
        spoken += sum(len(cue.text) for cue in cues)
        store_transcript(db, item_id, "generated:test", Transcript(cues, "generated"))
    update_index(db, path, None)
    index = open_index(passages_path(path))
    words = index.execute("SELECT sum(pgsize) FROM dbstat WHERE name = 'passage_words_data'").fetchone()[0]
    # The words' positions with their column's number beside each (the text in the FTS5 table's second column)
    # took 93% of the text's own size; in its first column, 67%.
    assert words < 0.75 * spoken
    index.close()
    db.close()
