"""Ask at scale (issue 39 §2): a synthetic library (synthetic.py: ``items`` episodes with show notes) given
``hours`` of transcripts (one-hour episodes, sentences of synthetic.py's words, one line every ~4 s); then the
passage index built with the default sentence model (passages per CPU second, cutting, words and vectors
together), its size beside the library's, the vectors' speed alone on 256 transcript windows (for
all-MiniLM-L6-v2 too, when its test copy is installed), and the time per question (p95 of 200, wall clock and
CPU) on words alone and with the model. ``--keep DIR`` keeps the library (and its index) there and uses them
again on the next run (``--reindex`` builds the index again, to measure indexing):

    .venv/bin/python bench/ask_scale.py --keep /tmp/askscale [--reindex] [--items N] [--hours H]"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
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


def _library(folder: Path, items: int, hours: int) -> Path:
    """The bench's library in ``folder`` (made when it is not there yet)."""
    from synthetic import cached_library

    library = folder / f"big-{items}-{hours}.db"
    if not library.exists():
        partial = folder / "partial.db"
        shutil.copyfile(cached_library(episodes=items).path, partial)
        add_transcripts(partial, hours)
        partial.rename(library)
    return library


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _index(db: object, library: Path, embedder: object, reindex: bool) -> sqlite3.Connection:
    """The passage index with the default sentence model's vectors (built, and its speed printed, when new or
    asked)."""
    from earmark.core.passages.indexer import index_library
    from earmark.core.passages.store import open_index, passages_path, reset

    index = open_index(passages_path(library))
    if reindex:
        reset(index)
    wall, cpu = time.perf_counter(), time.process_time()
    result = index_library(db, index, embedder)  # type: ignore[arg-type]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if result.passages:
        rate = result.passages / cpu
        print(f"  indexing with {result.model}: {result.passages:,} passages (cut, words and vectors) in {wall:.0f} s "
              f"({cpu:.0f} s of CPU) = {rate:,.0f} passages/s per core  target >= {TARGET_RATE:.0f}  "
              f"{'OK' if rate >= TARGET_RATE else 'MISSED'}  load {load_average()}")
        index.execute("VACUUM")
    else:
        print("  indexing: the kept index was used (--reindex to measure it)")
    index.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return index


def _size(index: sqlite3.Connection, library: Path) -> None:
    from earmark.core.passages.store import passages_path

    count = index.execute("SELECT count(*) FROM passages").fetchone()[0]
    index_bytes, library_bytes = passages_path(library).stat().st_size, library.stat().st_size
    share = index_bytes / library_bytes
    width = index.execute("SELECT max(length(bits)) FROM passages").fetchone()[0] or 0
    print(f"  passage index {index_bytes / 1e6:.0f} MB (with {width}-byte vectors for all {count:,} passages) = "
          f"{share:.1%} of the library  target <= {TARGET_SHARE:.0%}  {'OK' if share <= TARGET_SHARE else 'MISSED'}")
    parts = index.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6").fetchall()
    print("    of which: " + ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in parts))


def _model_rate(db: object, index: sqlite3.Connection, embedder: object) -> None:
    """Vectors alone of 256 transcript windows: passages per CPU second, and the word pieces each was cut to."""
    from earmark.core.passages.indexer import item_passages

    first = [row[0] for row in index.execute("SELECT DISTINCT item_id FROM passages WHERE source = 'transcript' "
                                             "ORDER BY item_id LIMIT 4")]
    texts = [f"{title}. {p.text}" for _i, title, ps in item_passages(db, first) for p in ps  # type: ignore[arg-type]
             if p.source == "transcript"][:256]
    pieces = statistics.mean(len(e.ids) for e in embedder.tokenizer.encode_batch(texts))  # type: ignore[attr-defined]
    embedder.vectors(texts[:32])  # type: ignore[attr-defined]
    wall, cpu = time.perf_counter(), time.process_time()
    embedder.vectors(texts)  # type: ignore[attr-defined]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"    vectors alone, {embedder.name}: {len(texts) / cpu:,.0f} passages/s per core = "  # type: ignore[attr-defined]
          f"{1000 * cpu / len(texts):.2f} ms of CPU a passage ({len(texts)} transcript windows, {pieces:.0f} word "
          f"pieces each; wall {wall:.2f} s)")


def _questions(db: object, index: sqlite3.Connection, embedder: object) -> None:
    from earmark.core.passages.ask import Asker

    vocabulary = [w for (t,) in db.execute("SELECT title FROM items LIMIT 3000") for w in t.lower().split()]  # type: ignore[attr-defined]
    questions = [" ".join(random.Random(n).choices(vocabulary, k=random.Random(n).randint(2, 7)))
                 for n in range(200)]
    for label, asker in (("words alone", Asker(db, index)), ("with the model", Asker(db, index, embedder))):  # type: ignore[arg-type]
        asker.ask("warm up", 10)
        times, cpus = [], []
        for question in questions:
            wall, cpu = time.perf_counter(), time.process_time()
            asker.ask(question, 10)
            times.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"  per question, {label}: median {statistics.median(times):.0f} ms, p95 {p95:.0f} ms (CPU median "
              f"{statistics.median(cpus):.0f} ms, p95 {statistics.quantiles(cpus, n=20)[-1]:.0f} ms)  "
              f"target <= {TARGET_P95_MS:.0f} ms  {'OK' if p95 <= TARGET_P95_MS else 'MISSED'}  load {load_average()}")


def scale(items: int, hours: int, keep: Path | None = None, reindex: bool = False) -> None:
    from ask import minilm_test_model, static_test_model
    from earmark.core.db.connection import open_library
    from earmark.core.passages.catalogue import DEFAULT, MINILM
    from earmark.core.passages.vectors import load

    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        library = _library(folder, items, hours)
        print(f"scale: {items:,} items, {hours:,} hours of transcripts; library {library.stat().st_size / 1e6:.0f} MB"
              f"  load {load_average()}")
        db = open_library(library)
        embedder = load(static_test_model(Path(tmp) / "static"), DEFAULT)
        index = _index(db, library, embedder, reindex or keep is None)
        _size(index, library)
        _model_rate(db, index, embedder)
        minilm = minilm_test_model(Path(tmp) / "minilm")
        if minilm is not None:
            _model_rate(db, index, load(minilm, MINILM))
        _questions(db, index, embedder)
        index.close()
        db.close()


def add_scale_options(parser: argparse.ArgumentParser) -> None:
    """The options of a run at scale (bench/ask.py --scale takes them too)."""
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--hours", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="keep the library and its index in this folder, and use them again")
    parser.add_argument("--reindex", action="store_true", help="build the kept index again (to measure indexing)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_scale_options(parser)
    args = parser.parse_args()
    print(f"load average: {load_average()}  ({os.cpu_count()} cores)")
    scale(args.items, args.hours, args.keep, args.reindex)
    return 0


if __name__ == "__main__":
    sys.exit(main())
