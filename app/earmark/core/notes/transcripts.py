"""Transcripts of episodes: which of a feed's transcripts to use, fetching one, and the quote for a note."""

from __future__ import annotations

import bisect
import re
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from earmark.core.db.database import Database
from earmark.core.db.notes import add_note
from earmark.core.db.transcripts import StoredTranscript, stored_transcript, transcript_links
from earmark.core.errors import UnreachableError
from earmark.core.feeds.fetch import fetch, is_web_url
from earmark.core.models import Cue, Note, Transcript
from earmark.core.notes.transcript_parse import parse_transcript

GENERATED = "generated:"  # the url of a transcript made on this machine starts so (core/transcribe/episode.py)
# Formats by preference: timed ones first, those with speakers and exact times before HTML paragraphs.
_PREFERENCE = {"application/json": 0, "text/vtt": 1, "application/srt": 2, "application/x-subrip": 2,
               "text/srt": 2, "text/html": 3}
_SENTENCE = re.compile(r"[^.!?…\n]+(?:[.!?…]+[\"'”’)\]]*|$)", re.MULTILINE)
QUOTE_WINDOW = (90.0, 30.0)  # seconds of transcript read before and after a note's time
MAX_QUOTE_CHARS = 500


def choose_link(links: list[dict[str, str]]) -> dict[str, str] | None:
    """The transcript to show among those a feed names: the best format, the feed's order otherwise."""
    if not links:
        return None
    return min(enumerate(links), key=lambda pair: (_PREFERENCE.get(pair[1].get("type", ""), 9), pair[0]))[1]


def fetch_transcript(url: str) -> Transcript:
    """Fetch and read a transcript (network and parsing: run it off the UI thread).

    UnreachableError or TranscriptError, with a sentence, when that fails. Only web addresses are fetched (a
    restored backup or an edited library could name a local file)."""
    if not is_web_url(url):
        raise UnreachableError(f"The transcript address {url!r} is not a web address, so Earmark does not fetch it.")
    fetched = fetch(url)
    name = PurePosixPath(urlsplit(fetched.url).path).name or fetched.url
    return parse_transcript(fetched.data, name)


def quote_at(transcript: Transcript, at: float) -> str:
    """The sentence being spoken at ``at`` seconds and the one before it (people mark what they just heard).

    Sentences run across cues; a time inside a long cue is placed in its text in proportion. Empty when
    ``at`` is outside the transcript."""
    cues = transcript.cues
    if not cues or at < cues[0].start or at > max(cue.end for cue in cues) + 5:
        return ""
    starts = [cue.start for cue in cues]
    first = max(0, bisect.bisect_right(starts, at - QUOTE_WINDOW[0]) - 1)
    last = bisect.bisect_right(starts, at + QUOTE_WINDOW[1])
    text, spans = _joined(cues[first:last], paragraphs=transcript.format == "html")
    sentences = [(m.start(), m.group().strip()) for m in _SENTENCE.finditer(text) if m.group().strip()]
    times = [_time_at(spans, offset) for offset, _ in sentences]
    current = max(0, bisect.bisect_right(times, at) - 1)
    chosen = [sentence for _, sentence in sentences[max(0, current - 1):current + 1]]
    while len(chosen) > 1 and len(" ".join(chosen)) > MAX_QUOTE_CHARS:
        chosen.pop(0)
    quote = " ".join(chosen)
    return quote if len(quote) <= MAX_QUOTE_CHARS else quote[:MAX_QUOTE_CHARS - 1].rstrip() + "…"


def _joined(cues: list[Cue], paragraphs: bool) -> tuple[str, list[tuple[int, int, Cue]]]:
    """The cues' text as one string, and where each cue's text starts and ends in it. A sentence ends where
    the speaker changes, and at the end of each cue that is a paragraph; otherwise sentences run on."""
    text = ""
    spans: list[tuple[int, int, Cue]] = []
    for number, cue in enumerate(cues):
        if number:
            text += "\n" if paragraphs or cue.speaker != cues[number - 1].speaker else " "
        spans.append((len(text), len(text) + len(cue.text), cue))
        text += cue.text
    return text, spans


def _time_at(spans: list[tuple[int, int, Cue]], offset: int) -> float:
    index = max(0, bisect.bisect_right([start for start, _, _ in spans], offset) - 1)
    start, end, cue = spans[index]
    share = min(1.0, (offset - start) / (end - start)) if end > start else 0.0
    return cue.start + share * (cue.end - cue.start)


def take_note(db: Database, item_id: int, text: str, at: float | None = None,
              now: str | None = None) -> Note:
    """Keep a note; with a time on an episode whose transcript is cached, the sentences there go with it."""
    stored = stored_transcript(db, item_id) if at is not None else None
    quote = quote_at(stored.transcript, at) if stored and stored.transcript and at is not None else ""
    return add_note(db, item_id, text, at, quote, now)


def transcript_to_show(db: Database, item_id: int) -> tuple[StoredTranscript | None, str | None]:
    """The item's transcript URL (None when its feed names none and none was made here) and what the cache
    holds for that URL. A transcript made here is shown whatever the feed names (it replaced the feed's only
    when the user asked)."""
    stored = stored_transcript(db, item_id)
    if stored is not None and stored.url.startswith(GENERATED):
        return stored, stored.url
    link = choose_link(transcript_links(db, item_id))
    if link is None:
        return None, None
    return (stored if stored is not None and stored.url == link["url"] else None), link["url"]
