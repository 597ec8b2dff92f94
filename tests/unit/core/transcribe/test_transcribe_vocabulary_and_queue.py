"""What an episode is primed with (its title, chapter titles, show notes, the names in them, the podcast's terms
used across its episodes), and the transcription queue: Transcribe All Downloaded, Transcribe New Episodes (only
episodes that came after it was turned on), failures kept with their sentence and tried again when asked."""

from __future__ import annotations

from earmark.core.chapters import store_chapters
from earmark.core.db import transcribe_queue as queue
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.transcripts import store_transcript
from earmark.core.models import Chapter, Cue, EntryData, FeedData, Transcript
from earmark.core.transcribe.respell import respell
from earmark.core.transcribe.vocabulary import MAX_PROMPT_CHARS, episode_vocabulary, names_in, podcast_terms

NOTES = "We compare TorchInductor with Hidet, and how torch.compile lowers graphs. The jobs run on Kubernetes."


def _podcast(db: Database, notes: list[str]) -> dict[str, int]:
    entries = [EntryData(f"ep{n}", "episode", f"Episode {n}", guid=f"ep{n}", description=text,
                         enclosure_url=f"https://example.com/{n}.mp3", published=f"2024-01-{n + 1:02d}T00:00:00+00:00")
               for n, text in enumerate(notes)]
    store_feed(db, "https://example.com/feed.xml", FeedData("Cast", entries=entries))
    return {row[0]: row[1] for row in db.execute("SELECT title, id FROM items")}


def _downloaded(db: Database, *item_ids: int) -> None:
    with write_transaction(db):
        for item_id in item_ids:
            db.execute("INSERT INTO downloads (item_id, url, path, status, received, added) "
                       "VALUES (?, 'u', ?, 'done', 0, '2024-01-01')", [item_id, f"/tmp/{item_id}.mp3"])


def test_names_are_technical_words_and_capitals_inside_a_sentence() -> None:
    names = names_in(NOTES)
    assert {"TorchInductor", "Hidet", "torch.compile", "Kubernetes"} <= set(names)
    assert "We" not in names and "A" not in names  # a sentence's first word is no name


def test_an_episode_is_primed_with_its_own_words_and_the_podcasts_terms(library: Database) -> None:
    ids = _podcast(library, [NOTES, "We use Triton kernels and CUDA graphs.", "Again CUDA graphs in Triton."])
    with write_transaction(library):
        library.execute("UPDATE items SET chapters_url = 'https://example.com/c.json'")
    store_chapters(library, ids["Episode 0"], "https://example.com/c.json",
                   [Chapter(0, "Lowering with Inductor"), Chapter(60, "Scheduling pods")])
    prompt = episode_vocabulary(library, ids["Episode 0"]).prompt
    assert prompt.startswith("Episode 0. Lowering with Inductor, Scheduling pods.")
    assert "torch.compile lowers graphs" in prompt  # the show notes
    assert prompt.endswith("Kubernetes, torch.compile, Hidet, TorchInductor.")  # its names last, nearest the speech
    assert "Triton" in prompt and "CUDA" in prompt  # named by two other episodes: the podcast's terms
    assert len(episode_vocabulary(library, ids["Episode 0"]).prompt) <= MAX_PROMPT_CHARS + 2


def test_the_podcasts_terms_tied_in_use_come_as_the_newest_episode_names_them(
        library: Database) -> None:
    """The order decides which terms fit the prompt and what the engine hears: it must not change between runs
    (it did, with Python's string hashing deciding ties)."""
    named = "Pallas Mosaic Helion Cutlass Thunder Liger Quack Nimble"
    ids = _podcast(library, ["Nothing to name.", f"We cover {named}.", f"Again {', '.join(reversed(named.split()))}."])
    source_id = library.execute("SELECT id FROM sources").fetchone()[0]
    assert podcast_terms(library, source_id, ids["Episode 0"]) == list(reversed(named.split()))


def test_a_long_prompt_keeps_the_title_and_the_names(library: Database) -> None:
    ids = _podcast(library, ["Plain words go on and on. " * 200 + "Then FlashAttention appears."])
    prompt = episode_vocabulary(library, ids["Episode 0"]).prompt
    assert len(prompt) <= MAX_PROMPT_CHARS + 2
    assert prompt.startswith("Episode 0.") and prompt.endswith("FlashAttention.")


def test_the_names_of_the_title_notes_and_podcast_are_written_as_the_show_writes_them(
        library: Database) -> None:
    ids = _podcast(library, [NOTES, "We use OpenAI's Triton and CUDA graphs.", "Again CUDA graphs in Triton."])
    with write_transaction(library):
        library.execute("UPDATE items SET title = 'AOTAutograd explained' WHERE id = ?", [ids["Episode 0"]])
    names = episode_vocabulary(library, ids["Episode 0"]).names
    heard = respell("aot autograd feeds torch inductor, then torch dot compile on cuda", names)
    assert heard == "AOTAutograd feeds TorchInductor, then torch.compile on CUDA"
    assert "kubernetes" not in names  # a plain capitalised word is no spelling to force


def test_a_word_in_capitals_for_emphasis_is_no_name_to_force(library: Database) -> None:
    ids = _podcast(library, ["Run on a SINGLE GPU with CUDA: a single process, torch.cuda calls."])
    names = episode_vocabulary(library, ids["Episode 0"]).names
    heard = respell("a single process on one gpu with cuda", names)
    assert heard == "a single process on one GPU with CUDA"  # the show writes "single" in lower case too


def test_transcribe_all_downloaded_queues_episodes_without_a_transcript(library: Database) -> None:
    ids = _podcast(library, ["a", "b", "c"])
    _downloaded(library, ids["Episode 0"], ids["Episode 1"])
    store_transcript(library, ids["Episode 1"], "https://example.com/t.vtt", Transcript([Cue(0, 1, "Hi.")], "vtt"))
    assert queue.enqueue_downloaded(library) == 1
    assert [w.item_id for w in queue.waiting(library)] == [ids["Episode 0"]]
    assert queue.next_waiting(library) == ids["Episode 0"]


def test_a_failure_is_kept_with_its_sentence_and_tried_again_when_asked(library: Database) -> None:
    ids = _podcast(library, ["a"])
    queue.enqueue(library, [ids["Episode 0"]])
    queue.finished(library, ids["Episode 0"], "Episode 0.mp3 is not audio Earmark can read.")
    assert queue.next_waiting(library) is None
    assert queue.waiting(library)[0].error == "Episode 0.mp3 is not audio Earmark can read."
    assert queue.enqueue(library, [ids["Episode 0"]]) == 1 and queue.next_waiting(library) == ids["Episode 0"]
    queue.finished(library, ids["Episode 0"])
    assert queue.waiting(library) == []


def test_transcribe_new_episodes_takes_only_those_after_it_was_turned_on(library: Database) -> None:
    ids = _podcast(library, ["old"])
    source_id = library.execute("SELECT id FROM sources").fetchone()[0]
    _downloaded(library, ids["Episode 0"])
    with write_transaction(library):
        library.execute("UPDATE items SET added = '2020-01-01T00:00:00+00:00'")
    queue.set_transcribe_new(library, source_id, True)
    assert queue.transcribes_new(library, source_id)
    assert queue.enqueue_new_episodes(library) == 0  # it came before
    ids = _podcast(library, ["old", "new"])
    _downloaded(library, ids["Episode 1"])
    assert queue.enqueue_new_episodes(library) == 1
    queue.finished(library, ids["Episode 1"], "No speech was heard in Episode 1.mp3.")
    assert queue.enqueue_new_episodes(library) == 0  # a failure is not retried by itself
    queue.set_transcribe_new(library, source_id, False)
    assert not queue.transcribes_new(library, source_id)
