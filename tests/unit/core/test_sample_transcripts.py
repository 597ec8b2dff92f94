"""The sample library carries transcripts of its clips, made by Earmark's own engine when the sample was built
(packaging/build-sample-transcripts): every episode has one, made on this computer, with no network; what is said
is searchable; loading the sample again keeps them as they are."""

from __future__ import annotations

import json

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.transcripts import stored_transcript
from earmark.core.notes.transcripts import GENERATED
from earmark.core.sample import TRANSCRIPTS_FILE, load_sample, sample_folder
from earmark.core.sample_clips import clips_prefix


def test_every_clip_has_a_transcript_made_by_the_engine(library: Database) -> None:
    heard = json.loads((sample_folder() / TRANSCRIPTS_FILE).read_text(encoding="utf-8"))
    clips = sorted(path.name for path in (sample_folder() / "audio").iterdir())
    assert sorted(heard) == clips
    load_sample(library)
    episodes = list_items(library, ItemFilter(kind="episode"))
    assert len(episodes) == len(clips) == 51
    for episode in episodes:
        stored = stored_transcript(library, episode.id)
        assert stored is not None and stored.transcript is not None, episode.title
        assert stored.url == GENERATED + "tiny.en" and stored.transcript.format == "generated"
        spoken = " ".join(cue.text for cue in stored.transcript.cues)
        assert spoken == " ".join(str(line[2]) for line in heard[episode.enclosure_url[len(clips_prefix()):]])
        assert stored.transcript.cues[-1].end <= 30  # a clip's length, not the episode's


def test_loading_again_keeps_the_transcripts(library: Database) -> None:
    load_sample(library)
    before = library.execute("SELECT item_id, fetched, cues FROM transcripts ORDER BY item_id").fetchall()
    load_sample(library)
    assert library.execute("SELECT item_id, fetched, cues FROM transcripts ORDER BY item_id").fetchall() == before


def test_what_the_clips_say_is_heard_in_their_transcripts(library: Database) -> None:
    load_sample(library)
    texts = {episode.title: " ".join(cue.text for cue in stored_transcript(library, episode.id).transcript.cues)
             for episode in list_items(library, ItemFilter(kind="episode"))}  # type: ignore[union-attr]
    heard_title = sum(title.lower().split()[0] in text.lower() for title, text in texts.items())
    assert heard_title >= 0.8 * len(texts)  # each clip reads its title: the engine heard its first word in most
