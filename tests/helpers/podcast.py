"""A local podcast for tests: WAV episodes generated on the spot and an RSS feed pointing at them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from helpers.audio import write_chaptered_flac, write_tone


@dataclass(frozen=True)
class Episode:
    """An episode to put in the feed."""

    title: str
    seconds: float
    description: str = ""
    chapters: tuple[tuple[float, str], ...] = ()  # when given, the audio is FLAC with these chapters


def write_podcast(folder: Path, episodes: list[Episode], title: str = "Test Cast") -> Path:
    """Write the audio files and ``feed.xml`` into ``folder``; returns the feed's path.

    The first episode is the newest (it is listed first in the app).
    """
    folder.mkdir(parents=True, exist_ok=True)
    items = []
    for number, episode in enumerate(episodes):
        if episode.chapters:
            audio = write_chaptered_flac(folder / f"episode-{number}.flac", episode.seconds, list(episode.chapters))
        else:
            audio = write_tone(folder / f"episode-{number}.wav", episode.seconds, 300 + 50 * number)
        items.append(
            f"""<item><title>{escape(episode.title)}</title><guid>test-{number}</guid>
            <pubDate>Mon, {20 - number:02d} May 2024 10:00:00 +0000</pubDate>
            <description>{escape(episode.description or episode.title)}</description>
            <enclosure url="{audio.name}" type="audio/{audio.suffix[1:]}" length="{audio.stat().st_size}"/></item>"""
        )
    feed = folder / "feed.xml"
    feed.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>{escape(title)}</title>
        <link>https://example.invalid/</link><description>Test feed</description>{''.join(items)}</channel></rss>""",
        encoding="utf-8",
    )
    return feed
