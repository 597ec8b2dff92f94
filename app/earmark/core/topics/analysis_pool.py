"""Reading and analysing the library block by block, in worker processes when it is large (each reads its own
blocks with a read-only connection): the concepts of each item, its links and names, and the series its title
names. Blocks come back in id order."""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.topics import citations
from earmark.core.topics.analysis import Analysed, analyse_block
from earmark.core.topics.corpus import read_range
from earmark.core.topics.scoring import series_name
from earmark.core.topics.teaching import item_concepts

BLOCK = 1000  # items read and analysed at once
POOL_FROM = 4000  # items: from here on the analysis runs in worker processes
WORKERS = 2
PR_SET_PDEATHSIG = 1
LABEL_SAMPLE = 400  # the first items whose whole texts decide how concepts are shown ("CUDA graphs")


@record
class BlockFacts:
    """What one block of items gave: its analysis, links and names, the concepts its titles and chapters name
    (term, item, strength: see teaching.py), and series names (with the item's source)."""

    first: int
    last: int
    analysed: Analysed
    links: list[tuple[int, str, str]] = field(default_factory=list)
    keys: list[tuple[str, int]] = field(default_factory=list)
    concepts: list[tuple[str, int, float]] = field(default_factory=list)
    series: dict[int, tuple[str, int | None]] = field(default_factory=dict)


class _Worker:
    """What a worker process keeps between blocks: its connection and the sources' boilerplate."""

    db: Database | None = None
    shared: dict[int, frozenset[str]] = {}  # noqa: RUF012 - set once per process by _start


def _start(path: str, shared: dict[int, frozenset[str]]) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pass's own handler stops the pass, not its workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    _Worker.db = open_library(path, read_only=True)
    _Worker.shared = shared
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()


def _die_with_parent() -> None:
    """Ask Linux to kill this worker the moment the pass dies (prctl PR_SET_PDEATHSIG), however busy it is."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the thread below notices


def _exit_with(parent: int) -> None:
    """End this worker as soon as the pass that started it is gone (killed, it could not say so)."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


def _facts(block: tuple[int, int, int]) -> BlockFacts:
    db = _Worker.db
    assert db is not None
    first, last, sample = block
    return block_facts(db, first, last, _Worker.shared, sample)


def block_facts(db: Database, first: int, last: int, shared: dict[int, frozenset[str]],
                sample: int) -> BlockFacts:
    """Read and analyse the items with ids ``first``..``last``."""
    docs = read_range(db, first, last)
    facts = BlockFacts(first, last, analyse_block(docs, lambda s: shared.get(s or -1, frozenset()), sample))
    for doc in docs:
        facts.links += [(doc.id, target, how) for target, how in
                        citations.item_links(doc.markup, doc.text, doc.remote_items)]
        facts.keys += [(key, doc.id) for key in citations.item_keys(doc.title, doc.url, doc.enclosure_url, doc.guid)]
        facts.concepts += [(term, doc.id, strength)
                           for term, strength in item_concepts(doc.title, doc.chapters, doc.text)]
        name = series_name(doc.title)
        if name is not None:
            facts.series[doc.id] = (name, doc.source_id)
    return facts


def ranges(db: Database) -> list[tuple[int, int]]:
    """The id ranges of the blocks (BLOCK items each, in id order)."""
    ids = [row[0] for row in db.execute("SELECT id FROM items ORDER BY id")]
    return [(ids[start], ids[min(len(ids), start + BLOCK) - 1]) for start in range(0, len(ids), BLOCK)]


def library_path(db: Database) -> str:
    """The file of an open library."""
    return str(db.execute("PRAGMA database_list").fetchone()[2])


def _can_fork(db: Database, items: int) -> bool:
    """Whether to analyse in worker processes: a large library, two cores or more, a library file, and this
    process single-threaded (``earmark update-relations``), so that forking it is safe (the workers open their own
    connections and never touch this one; they end with os._exit, leaving it alone)."""
    return (items >= POOL_FROM and (os.cpu_count() or 1) >= 2 and hasattr(os, "fork")
            and threading.active_count() == 1 and Path(library_path(db)).is_file())


def analyse_library(db: Database, shared: dict[int, frozenset[str]]) -> Iterator[BlockFacts]:
    """Every block's facts, in id order: in WORKERS processes when _can_fork, else in this process."""
    blocks = ranges(db)
    samples = [max(0, LABEL_SAMPLE - number * BLOCK) for number in range(len(blocks))]
    if not _can_fork(db, len(blocks) * BLOCK):
        for (first, last), sample in zip(blocks, samples, strict=True):
            yield block_facts(db, first, last, shared, sample)
        return
    import multiprocessing

    pool = multiprocessing.get_context("fork").Pool(WORKERS, initializer=_start, initargs=(library_path(db), shared))
    try:
        yield from pool.imap(_facts, [(first, last, sample) for (first, last), sample in zip(blocks, samples,
                                                                                              strict=True)])
    finally:
        pool.terminate()  # at once, also when the pass is stopped: the workers' blocks are of no use then
        pool.join()
