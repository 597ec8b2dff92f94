"""Topic graph benchmark (issue 8), on cached synthetic libraries (bench/synthetic.py).

Prints:
- related items on demand at 10,000 items: reading an item's stored related items, and working out a new item
  against the stored index (what happens when an episode arrives);
- all relations for 1,000 and 10,000 items: the full build (read, key phrases and vectors, citations, all pairs)
  and storing it;
- layout time for 1,000 and 5,000 nodes (igraph's Fruchterman-Reingold, from scratch, and refined from stored
  positions);
- frame time when panning a 2,000-node graph in the real GraphView (offscreen), at the fitted zoom and closer in.

Targets (2-core machine): on demand < 10 ms, all pairs for 10k < 5 s (in the background), layout of 5,000 nodes
< 2 s, panning < 16 ms a frame. A benchmark prints figures; it never fails.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from earmark.core.db import relations as store  # noqa: E402
from earmark.core.db.connection import open_library  # noqa: E402
from earmark.core.db.merge import store_feed  # noqa: E402
from earmark.core.models import EntryData, FeedData  # noqa: E402
from earmark.core.topics.build import compute_build, index_items  # noqa: E402
from earmark.core.topics.graph import GraphFilter, all_edges, read_graph, strongest_edges  # noqa: E402
from earmark.core.topics.layout import layout, store_layout  # noqa: E402
from synthetic import _sentence_pool, _text, cached_library  # noqa: E402 - after the path set-up above


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def rss() -> str:
    return f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"


def working_copy(items: int, folder: Path) -> Path:
    """A copy of the cached synthetic library of ``items`` episodes (so the cache stays untouched)."""
    info = cached_library(podcasts=max(10, items // 100), episodes=items, seed=1)
    target = folder / f"library-{items}.db"
    shutil.copyfile(info.path, target)
    return target


def full_build(path: Path, runs: int) -> None:
    db = open_library(path)
    items = db.execute("SELECT count(*) FROM items").fetchone()[0]
    builds, stores = [], []
    build = None
    for _run in range(runs):
        started = time.perf_counter()
        build = compute_build(db)
        builds.append(time.perf_counter() - started)
        stores.append(timed(lambda b=build: store.store_build(db, b)))
    assert build is not None
    steps = "  ".join(f"{name} {seconds:.2f} s" for name, seconds in build.seconds.items())
    print(f"  all relations, {items:>6,} items: {statistics.median(builds):6.2f} s worked out (median of {runs};"
          f" min {min(builds):.2f} s) + {statistics.median(stores):5.2f} s stored"
          f"   [{steps}; {len(build.relations):,} relations, {len(build.terms):,} terms]")
    db.close()


def on_demand(path: Path, samples: int) -> None:
    db = open_library(path)
    ids = [row[0] for row in db.execute("SELECT item_id FROM graph_index")]
    rng = random.Random(3)
    picks = rng.sample(ids, min(samples, len(ids)))
    store.related_items(db, picks[0], 10)
    reads = [timed(lambda i=i: store.related_items(db, i, 10)) for i in picks]
    print(f"  stored related items of one item (top 10, {len(picks)} items): median {ms(statistics.median(reads))}"
          f"   p95 {ms(percentile(reads, 0.95))}")
    sentences = _sentence_pool(random.Random(7))
    news = []
    for number in range(20):
        entry = EntryData(identity=f"guid:new-{number}", kind="episode", title=f"New episode {number}",
                          guid=f"new-{number}", enclosure_url=f"https://example.invalid/new/{number}.mp3",
                          description=f"<p>{_text(rng, sentences, 300, 1500)}</p>")
        news.append(store_feed(db, "https://example.invalid/bench-new.xml",
                               FeedData(title="Bench news", entries=[entry])).new[0])
    indexing = [timed(lambda i=i: index_items(db, [i])) for i in news]
    print(f"  a new item worked out against the stored index (20 items): median {ms(statistics.median(indexing))}"
          f"   p95 {ms(percentile(indexing, 0.95))}   (its key phrases, candidates through the term index, "
          "scores, and its place in the others' lists, written)")
    db.close()


def layouts(path: Path, sizes: tuple[int, ...]) -> None:
    db = open_library(path)
    edges = strongest_edges(list(all_edges(db).values()))
    ordered = [row[0] for row in db.execute("SELECT item_id FROM graph_index ORDER BY item_id")]
    for size in sizes:
        nodes = ordered[:size]
        kept = set(nodes)
        mine = [e for e in edges if e.a in kept and e.b in kept]
        started = time.perf_counter()
        fresh = layout(nodes, mine)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        layout(nodes, mine, fresh)
        refined = time.perf_counter() - started
        print(f"  layout of {size:>5,} nodes, {len(mine):>6,} edges: {seconds:6.2f} s from scratch, "
              f"{refined:6.2f} s refined from stored positions")
    db.close()


def panning(path: Path, frames: int) -> None:
    from PySide6.QtWidgets import QApplication

    from earmark.gui.graph.scene import GraphScene
    from earmark.gui.graph.view import GraphView

    db = open_library(path)
    nodes = [row[0] for row in db.execute("SELECT item_id FROM graph_index ORDER BY item_id")]
    store_layout(db, layout(nodes, strongest_edges(list(all_edges(db).values()))))
    data = read_graph(db, GraphFilter())
    db.close()
    app = QApplication.instance() or QApplication([sys.argv[0]])
    scene = GraphScene()
    scene.show_graph(data)
    view = GraphView(scene)
    view.resize(1200, 800)
    view.show()
    app.processEvents()
    print(f"  panning {len(data.nodes):,} nodes, {len(data.edges):,} edges (best connected of {data.matched:,}),"
          f" 1200x800 view, {frames} frames each:")
    for label, zoom in (("fitted", None), ("closer (3x)", 3.0)):
        view.fit()
        if zoom:
            view.zoom(zoom)
        app.processEvents()
        bar = view.horizontalScrollBar()
        if bar.maximum() == bar.minimum():
            print(f"    {label:<12} (the whole graph fits: a drag step has nothing to scroll)")
        scrolled, full = [], []
        for frame in range(frames):
            step = 12 if (frame // 40) % 2 == 0 else -12
            started = time.perf_counter()
            bar.setValue(bar.value() + step)
            app.processEvents()
            scrolled.append(time.perf_counter() - started)
            full.append(timed(view.viewport().repaint))
        print(f"    {label:<12} drag step (scroll + paint of what it uncovers): "
              f"median {ms(statistics.median(scrolled))}   p95 {ms(percentile(scrolled, 0.95))}"
              f"   max {ms(max(scrolled))}")
        print(f"    {'':<12} whole view repainted:                         "
              f"median {ms(statistics.median(full))}"
              f"   p95 {ms(percentile(full, 0.95))}   max {ms(max(full))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="full builds of each size (default 3)")
    parser.add_argument("--frames", type=int, default=120, help="frames timed while panning (default 120)")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    print(f"topic graph benchmark: {os.cpu_count()} CPUs, load average {load:.2f}, python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="earmark-graph-bench-") as folder:
        small, large = working_copy(1000, Path(folder)), working_copy(10_000, Path(folder))
        print("all relations (scikit-learn TF-IDF over key phrases, sparse products in blocks of 1,000 rows):")
        import sklearn.feature_extraction.text  # noqa: F401 - imported once here, not inside the first timing

        full_build(small, args.runs)
        full_build(large, args.runs)
        print("related items on demand, 10,000 items:")
        on_demand(large, 200)
        print("layout (igraph Fruchterman-Reingold; grid above 300 nodes):")
        layouts(large, (1000, 5000))
        print("frame time:")
        panning(large, args.frames)
    print(f"peak RSS {rss()}; targets: on demand < 10 ms, all pairs 10k < 5 s, layout 5k < 2 s, pan < 16 ms/frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
