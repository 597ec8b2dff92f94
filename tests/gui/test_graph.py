"""The topic graph in the real window on the sample library, driven by mouse and keyboard: the Related pane,
the graph view (zoom, pan, fit, find, click, double click, filters, neighbourhood), learning paths with
"Queue This Path", and exports."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.queue import queue_ids
from earmark.gui.graph.panel import NEIGHBOURHOOD
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.models.items import COL_TITLE
from helpers.gui import Launch

SAMPLE_ITEMS = 54


def open_window(qtbot: QtBot, launch: Launch) -> MainWindow:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == SAMPLE_ITEMS)
    with qtbot.waitSignal(window.graph.relations_updated, timeout=30000):
        pass
    return window


def select_by_search(qtbot: QtBot, window: MainWindow, title: str) -> None:
    qtbot.keyClick(window.item_list, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    window.search.clear()
    qtbot.keyClicks(window.search, title)
    model = window.items_model

    def row() -> int | None:
        return next((r for r in range(model.rowCount()) if model.index(r, COL_TITLE).data() == title), None)

    qtbot.keyClick(window.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: model.rowCount() < SAMPLE_ITEMS and row() is not None)  # the results show
    qtbot.keyClick(window.item_list, Qt.Key.Key_Home)
    for _step in range(row() or 0):
        qtbot.keyClick(window.item_list, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: (item := window.selection.selected_item()) is not None and item.title == title)


def current_title(window: MainWindow) -> str | None:
    item = window.selection.selected_item()
    return item.title if item else None


def show_graph(qtbot: QtBot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.graph.graph_shown, timeout=15000):
        qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert window.graph.panel.isVisible() and not window.search.isVisible()


def node_point(window: MainWindow, title: str) -> QPoint:
    view = window.graph.panel.view
    item = next(i for i in window.graph.panel.scene.nodes.values() if i.node.title == title)
    view.centerOn(item)
    return view.mapFromScene(item.pos())


def test_related_pane_shows_reasons_and_enter_goes_to_the_item(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = open_window(qtbot, launch)
    select_by_search(qtbot, window, "Weak references")
    pane = window.graph.related
    qtbot.waitUntil(lambda: (first := pane.model.related_at(0)) is not None and first.title == "Reference counting",
                    timeout=15000)
    first = pane.model.related_at(0)
    assert first is not None and first.reasons[0] == "prerequisite"
    assert "prerequisite" in pane.model.index(0).data()
    pane.list.setFocus()
    pane.list.setCurrentIndex(pane.model.index(0))
    qtbot.keyClick(pane.list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: current_title(window) == "Reference counting", timeout=15000)
    qtbot.waitUntil(lambda: any(pane.model.related_at(r).title == "Weak references"  # type: ignore[union-attr]
                                for r in range(pane.model.rowCount())), timeout=15000)


def test_graph_view_zooms_pans_finds_and_selects(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = open_window(qtbot, launch)
    show_graph(qtbot, window)
    panel, view = window.graph.panel, window.graph.panel.view
    assert len(panel.scene.nodes) == SAMPLE_ITEMS and "relations" in panel.status.text()
    view.setFocus()
    scale = view.scale_factor()
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    assert view.scale_factor() == pytest.approx(scale * 1.25)
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    assert view.scale_factor() < scale
    centre = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(centre, view.mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    before = view.scale_factor()
    QApplication.sendEvent(view.viewport(), wheel)
    assert view.scale_factor() == pytest.approx(before * 1.25 ** 2)
    bar = view.horizontalScrollBar()
    start = bar.value()
    empty = QPoint(5, 5)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=empty)
    qtbot.mouseMove(view.viewport(), QPoint(60, 40))
    qtbot.mouseMove(view.viewport(), QPoint(120, 80))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(120, 80))
    assert bar.value() != start
    qtbot.keyClick(view, Qt.Key.Key_0)  # fit
    assert view.scale_factor() <= 1.4

    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=node_point(window, "CUDA graphs"))
    qtbot.waitUntil(lambda: current_title(window) == "CUDA graphs")
    assert panel.isVisible()  # the graph stays; the library's selection moved
    tip = next(i for i in panel.scene.nodes.values() if i.node.title == "CUDA graph trees").toolTip()
    assert "↔ CUDA graphs <span style='color:gray'>(" in tip and "CUDA graphs," in tip.split("↔ CUDA graphs")[1]

    qtbot.keyClicks(panel.find_box, "aotautog")
    qtbot.keyClick(panel.find_box, Qt.Key.Key_Return)
    selected = [i.node.title for i in panel.scene.selectedItems()]
    assert selected == ["AOTAutograd"] and QApplication.focusWidget() is view

    with qtbot.waitSignal(window.session.item_changed, timeout=10000):
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=node_point(window, "Strides"))
    assert window.session.item is not None and window.session.item.title == "Strides"


def test_filters_and_neighbourhood(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = open_window(qtbot, launch)
    select_by_search(qtbot, window, "Inductor - IR")
    show_graph(qtbot, window)
    panel = window.graph.panel
    with qtbot.waitSignal(window.graph.graph_shown):
        panel.kind.setCurrentIndex(panel.kind.findData("article"))
    assert {i.node.kind for i in panel.scene.nodes.values()} == {"article"} and len(panel.scene.nodes) == 3
    with qtbot.waitSignal(window.graph.graph_shown):
        panel.kind.setCurrentIndex(0)
    with qtbot.waitSignal(window.graph.graph_shown):
        panel.tag.setCurrentIndex(panel.tag.findData("inductor"))
    assert len(panel.scene.nodes) == 6  # the four Inductor episodes and the two notes tagged so
    with qtbot.waitSignal(window.graph.graph_shown):
        panel.tag.setCurrentIndex(0)
    with qtbot.waitSignal(window.graph.graph_shown):
        panel.set_mode(NEIGHBOURHOOD)
    near = set(panel.scene.nodes)
    assert window.selection.selected_item().id in near and len(near) < SAMPLE_ITEMS  # type: ignore[union-attr]
    with qtbot.waitSignal(window.graph.graph_shown):
        panel.depth_box.setValue(2)
    titles = {i.node.title for i in panel.scene.nodes.values()}
    assert near < set(panel.scene.nodes)
    assert {"PyTorch Shanghai Meetup Notes", "Inductor - Define-by-run IR"} <= titles
    with qtbot.waitSignal(window.graph.graph_shown):
        panel.min_weight.setValue(0.45)
    assert all(edge.weight >= 0.45 for edge in panel.scene.data.edges)


def test_learning_path_highlights_and_queues_in_order(qtbot: QtBot, launch: Launch, sample: None,
                                                      tmp_path: Path, library_path: Path) -> None:
    window = open_window(qtbot, launch)
    select_by_search(qtbot, window, "Weak references")
    with qtbot.waitSignal(window.graph.path_shown, timeout=15000):
        qtbot.keyClick(window.item_list, Qt.Key.Key_G,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    panel = window.graph.panel
    titles = [panel.scene.nodes[i].node.title for i in window.graph.path]
    assert titles == ["Reference counting", "Weak references"]
    assert "1. Reference counting" in panel.path_label.text() and "2. Weak references" in panel.path_label.text()
    assert panel.scene.nodes[window.graph.path[0]].step == 1
    dimmed = [i for i in panel.scene.nodes.values() if i.opacity() < 1]
    assert len(dimmed) == SAMPLE_ITEMS - 2
    assert panel.queue_button.isVisible()
    with qtbot.waitSignal(window.session.item_changed, timeout=10000):
        qtbot.mouseClick(panel.queue_button, Qt.MouseButton.LeftButton)
    assert window.session.item is not None and window.session.item.title == "Reference counting"
    qtbot.waitUntil(lambda: window.queue.model.rowCount() == 2)
    assert queue_ids(open_library(library_path)) == window.graph.path  # Up next, in learning order

    for fmt in ("png", "svg", "graphml"):
        window.graph.export(fmt, tmp_path / f"graph.{fmt}")
    assert not QImage(str(tmp_path / "graph.png")).isNull()
    assert "<svg" in (tmp_path / "graph.svg").read_text(encoding="utf-8")
    assert "Reference counting" in (tmp_path / "graph.graphml").read_text(encoding="utf-8")


def test_the_graph_labels_apart_and_names_its_topic_clusters(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = open_window(qtbot, launch)
    show_graph(qtbot, window)
    view = window.graph.panel.view
    qtbot.keyClick(view, Qt.Key.Key_0)  # fit
    rects = view.label_rects()
    assert rects and not [(a, b) for n, a in enumerate(rects) for b in rects[n + 1:] if a.intersects(b)]
    names = [name.split(" (")[0] for _colour, name in view.legend.entries]
    assert view.legend.isVisible() and "Inductor" in names and len(names) >= 4, names
    assert not {"pytorch", "python", "episode", "model", "function", "pull requests"} & {n.lower() for n in names}
    colours = {item.colour.name() for item in window.graph.panel.scene.nodes.values()}
    assert len(colours) >= 5  # one per topic cluster


def test_fit_keeps_every_title_shown_inside_the_view(qtbot: QtBot, launch: Launch, sample: None) -> None:
    """After Fit, no title is cut at the view's edge (they were: "r collectives", "nce 2022 notes: Py…"): a title
    goes right of its node, else left of it, where it is whole in view."""
    window = open_window(qtbot, launch)
    show_graph(qtbot, window)
    panel = window.graph.panel
    view = panel.view
    view.zoom_in()  # away from the fitted view first
    qtbot.mouseClick(panel.fit_button, Qt.MouseButton.LeftButton)
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    labels = view.placed_labels()
    assert len(labels) >= 10  # the hubs at least
    assert [label.text for label in labels if not visible.contains(label.rect)] == []
