"""A large library for tests that need a long relation pass: many synthetic episodes (random sentences over a
small vocabulary, as a busy library of many shows looks to the pass) added to a library in one transaction."""

from __future__ import annotations

import random
from pathlib import Path

from earmark.core.db.connection import open_library

WORDS = ("graph memory tensor compiler kernel thread queue cache stream model layer batch vector index shard "
         "network packet server client storage disk page block record schema query plan cost budget market energy "
         "river forest ocean music story science history health travel garden recipe game player season").split()


def add_episodes(library: Path, count: int, shows: int = 50, seed: int = 5) -> None:
    """Add ``count`` episodes in ``shows`` podcasts, each with a few hundred words of show notes."""
    rng = random.Random(seed)
    sentences = [" ".join(rng.choices(WORDS, k=rng.randint(6, 14))).capitalize() + "." for _ in range(600)]
    db = open_library(library)
    with db.conn:
        first = int(db.execute("SELECT coalesce(max(id), 0) FROM sources").fetchone()[0]) + 1
        db.conn.executemany(
            "INSERT INTO sources (id, kind, title, url, status, added) VALUES (?, 'podcast', ?, ?, 'ok', ?)",
            ((first + n, f"Show {n}", f"https://example.invalid/{n}.xml", "2025-01-01T00:00:00+00:00")
             for n in range(shows)))
        db.conn.executemany(
            """INSERT INTO items (source_id, kind, identity, guid, title, enclosure_url, published, description,
                                  text, added) VALUES (?, 'episode', ?, ?, ?, ?, ?, ?, ?, ?)""",
            ((first + n % shows, f"guid:big-{n}", f"big-{n}", f"Episode {n}: {' '.join(rng.choices(WORDS, k=4))}",
              f"https://example.invalid/{n}.mp3", f"2024-01-{1 + n % 28:02d}T00:00:00+00:00",
              text := " ".join(rng.choices(sentences, k=rng.randint(8, 20))), text, "2025-01-01T00:00:00+00:00")
             for n in range(count)))
    db.close()
