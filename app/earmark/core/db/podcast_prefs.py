"""Per-podcast playback settings: default speed, skipped intro and outro, voice boost, auto-download, skipping
silence."""

from __future__ import annotations

from earmark.core.audio.silence import SILENCE_LEVELS
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.errors import NotFoundError
from earmark.core.models import PodcastPrefs

_COLUMNS = "playback_speed, skip_intro, skip_outro, voice_boost, auto_download, skip_silence"


def get_prefs(db: Database, source_id: int | None) -> PodcastPrefs:
    """A podcast's playback settings (the defaults for items without a source)."""
    if source_id is None:
        return PodcastPrefs()
    row = db.execute(f"SELECT {_COLUMNS} FROM sources WHERE id = ?", [source_id]).fetchone()
    if row is None:
        raise NotFoundError(f"There is no source with id {source_id}.")
    speed, intro, outro, boost, auto, silence = row
    return PodcastPrefs(speed, float(intro or 0), float(outro or 0), bool(boost), bool(auto),
                        silence if silence in SILENCE_LEVELS else "off")


def set_prefs(db: Database, source_id: int, prefs: PodcastPrefs) -> None:
    """Store a podcast's playback settings."""
    with write_transaction(db):
        cursor = db.execute(
            """UPDATE sources SET playback_speed = ?, skip_intro = ?, skip_outro = ?, voice_boost = ?,
                   auto_download = ?, skip_silence = ? WHERE id = ?""",
            [prefs.speed, max(0.0, prefs.skip_intro), max(0.0, prefs.skip_outro), prefs.voice_boost,
             prefs.auto_download, prefs.skip_silence if prefs.skip_silence in SILENCE_LEVELS else "off", source_id],
        )
        if cursor.rowcount == 0:
            raise NotFoundError(f"There is no source with id {source_id}.")


def auto_download_sources(db: Database) -> set[int]:
    """The podcasts whose new episodes are downloaded automatically."""
    return {row[0] for row in db.execute("SELECT id FROM sources WHERE auto_download = 1")}
