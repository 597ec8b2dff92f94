"""The graph view at 1,000 nodes, as a person meets it: titles that never overlap (hubs at the fitted zoom, more as
you zoom in, the hovered node's neighbourhood when the pointer rests on it), topic clusters coloured and named in
a legend, and labels readable on a dark theme too."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPalette, QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from earmark.core.topics.clusters import Cluster
from earmark.core.topics.graph import Edge, GraphData, Node
from earmark.core.topics.layout import layout
from earmark.gui.graph.panel import GraphPanel
from earmark.gui.graph.scene import PALETTE
from earmark.gui.theme import contrast, palette

NODES, EDGES, CLUSTERS = 1000, 5000, 8


def big_graph() -> GraphData:
    """1,000 items in 8 topic clusters with 5,000 edges, mostly inside clusters, a few hubs (preferential)."""
    rng = random.Random(21)
    nodes = [Node(n, f"Episode {n} about topic {n % CLUSTERS} and more words", "episode", 1, "Show")
             for n in range(1, NODES + 1)]
    edges: dict[tuple[int, int], Edge] = {}
    weights = [1.0] * NODES
    while len(edges) < EDGES:
        a = rng.choices(range(NODES), weights)[0]
        same = [b for b in rng.sample(range(NODES), 40) if b % CLUSTERS == a % CLUSTERS and b != a]
        b = same[0] if same and rng.random() < 0.85 else rng.randrange(NODES)
        if a != b and (min(a, b), max(a, b)) not in edges:
            edges[(min(a, b), max(a, b))] = Edge(a + 1, b + 1, rng.uniform(0.1, 0.9), ["CUDA graphs"])
            weights[a] += 1
            weights[b] += 1
    for edge in edges.values():
        nodes[edge.a - 1].degree += 1
        nodes[edge.b - 1].degree += 1
    positions = layout([node.id for node in nodes], list(edges.values()))
    for node in nodes:
        node.x, node.y = positions[node.id]
        node.cluster = (node.id - 1) % CLUSTERS
    return GraphData(nodes, list(edges.values()), NODES,
                     [Cluster(n, f"topic {n}", NODES // CLUSTERS) for n in range(CLUSTERS)])


@pytest.fixture(scope="module")
def graph() -> GraphData:
    return big_graph()


@pytest.fixture
def panel(qtbot: QtBot, graph: GraphData) -> GraphPanel:
    panel = GraphPanel()
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    qtbot.waitExposed(panel)
    panel.scene.show_graph(graph)
    panel.view.fit()
    return panel


def overlapping(rects: list[QRectF]) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(rects)) for j in range(i + 1, len(rects)) if rects[i].intersects(rects[j])]


def labelled(panel: GraphPanel) -> set[int]:
    return {label.node_id for label in panel.view.placed_labels()}


def test_labels_never_overlap_and_hubs_come_first(panel: GraphPanel, graph: GraphData) -> None:
    fitted = panel.view.label_rects()
    assert fitted and not overlapping(fitted)
    assert len(fitted) < NODES  # no room for every title at the fitted zoom
    hubs = sorted(graph.nodes, key=lambda n: -n.degree)[:3]
    assert hubs[0].id in labelled(panel)
    shown = [n.degree for n in graph.nodes if n.id in labelled(panel)]
    hidden = [n.degree for n in graph.nodes if n.id not in labelled(panel)]
    assert sum(shown) / len(shown) > sum(hidden) / len(hidden)


def turn_wheel(panel: GraphPanel, notches: int) -> None:
    """Turn the wheel over the middle of the view by ``notches`` (negative: back), one event a notch, as fast as a
    hand turns it (the event loop does not run in between)."""
    view = panel.view
    centre = QPointF(view.viewport().rect().center())
    for _ in range(abs(notches)):
        QApplication.sendEvent(view.viewport(), QWheelEvent(
            centre, view.mapToGlobal(centre), QPoint(), QPoint(0, 120 if notches > 0 else -120),
            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False))


def whole_in_view(panel: GraphPanel) -> bool:
    """Whether every title of a node in view is whole in view (none cut at the edge)."""
    view = panel.view
    area = QRectF(view.viewport().rect())
    return all(area.contains(rect) for label, rect in zip(view.placed_labels(), view.label_rects(), strict=True)
               if area.contains(view.mapFromScene(panel.scene.nodes[label.node_id].pos())))


def test_zooming_in_keeps_the_titles_shown_and_adds_more_once_the_wheel_rests(qtbot: QtBot,
                                                                               panel: GraphPanel) -> None:
    before = labelled(panel)
    turn_wheel(panel, 4)
    at_once = panel.view.label_rects()
    kept = labelled(panel)
    # While the wheel turns, the frame shows titles already shown that still fit: none new, still apart and whole.
    assert at_once and kept <= before and not overlapping(at_once) and whole_in_view(panel)
    qtbot.waitUntil(lambda: not labelled(panel) <= before, timeout=3000)
    rested = panel.view.label_rects()
    assert len(rested) > len(at_once) and not overlapping(rested) and whole_in_view(panel)
    assert kept <= labelled(panel)  # closer, no title shown gives way to one that only now fits
    # The new titles are drawn: the box of one holds letters in the text colour.
    new = next(rect for label, rect in zip(panel.view.placed_labels(), rested, strict=True)
               if label.node_id not in before and QRectF(panel.view.viewport().rect()).contains(rect))
    image = panel.view.viewport().grab().toImage()
    text = panel.view.viewport().palette().color(QPalette.ColorRole.Text)
    box = new.toRect()
    assert any(QColor(image.pixel(x, y)) == text for x in range(box.left(), box.right())
               for y in range(box.top(), box.bottom()))


def test_zooming_out_drops_the_titles_that_would_meet_and_the_hubs_get_theirs_back(qtbot: QtBot,
                                                                                   panel: GraphPanel) -> None:
    fitted = labelled(panel)
    turn_wheel(panel, 5)
    qtbot.waitUntil(lambda: len(panel.view.label_rects()) > 40, timeout=3000)
    close = labelled(panel)
    turn_wheel(panel, -5)
    at_once = panel.view.label_rects()
    assert at_once and labelled(panel) <= close and not overlapping(at_once) and whole_in_view(panel)
    # Back where it was: the titles it showed there (the hubs first), not those that fitted only closer.
    qtbot.waitUntil(lambda: labelled(panel) == fitted, timeout=3000)
    assert not overlapping(panel.view.label_rects()) and whole_in_view(panel)


def test_the_hovered_nodes_neighbourhood_is_labelled(qtbot: QtBot, panel: GraphPanel, graph: GraphData) -> None:
    view = panel.view
    shown_before = labelled(panel)
    area = view.viewport().rect().adjusted(20, 20, -20, -20)

    def alone(node: Node) -> bool:  # in view, and no other disc under the pointer there
        point = view.mapFromScene(panel.scene.nodes[node.id].pos())
        return area.contains(point) and [i for i in view.items(point) if hasattr(i, "node")] == [
            panel.scene.nodes[node.id]]

    quiet = next(n for n in sorted(graph.nodes, key=lambda n: n.degree)
                 if n.degree and n.id not in shown_before and alone(n))
    qtbot.mouseMove(view.viewport(), view.mapFromScene(panel.scene.nodes[quiet.id].pos()))
    qtbot.waitUntil(lambda: panel.scene.hovered == quiet.id)
    shown = labelled(panel)
    assert quiet.id in shown and panel.scene.neighbours[quiet.id] & shown
    assert not overlapping(view.label_rects())


def test_clusters_are_coloured_and_named_in_the_legend(panel: GraphPanel) -> None:
    legend = panel.view.legend
    assert legend.isVisible() and not legend.geometry().intersects(panel.view.geometry())  # beside: hides no node
    assert [name for _colour, name in legend.entries] == [f"topic {n} (125)" for n in range(CLUSTERS)]
    first = panel.scene.nodes[1]
    assert first.colour == PALETTE[0] and panel.scene.nodes[2].colour == PALETTE[1]
    panel.colour.setCurrentIndex(panel.colour.findData("kind"))
    assert [name for _colour, name in legend.entries] == ["Episodes"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_labels_and_legend_read_in_both_themes(qtbot: QtBot, panel: GraphPanel, scheme: str) -> None:
    theme = palette(scheme)
    panel.setPalette(theme)
    panel.view.viewport().setPalette(theme)
    panel.view.legend.setPalette(theme)
    qtbot.wait(10)
    text, base = theme.color(QPalette.ColorRole.Text), theme.color(QPalette.ColorRole.Base)
    assert contrast(text, base) >= 4.5
    assert all(contrast(colour, base) >= 1.5 for colour in PALETTE[:CLUSTERS])  # swatches stand out
    image = panel.view.viewport().grab().toImage()
    rect = panel.view.label_rects()[0].toRect().intersected(image.rect())
    pixels = [QColor(image.pixel(x, y)) for x in range(rect.left(), rect.right())
              for y in range(rect.top(), rect.bottom())]
    assert any(contrast(pixel, base) >= 3 for pixel in pixels)  # the title's letters, in the theme's text colour
