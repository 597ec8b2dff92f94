"""Libraries with a realistic technical vocabulary: the synthetic library's feeds and items (bench/synthetic.py),
their titles and show notes replaced by the sample library's texts recombined (resources/sample, written from
the seed documents): each item takes a title and 3 to 12 sentences drawn from the sample, so names such as
AOTAutograd, CUDA graphs or TorchDynamo recur across thousands of items as they would in a real library. Cached
beside the synthetic ones."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.search_words import learn_pending
from earmark.core.html import to_text
from earmark.core.sample import read_sample
from synthetic import CACHE_DIR, cached_library

VERSION = 2  # bump when the recombination changes (2: the search vocabulary learnt, as for any written item)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _pool() -> tuple[list[str], list[str]]:
    """The sample's titles and sentences."""
    sample = read_sample()
    titles = [entry.title for entry in sample.feed.entries] + [article.title for article in sample.articles]
    texts = [to_text(entry.description or "") for entry in sample.feed.entries]
    texts += [to_text(article.html) for article in sample.articles]
    sentences = [s.strip() for text in texts for s in _SENTENCE.split(text) if len(s.strip()) > 30]
    return titles, sentences


def realistic_library(items: int, feeds: int = 100, seed: int = 1) -> Path:
    """The cached realistic library of ``items`` episodes in ``feeds`` feeds (built first when missing)."""
    path = CACHE_DIR / f"realistic-v{VERSION}-f{feeds}-e{items}-r{seed}.sqlite"
    if path.exists():
        return path
    base = Path(cached_library(podcasts=feeds, episodes=items, seed=seed).path)
    partial = path.with_name(path.name + ".partial")
    shutil.copyfile(base, partial)
    titles, sentences = _pool()
    rng = random.Random(seed)
    db = open_library(partial)
    rows = []
    for (item_id,) in db.execute("SELECT id FROM items ORDER BY id"):
        text = " ".join(rng.choices(sentences, k=rng.randint(3, 12)))
        rows.append((f"{rng.choice(titles)} ({item_id})", text, f"<p>{text}</p>", item_id))
    with db.conn:
        db.conn.executemany("UPDATE items SET title = ?, text = ?, description = ? WHERE id = ?", rows)
        db.execute("DELETE FROM graph_dirty")
        learn_pending(db.conn)  # as write_transaction does before its commit: else the first write of the pass does
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    partial.rename(path)
    path.with_suffix(".json").write_text(json.dumps({"items": items, "feeds": feeds, "seed": seed}) + "\n")
    return path
