"""The search index and its vocabulary of compound names stay equal to a rebuild after every kind of write: feeds
stored and changed, articles saved and fetched again, reading lists imported, notes, highlights and transcripts
added, changed and deleted, a JSON backup restored, the sample loaded, and writes by SQL of other programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.articles.highlights import highlight_text
from earmark.core.articles.imports import ListEntry, ReadingList, import_entries
from earmark.core.articles.store import ArticleData, save_articles
from earmark.core.db.connection import open_library, write_transaction
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.merge import store_feed
from earmark.core.db.notes import add_note, delete_note, put_back_note, update_note
from earmark.core.db.transcripts import store_transcript
from earmark.core.models import Cue, EntryData, FeedData, Transcript
from earmark.core.notes.backup import restore_backup, write_backup
from earmark.core.sample import load_sample
from helpers.search_index import assert_index_in_step

URL = "https://compilers.example/feed.xml"


def _feed(*entries: tuple[str, str, str]) -> FeedData:
    return FeedData(title="Compilers Weekly", entries=[
        EntryData(identity=f"guid:{guid}", kind="episode", title=title, guid=guid, description=f"<p>{notes}</p>",
                  enclosure_url=f"https://compilers.example/{guid}.mp3", published=f"2025-01-0{day}T00:00:00+00:00")
        for day, (guid, title, notes) in enumerate(entries, start=1)])


def _titles(db: Database, text: str) -> list[str]:
    return [item.title for item in list_items(db, ItemFilter(text=text))]


def test_feeds_stored_and_changed(library: Database) -> None:
    first = store_feed(library, URL, _feed(("a", "The FlashAttention kernel", "Tiles in SRAM."),
                                           ("b", "Schedulers", "Work stealing in a ThreadPoolExecutor.")))
    assert_index_in_step(library)
    assert _titles(library, "attention") == ["The FlashAttention kernel"]
    store_feed(library, URL, _feed(("a", "The FlashDecoding kernel", "Split the KV cache (SplitK)."),
                                   ("b", "Schedulers", "Work stealing in a ThreadPoolExecutor."),
                                   ("c", "Graph breaks", "Why TorchDynamo falls back.")))
    assert_index_in_step(library)
    assert _titles(library, "attention") == []  # the old title is gone from the index
    assert _titles(library, "decoding") == ["The FlashDecoding kernel"]
    assert _titles(library, "executor") == ["Schedulers"]
    assert len(first.item_ids) == 2


def test_articles_saved_fetched_again_and_imported(library: Database) -> None:
    [article] = save_articles(library, [ArticleData("Linkers", "https://blog.example/linkers", "Blog", "")])
    assert_index_in_step(library)
    save_articles(library, [ArticleData("Linkers in depth", "https://blog.example/linkers", "Blog",
                                        "<p>The GoldLinker and LLVMLinker compared.</p>")])
    assert_index_in_step(library)
    assert _titles(library, "gold") == ["Linkers in depth"]
    import_entries(library, ReadingList("wallabag", [ListEntry(
        "https://blog.example/caches", "Caches", html="<p>The PageCache and the BufferPool.</p>",
        highlights=[("the BufferPool", "a note"), ("the RingBuffer, not in the text", "")])]))
    assert_index_in_step(library)
    assert _titles(library, "pool") == ["Caches"]
    assert _titles(library, "ring") == ["Caches"]  # learnt from the highlight's quote
    assert article


def test_notes_and_highlights_added_changed_deleted_and_put_back(library: Database) -> None:
    [item] = save_articles(library, [ArticleData("Autodiff", "https://blog.example/ad", "Blog",
                                                 "<p>Reverse mode with a GradientTape records the operations.</p>")])
    note = add_note(library, item, "Compare with JaxPr tracing", at=None)
    assert_index_in_step(library)
    assert _titles(library, "jax") == ["Autodiff"]
    highlight = highlight_text(library, item, "a GradientTape records", "tape")
    assert_index_in_step(library)
    update_note(library, note.id, "Compare with FuncTorch instead")
    assert_index_in_step(library)
    assert _titles(library, "jax") == [] and _titles(library, "functorch") == ["Autodiff"]
    removed = delete_note(library, highlight.id)
    assert_index_in_step(library)
    put_back_note(library, removed)
    assert_index_in_step(library)


def test_transcripts_stored_replaced_and_failed(library: Database) -> None:
    store_feed(library, URL, _feed(("a", "Episode one", "Show notes.")))
    [item] = [i.id for i in list_items(library, ItemFilter())]
    spoken = Transcript([Cue(0.0, 2.0, "Today the MegatronLM paper.", None)], "vtt")
    store_transcript(library, item, "https://compilers.example/a.vtt", spoken)
    assert_index_in_step(library)
    assert _titles(library, "megatron") == ["Episode one"]
    store_transcript(library, item, "https://compilers.example/a.vtt",
                     Transcript([Cue(0.0, 2.0, "Today the DeepSpeed paper.", None)], "vtt"))
    assert_index_in_step(library)
    assert _titles(library, "megatron") == [] and _titles(library, "speed") == ["Episode one"]
    store_transcript(library, item, "https://compilers.example/a.vtt", None, error="The server said 404.")
    assert_index_in_step(library)
    assert _titles(library, "deepspeed") == []


def test_the_sample_and_a_backup_restored(library: Database, tmp_path: Path) -> None:
    load_sample(library)
    [item] = [i.id for i in list_items(library, ItemFilter(text="AOTAutograd"))][:1]
    add_note(library, item, "See also the PrimTorch decompositions")
    assert_index_in_step(library)
    write_backup(library, tmp_path / "backup.json")
    restored = open_library(tmp_path / "restored.db")
    try:
        restore_backup(restored, tmp_path / "backup.json")
        assert_index_in_step(restored)
        assert "AOTAutograd" in _titles(restored, "autograd")
    finally:
        restored.close()


def test_other_programs_writing_by_sql(library: Database) -> None:
    """SQL outside Earmark's own writes (the sqlite3 shell, a script) keeps the index in step at once, and the
    vocabulary learns its words at the next write Earmark makes."""
    store_feed(library, URL, _feed(("a", "Episode one", "Show notes."), ("b", "Episode two", "More notes.")))
    one, two = sorted(i.id for i in list_items(library, ItemFilter()))
    library.execute("INSERT INTO notes (item_id, text, created, updated) VALUES (?, 'about QuantizedLinear', '', '')",
                    [one])
    library.execute("UPDATE items SET title = 'Episode 2: SparseTensor' WHERE id = ?", [two])
    library.execute("INSERT INTO transcripts (item_id, url, fetched, cues) VALUES (?, 'u', '', "
                    "'[[0, 1, \"the TensorCores\", null]]')", [two])
    library.execute("UPDATE notes SET item_id = ? WHERE item_id = ?", [two, one])  # a note moved to another item
    assert_index_in_step(library, learnt=False)
    assert _titles(library, "quantizedlinear") == ["Episode 2: SparseTensor"]
    assert _titles(library, "linear") == []  # not learnt yet
    with write_transaction(library):
        pass
    assert_index_in_step(library)
    assert _titles(library, "linear") == ["Episode 2: SparseTensor"]
    library.execute("DELETE FROM items WHERE id = ?", [two])  # notes and transcript go with it
    assert_index_in_step(library, learnt=False)
    assert _titles(library, "tensor") == []


@pytest.mark.parametrize("text", ["", "   ", "(", "NEAR(", "🎧", "\x00"])
def test_odd_text_is_indexed_and_learnt(library: Database, text: str) -> None:
    store_feed(library, URL, _feed(("a", text or "untitled", text)))
    [item] = [i.id for i in list_items(library, ItemFilter())]
    add_note(library, item, text.strip() or "x")
    assert_index_in_step(library)
