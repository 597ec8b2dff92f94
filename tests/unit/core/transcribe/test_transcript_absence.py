"""Why an episode shows no transcript, and what is offered: download first, transcribe, wait, or retry a failure
with its sentence; nothing for an article."""

from __future__ import annotations

from pathlib import Path

from earmark.core.db import transcribe_queue as queue
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import item_ids
from earmark.core.feeds.subscribe import subscribe
from earmark.core.transcribe.absence import DOWNLOAD, RETRY, TRANSCRIBE, why_no_transcript
from helpers.podcast import Episode, write_podcast


def test_what_is_offered_follows_the_episodes_state(library: Database, tmp_path: Path) -> None:
    subscribe(library, str(write_podcast(tmp_path / "cast", [Episode("One", 0.2)])))
    item_id = item_ids(library, ItemFilter())[0]
    assert why_no_transcript(library, item_id).action == DOWNLOAD
    library.execute("""INSERT INTO downloads (item_id, url, path, status, received, added)
                       VALUES (?, 'u', ?, 'done', 1, '2024-01-01')""", [item_id, str(tmp_path / "a.wav")])
    found = why_no_transcript(library, item_id)
    assert found.action == TRANSCRIBE and found.sentence.startswith("Its feed gives no transcript")
    queue.enqueue(library, [item_id])
    assert why_no_transcript(library, item_id).sentence == "Waiting to be transcribed on this computer."
    queue.finished(library, item_id, "The base.en model could not be fetched (offline).")
    found = why_no_transcript(library, item_id)
    assert found.action == RETRY
    assert found.sentence == "Not transcribed: The base.en model could not be fetched (offline)."
    assert why_no_transcript(library, 999).sentence == ""
