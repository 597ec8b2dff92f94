"""The words an episode is primed with: its title, chapter titles, its show notes, the names in them and the
podcast's most specific terms, given to the engine as its initial prompt (Whisper keeps the prompt's last ~220
tokens, so the prompt is kept within that and the terms come last, the episode's own at the end); the names are
then written as the show writes them in what was heard."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import field

from earmark.core.chapters import cached_chapters
from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.text.identifiers import looks_technical
from earmark.core.transcribe.respell import sounds, spellings

_WORD = re.compile(r"\w(?:[\w+]|[.\-](?=\w))*")  # a word or a name (torch.compile, all-reduce, C++)
_SENTENCE_ENDS = ".!?:…\"“”\n"
MAX_PROMPT_CHARS = 700  # about 200 tokens of English: what fits in Whisper's prompt
EPISODE_TERMS = 40  # names taken from the episode's own show notes
PODCAST_TERMS = 25  # terms of the podcast taken from its other episodes
PODCAST_EPISODES = 200  # the newest episodes read for the podcast's terms


def names_in(text: str) -> list[str]:
    """The names in a text, most frequent first: technical words (PyTorch, CUDA, torch.compile) and words
    written with a capital inside a sentence (Kubernetes, Hidet)."""
    counts: Counter[str] = Counter()
    for found in _WORD.finditer(text):
        surface = found.group()
        before = text[:found.start()].rstrip()
        capital_inside = surface[:1].isupper() and bool(before) and before[-1] not in _SENTENCE_ENDS
        if len(surface) > 2 and (looks_technical(surface) or capital_inside):
            counts[surface] += 1
    return [name for name, _ in counts.most_common()]


def podcast_terms(db: Database, source_id: int | None, item_id: int) -> list[str]:
    """The podcast's most specific terms: names used in several of its episodes, by how many use them, a tie
    broken by the newest episode naming them first (never by Python's per-process string hashing: the prompt,
    and so what the engine hears, would change from one run to the next)."""
    if source_id is None:
        return []
    rows = db.execute("SELECT title || '. ' || text FROM items WHERE source_id = ? AND id != ? "
                      "ORDER BY published DESC, id DESC LIMIT ?", [source_id, item_id, PODCAST_EPISODES]).fetchall()
    episodes: Counter[str] = Counter()
    for (text,) in rows:
        episodes.update(names_in(text or ""))  # each name once, in the order met
    return [name for name, count in episodes.most_common(PODCAST_TERMS) if count > 1]


@record(frozen=True)
class Vocabulary:
    """An episode's words for the engine: the prompt it is primed with, and the names written as the show writes
    them (core/transcribe/respell.py) once heard, or once heard doubtfully as words that sound as they do."""

    prompt: str = ""
    names: dict[str, str] = field(default_factory=dict)
    sounds: dict[str, str] = field(default_factory=dict)


def episode_vocabulary(db: Database, item_id: int) -> Vocabulary:
    """The initial prompt for transcribing an episode: its title and chapter titles, the start of its show
    notes, then the podcast's terms and the names in the notes (empty when it has no words of its own); and the
    spellings of every name in them."""
    row = db.execute("SELECT title, text, source_id FROM items WHERE id = ?", [item_id]).fetchone()
    if row is None:
        return Vocabulary()
    title, notes, source_id = row
    notes = " ".join((notes or "").split())
    chapters = [chapter.title for chapter in cached_chapters(db, item_id) or []]
    in_notes = names_in(notes)
    podcast = podcast_terms(db, source_id, item_id)
    terms = _unique([*in_notes[:EPISODE_TERMS], *podcast])
    tail = ", ".join(reversed(terms))  # the episode's most frequent names last, nearest the speech
    if len(tail) > MAX_PROMPT_CHARS // 2:
        tail = tail[-(MAX_PROMPT_CHARS // 2):].split(", ", 1)[-1]
    head = ". ".join(part.strip().rstrip(".") for part in (title, ", ".join(chapters)) if part.strip())
    room = MAX_PROMPT_CHARS - len(head) - len(tail) - 4
    if len(notes) > room:
        notes = notes[:max(0, room)].rsplit(" ", 1)[0] + "…" if room > 0 else ""
    prompt = " ".join(part for part in (f"{head}." if head else "", notes, f"{tail}." if tail else "") if part)
    shouted = _shouted(f"{head} {notes}")
    terms = [term for term in (*names_in(head), *in_notes, *podcast) if term.lower() not in shouted]
    return Vocabulary(prompt, spellings(terms), sounds(terms))


def _shouted(text: str) -> set[str]:
    """Words the show writes in capitals only for emphasis (SINGLE, TORCH): it also writes them in lower case
    as words of their own, so a heard "single" stays as it is."""
    words = {found.group() for found in _WORD.finditer(text)}
    return {word.lower() for word in words if word.isupper() and word.lower() in words}


def _unique(names: list[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for name in names:
        if name.lower() not in seen:
            seen.add(name.lower())
            kept.append(name)
    return kept
