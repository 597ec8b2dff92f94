"""Why an episode has no transcript to show, and what the person can do about it: transcribe it here, download
it first, or try again after a failure (whose sentence is kept)."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.downloads import get_download
from earmark.core.records import record

TRANSCRIBE, DOWNLOAD, RETRY = "transcribe", "download", "retry"


@record(frozen=True)
class Absence:
    """The sentence saying why there is no transcript, and the action offered ("" for none)."""

    sentence: str
    action: str = ""


def why_no_transcript(db: Database, item_id: int) -> Absence:
    """Why the episode ``item_id`` shows no transcript (an article: nothing to say)."""
    row = db.execute("SELECT kind FROM items WHERE id = ?", [item_id]).fetchone()
    if row is None or row[0] != "episode":
        return Absence("")
    queued = db.execute("SELECT error FROM transcribe_queue WHERE item_id = ?", [item_id]).fetchone()
    if queued is not None:
        if queued[0]:
            return Absence(f"Not transcribed: {queued[0]}", RETRY)
        return Absence("Waiting to be transcribed on this computer.")
    download = get_download(db, item_id)
    if download is not None and download.status == "done":
        return Absence("Its feed gives no transcript: Earmark can make one on this computer.", TRANSCRIBE)
    return Absence("Its feed gives no transcript: download the episode first, then Earmark can make one on this "
                   "computer.", DOWNLOAD)
