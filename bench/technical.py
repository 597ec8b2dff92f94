"""Search on technical vocabulary: the recall cases of issue 21 on the sample library (the PyTorch Developer
Podcast), and a larger library of the sample's sentences recombined (its compound names, acronyms and aliases at
scale) for the vocabulary's size and the latency of technical queries. Used by bench/search.py."""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.search_words import learn_pending
from earmark.core.sample import load_sample


@dataclass(frozen=True, slots=True)
class Case:
    """A search and an item it must find (within the first ``rank`` results), with why."""

    query: str
    title: str
    rank: int
    why: str


CASES = [
    Case("autograd", "AOTAutograd", 3, "a word inside a CamelCase name, the episode titled with it"),
    Case("AOTAutograd", "AOTAutograd", 1, "the exact name first"),
    Case("dynamo", "torchdynamo", 3, "inside a lower-case name (learnt from TorchDynamo)"),
    Case("dynamo", "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor", 5, "in TorchDynamo"),
    Case("accessor", "TensorAccessor", 1, "inside TensorAccessor"),
    Case("accesso", "TensorAccessor", 1, "as you type, a prefix inside a name"),
    Case("fully sharded data parallel", "Compiled autograd", 3, "an expansion finds its acronym (FSDP)"),
    Case("TorchInductor", "Inductor - IR", 8, "an alias of the maintained table (Inductor ~ TorchInductor)"),
    Case("graph", "CUDA graphs", 3, "a plain word, as before"),
    Case("__torch_function__", "Multiple dispatch in __torch_function__", 1, "a snake name as typed"),
]
TECHNICAL_QUERIES = ["autograd", "dynamo", "accessor", "fsdp", "torch", "cuda graph", "inductor", "te", "aot",
                     "tensor", "pt2", "fully sharded data parallel", "__torch_function__", "torch.compile", "dispatch",
                     "sym", "graph breaks", "vmap", "compiled autograd", "python"]
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def recall_cases(folder: Path) -> list[tuple[Case, int | None]]:
    """Each case with the rank (1 first) at which its item was found on the sample library, None if not."""
    db = open_library(folder / "sample.db")
    try:
        load_sample(db)
        found = []
        for case in CASES:
            titles = [item.title for item in list_items(db, ItemFilter(text=case.query))]
            found.append((case, titles.index(case.title) + 1 if case.title in titles else None))
        return found
    finally:
        db.close()


def build_technical(path: Path, items: int, seed: int = 1) -> float:
    """A library of ``items`` episodes made of the sample library's titles and sentences recombined (written as
    bench/synthetic.py writes, the vocabulary learnt before the commit); returns the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(seed)
    sample = Path(__file__).resolve().parent / ".cache" / f"sample-{seed}.db"
    sample.unlink(missing_ok=True)
    db = open_library(sample)
    load_sample(db)
    rows = db.execute("SELECT title, text FROM items").fetchall()
    db.close()
    sample.unlink()
    titles = [title for title, _text in rows]
    sentences = [s for _title, text in rows for s in _SENTENCE.split(text) if len(s) > 20]
    db = open_library(path)
    conn = db.conn
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO sources (id, kind, title, url, added) VALUES (1, 'podcast', 'Recombined', "
                 "'https://example.invalid/feed', '2025-01-01')")
    conn.executemany(
        "INSERT INTO items (source_id, kind, identity, title, text, published, added) "
        "VALUES (1, 'episode', ?, ?, ?, ?, "
        "'2025-01-01')",
        ((f"n:{n}", f"{rng.choice(titles)} ({n})", " ".join(rng.choices(sentences, k=rng.randint(4, 16))),
          f"20{10 + n % 15:02d}-01-01") for n in range(items)))
    learn_pending(conn)
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return time.perf_counter() - started
