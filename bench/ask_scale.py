"""Ask at scale (issue 39 §2): a synthetic library (synthetic.py: ``items`` episodes with show notes) given
``hours`` of transcripts (one-hour episodes, sentences of synthetic.py's words, one line every ~4 s); then the
passage index built on words alone (passages per CPU second: indexing is one thread), its size beside the
library's, and the time per question (p95 of 200) on words alone and with the sentence model.

Vectors for every passage of such a library would take hours to make here, so the indexing speed with the model
is measured on 300 passages, and the time per question with the model on bits drawn at random for
every passage (scanning them costs the same whatever they say); their size counts in the index's."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

TARGET_P95_MS, TARGET_SHARE, TARGET_RATE = 100.0, 0.25, 200.0


def add_transcripts(library: Path, hours: int, seed: int = 1) -> None:
    """``hours`` one-hour transcripts on the library's first episodes."""
    rng = random.Random(seed)
    conn = sqlite3.connect(library)
    words = [row[0] for row in conn.execute("SELECT title FROM items LIMIT 2000")]
    vocabulary = sorted({w.lower() for title in words for w in title.split() if w.isalpha()})
    ids = [row[0] for row in conn.execute("SELECT id FROM items WHERE kind = 'episode' ORDER BY id LIMIT ?", [hours])]
    with conn:
        for item_id in ids:
            cues, at = [], 0.0
            while at < 3600:
                length = rng.uniform(2.5, 6.0)
                text = " ".join(rng.choices(vocabulary, k=rng.randint(6, 16))).capitalize() + rng.choice("..,?")
                cues.append([round(at, 2), round(at + length, 2), text, ""])
                at += length
            conn.execute("INSERT OR REPLACE INTO transcripts (item_id, url, type, fetched, cues) VALUES "
                         "(?, 'generated:bench', 'generated', '2026-01-01T00:00:00', ?)", [item_id, json.dumps(cues)])
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def scale(items: int, hours: int) -> None:
    import numpy as np

    from ask import sentence_test_model
    from earmark.core.db.connection import open_library
    from earmark.core.passages.ask import Asker
    from earmark.core.passages.indexer import index_library
    from earmark.core.passages.store import open_index, passages_path
    from earmark.core.passages.vectors import Embedder
    from synthetic import cached_library

    info = cached_library(episodes=items)
    with tempfile.TemporaryDirectory() as tmp:
        library = Path(tmp) / "big.db"
        shutil.copyfile(info.path, library)
        add_transcripts(library, hours)
        library_bytes = library.stat().st_size
        db = open_library(library)
        index = open_index(passages_path(library))
        wall, cpu = time.perf_counter(), time.process_time()
        result = index_library(db, index, None)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        rate = result.passages / cpu
        print(f"scale: {items:,} items, {hours:,} hours of transcripts; library {library_bytes / 1e6:.0f} MB")
        print(f"  indexing on words alone: {result.passages:,} passages in {wall:.0f} s ({cpu:.0f} s of CPU) = "
              f"{rate:,.0f} passages/s per core  target >= {TARGET_RATE:.0f}  "
              f"{'OK' if rate >= TARGET_RATE else 'MISSED'}")
        count = index.execute("SELECT count(*) FROM passages").fetchone()[0]
        rng = np.random.default_rng(1)
        with index:
            index.executemany("UPDATE passages SET bits = ? WHERE id = ?",
                              ((rng.integers(0, 256, 48, dtype=np.uint8).tobytes(), n)
                               for (n,) in index.execute("SELECT id FROM passages").fetchall()))
        index.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        index_bytes = passages_path(library).stat().st_size
        share = index_bytes / library_bytes
        print(f"  passage index {index_bytes / 1e6:.0f} MB (with 48-byte vectors for all {count:,} passages) = "
              f"{share:.0%} of the library  target <= {TARGET_SHARE:.0%}  "
              f"{'OK' if share <= TARGET_SHARE else 'MISSED'}")
        parts = index.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6").fetchall()
        print("    of which: " + ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in parts))
        embedder = Embedder(sentence_test_model(Path(tmp) / "model"), "test")
        texts = [f"{title}. {text}" for title, text in db.execute("SELECT title, text FROM items LIMIT 300")]
        started = time.process_time()
        embedder.vectors(texts)
        embedded = len(texts) / (time.process_time() - started)
        print(f"  indexing with the sentence model: {embedded:,.0f} passages/s per core (vectors of 300 show notes)"
              f"  target >= {TARGET_RATE:.0f}  {'OK' if embedded >= TARGET_RATE else 'MISSED'}")
        vocabulary = [w for (t,) in db.execute("SELECT title FROM items LIMIT 3000") for w in t.lower().split()]
        questions = [" ".join(random.Random(n).choices(vocabulary, k=random.Random(n).randint(2, 7)))
                     for n in range(200)]
        for label, asker in (("words alone", Asker(db, index)), ("with the model", Asker(db, index, embedder))):
            asker.ask("warm up", 10)
            times = []
            for question in questions:
                started = time.perf_counter()
                asker.ask(question, 10)
                times.append((time.perf_counter() - started) * 1000)
            p95 = statistics.quantiles(times, n=20)[-1]
            print(f"  per question, {label}: median {statistics.median(times):.0f} ms, p95 {p95:.0f} ms  "
                  f"target <= {TARGET_P95_MS:.0f} ms  {'OK' if p95 <= TARGET_P95_MS else 'MISSED'}")
        index.close()
        db.close()
