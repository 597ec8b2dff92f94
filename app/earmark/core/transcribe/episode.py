"""Transcribing one episode of the library: its downloaded file, primed with its words, stored when complete."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from earmark.core.chaptering.made import keep_transcript
from earmark.core.db.database import Database
from earmark.core.db.downloads import get_download
from earmark.core.db.transcripts import stored_transcript, transcript_links
from earmark.core.errors import NoSpeechError, NotFoundError, TranscribeError
from earmark.core.models import Cue, Transcript
from earmark.core.notes.transcripts import GENERATED
from earmark.core.transcribe.respell import respell
from earmark.core.transcribe.vocabulary import Vocabulary, episode_vocabulary

if TYPE_CHECKING:
    from earmark.core.transcribe.engine import Engine, Transcription

GENERATED_FORMAT = "generated"


def is_generated(url: str) -> bool:
    """Whether a stored transcript was made on this machine (not fetched from the feed)."""
    return url.startswith(GENERATED)


def audio_file(db: Database, item_id: int) -> Path:
    """The episode's downloaded file; TranscribeError when it is not downloaded (or the file is gone)."""
    row = db.execute("SELECT title, kind FROM items WHERE id = ?", [item_id]).fetchone()
    if row is None:
        raise NotFoundError(f"There is no item with id {item_id}.")
    title, kind = row
    if kind != "episode":
        raise TranscribeError(f"“{title}” is an article: only episodes are transcribed.")
    download = get_download(db, item_id)
    if download is None or download.status != "done":
        raise TranscribeError(f"“{title}” is not downloaded: download it first (earmark download {item_id}).")
    path = Path(download.path)
    if not path.is_file():
        raise TranscribeError(f"The downloaded file of “{title}” is missing ({path}): download it again.")
    return path


def check_feed_kept(db: Database, item_id: int) -> None:
    """TranscribeError when the episode's feed gives it a transcript (kept unless the user asks to replace it)."""
    stored = stored_transcript(db, item_id)
    from_feed = stored is not None and stored.transcript is not None and not is_generated(stored.url)
    if from_feed or transcript_links(db, item_id):
        raise TranscribeError("This episode has a transcript from its feed, which is kept: transcribe with "
                              "--replace to make one here instead.")


def transcribe_item(db: Database, engine: Engine, item_id: int, replace: bool = False,
                    progress: Callable[[float], None] | None = None) -> Transcription:
    """Transcribe an episode and store the transcript, with the chapters made from it (only once it is complete: a
    stopped run stores nothing)."""
    path = audio_file(db, item_id)
    if not replace:
        check_feed_kept(db, item_id)
    result = hear(engine, path, episode_vocabulary(db, item_id), progress)
    cues = [Cue(segment.start, segment.end, segment.text) for segment in result.segments]
    keep_transcript(db, item_id, GENERATED + result.model, Transcript(cues, GENERATED_FORMAT))
    return result


def hear(engine: Engine, path: Path, vocabulary: Vocabulary,
         progress: Callable[[float], None] | None = None) -> Transcription:
    """What the engine hears in ``path`` primed with the episode's vocabulary, its names written as the show
    writes them (and, where the engine was unsure, as they sound). A prompt can lead the engine to write nothing
    at all (seen with show notes that stop mid-sentence): then it listens again unprimed."""
    try:
        result = engine.transcribe(path, vocabulary.prompt, progress)
    except NoSpeechError:
        if not vocabulary.prompt:
            raise
        result = engine.transcribe(path, "", progress)
    result.segments = [replace(segment, text=respell(segment.text, vocabulary.names, vocabulary.sounds,
                                                     segment.doubtful), doubtful=())
                       for segment in result.segments]
    return result
