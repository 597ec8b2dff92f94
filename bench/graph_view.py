"""Frame times of the topic graph view at 1,000 nodes and 5,000 edges (issue 21, section 4).

The graph is a real one: the realistic library of 10,000 items (bench/realistic.py) with its relations worked out
and laid out, cut to its 1,000 best connected items and the 5,000 strongest edges among them. It is shown in the
real GraphPanel (offscreen, 1200x800), fitted, and then:
- panned: 12 pixels a step, each step scrolled and painted (what a drag does), at the fitted zoom and 3x closer;
- zoomed: the wheel turned three notches in, then three out, as a hand turns it, again and again: each notch is one
  pass of the event loop, as it is for the wheel event of a user, with its one paint (counted: the bench used to
  repaint each notch itself as well, a second paint no user meets); after each three notches the wheel rests and
  the titles are placed anew (titles.py), timed as a frame of its own;
- hovered: the pointer moved from node to node, each move placing the hovered neighbourhood's labels and painting.
It prints the median, p95 and worst frame of each beside the target (p95 <= 33 ms), with the load average.
A benchmark prints figures; it never fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QWidget  # noqa: E402

from earmark.core.db.connection import open_library  # noqa: E402
from earmark.core.topics.build import update_relations  # noqa: E402
from earmark.core.topics.clusters import find_clusters  # noqa: E402
from earmark.core.topics.graph import Edge, GraphData, Node, all_edges  # noqa: E402
from earmark.core.topics.layout import layout  # noqa: E402
from realistic import realistic_library  # noqa: E402 - after the path set-up above

if TYPE_CHECKING:
    from PySide6.QtWidgets import QGraphicsView, QScrollBar

NODES, EDGES = 1000, 5000
TARGET_MS = 33.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def graph_of(folder: Path) -> tuple[GraphData, float]:
    """The 1,000 best connected items of the realistic library and the 5,000 strongest edges among them, and
    how long their layout took."""
    library = folder / "realistic.db"
    shutil.copyfile(realistic_library(10_000), library)
    db = open_library(library)
    update_relations(db)
    every = list(all_edges(db).values())
    best = densest(every, NODES)
    edges = sorted((e for e in every if e.a in best and e.b in best), key=lambda e: -e.weight)[:EDGES]
    started = time.perf_counter()
    positions = layout(sorted(best), edges)
    layout_seconds = time.perf_counter() - started
    nodes = [Node(item_id, title, kind, source_id, None, 0, *positions[item_id])
             for item_id, title, kind, source_id in db.execute("SELECT id, title, kind, source_id FROM items")
             if item_id in best]
    degree = Counter(n for e in edges for n in (e.a, e.b))
    for node in nodes:
        node.degree = degree[node.id]
    clusters, member_of = find_clusters(db, [node.id for node in nodes], [(e.a, e.b, e.weight) for e in edges])
    for node in nodes:
        node.cluster = member_of.get(node.id)
    data = GraphData(nodes, edges, len(nodes), clusters)
    db.close()
    return data, layout_seconds


def densest(edges: list[Edge], count: int) -> set[int]:
    """``count`` items chosen greedily to have the most relations among them: the best connected item first,
    then always the item with the most relations into those chosen."""
    neighbours: dict[int, set[int]] = {}
    for edge in edges:
        neighbours.setdefault(edge.a, set()).add(edge.b)
        neighbours.setdefault(edge.b, set()).add(edge.a)
    first = max(neighbours, key=lambda n: len(neighbours[n]))
    chosen, links = {first}, Counter(neighbours[first])
    while len(chosen) < count and links:
        best = max(links, key=lambda n: (links[n], len(neighbours[n])))
        chosen.add(best)
        del links[best]
        links.update(n for n in neighbours[best] if n not in chosen)
    return chosen


def pan(bar: QScrollBar, view: QGraphicsView, number: int) -> None:
    """One drag step: 12 pixels across (back and forth every 40 steps), painted."""
    bar.setValue(bar.value() + (12 if (number // 40) % 2 == 0 else -12))
    view.viewport().repaint()


def report(label: str, frames: list[float]) -> None:
    ms = [f * 1000 for f in frames]
    print(f"  {label:<34} median {statistics.median(ms):6.1f} ms   p95 {percentile(ms, 0.95):6.1f} ms "
          f"(target <= {TARGET_MS:.0f} ms)   worst {max(ms):6.1f} ms   [load {os.getloadavg()[0]:.2f}]")


def timed_frames(count: int, step: Callable[[int], None], app: object,
                 after: Callable[[int], None] | None = None) -> list[float]:
    """The seconds of ``count`` frames: each a step and the event loop's pass after it (its paint); ``after``
    runs between frames, untimed."""
    frames = []
    for number in range(count):
        started = time.perf_counter()
        step(number)
        app.processEvents()  # type: ignore[attr-defined]
        frames.append(time.perf_counter() - started)
        if after is not None:
            after(number)
    return frames


class Paints(QObject):
    """Counts the paints of a widget, to tell how many a frame timed held."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self._count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt names it
        if event.type() == QEvent.Type.Paint:
            self._count += 1
        return False

    def take(self) -> int:
        """The paints since the last call."""
        count, self._count = self._count, 0
        return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=120, help="frames timed in each test (default 120)")
    args = parser.parse_args(argv)
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from earmark.gui.graph.panel import GraphPanel
    from earmark.gui.graph.titles import SETTLE_MS

    print(f"graph view frame times: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="earmark-graph-view-") as folder:
        data, layout_seconds = graph_of(Path(folder))
    print(f"  {len(data.nodes):,} nodes, {len(data.edges):,} edges, {len(data.clusters)} topic clusters"
          f" (their layout: {layout_seconds:.1f} s, in the background)")
    app = QApplication.instance() or QApplication([sys.argv[0]])
    panel = GraphPanel()
    panel.resize(1200, 800)
    panel.show()
    app.processEvents()
    started = time.perf_counter()
    panel.scene.show_graph(data)
    panel.view.fit()
    app.processEvents()
    print(f"  shown and fitted in {(time.perf_counter() - started) * 1000:.0f} ms,"
          f" {len(panel.view.label_rects())} titles placed at the fitted zoom")
    view = panel.view
    for label, zoom in (("pan, fitted zoom", 1.0), ("pan, 3x closer", 3.0)):
        view.fit()
        view.zoom(zoom)
        app.processEvents()
        report(label, timed_frames(args.frames, partial(pan, view.horizontalScrollBar(), view), app))
    view.fit()
    centre = QPointF(view.viewport().rect().center())
    paints = Paints(view.viewport())
    rested: list[float] = []
    painted: dict[str, list[int]] = {"notch": [], "rest": []}

    def zoom(number: int) -> None:
        notch = 120 if number % 6 < 3 else -120
        QApplication.sendEvent(view.viewport(), QWheelEvent(
            centre, view.mapToGlobal(centre), QPoint(), QPoint(0, notch), Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False))

    def rest(number: int) -> None:
        """After every three notches the wheel rests past SETTLE_MS (untimed); then the frame in which the titles
        are placed anew: the event loop's passes from the timer's to the paint it asks for."""
        painted["notch"].append(paints.take())
        if number % 3 == 2:
            time.sleep(SETTLE_MS / 1000 + 0.03)
            started, count = time.perf_counter(), 0
            for _pass in range(10):
                app.processEvents()
                count += paints.take()
                if count:
                    break
            rested.append(time.perf_counter() - started)
            painted["rest"].append(count)

    report("zoom, one wheel notch", timed_frames(args.frames, zoom, app, rest))
    report("titles placed once the wheel rests", rested)
    print("    frames by their paints: " + "; ".join(
        f"{kind} {dict(sorted(Counter(counts).items()))}" for kind, counts in painted.items()))
    view.fit()
    items = sorted(panel.scene.nodes.values(), key=lambda item: item.node.id)

    def hover(number: int) -> None:
        item = items[(number * 37) % len(items)]
        QTest.mouseMove(view.viewport(), view.mapFromScene(item.pos()))
        view.viewport().repaint()

    report("hover a node (its labels placed)", timed_frames(args.frames, hover, app))
    return 0


if __name__ == "__main__":
    sys.exit(main())
