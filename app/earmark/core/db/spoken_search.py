"""Where in an episode a search matched its transcript: the moment the matched words are said."""

from __future__ import annotations

import re
import unicodedata

from earmark.core.db.database import Database
from earmark.core.db.search import CLOSE, OPEN, Snippet
from earmark.core.db.transcripts import stored_transcript

_MARKED = re.compile(f"{OPEN}(.*?){CLOSE}", re.DOTALL)
_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    """Words as the search index reads them: lower case, accents left out."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _WORD.findall(plain.lower())


def spoken_moment(db: Database, item_id: int, snippet: Snippet | None) -> float | None:
    """Seconds from the start where the words a transcript snippet matched are said (the first line holding
    them all, else the first holding one); None when the match is not in the transcript."""
    if snippet is None or snippet.field != "transcript":
        return None
    matched = {word for found in _MARKED.findall(snippet.text) for word in _words(found)}
    stored = stored_transcript(db, item_id)
    if not matched or stored is None or stored.transcript is None:
        return None
    lines = [(cue.start, set(_words(cue.text))) for cue in stored.transcript.cues]
    for wanted in (matched.issubset, lambda words: not matched.isdisjoint(words)):
        for start, words in lines:
            if wanted(words):
                return round(start, 2)
    return None
