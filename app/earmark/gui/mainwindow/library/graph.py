"""The window's topic graph work: keeping relations up to date in the background, the Related pane, and the
graph view (modes, filters, layout, learning paths, exports, "Queue This Path")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal, SignalInstance
from PySide6.QtWidgets import QFileDialog, QMainWindow, QWidget

from earmark.core.db.database import Database
from earmark.core.errors import EarmarkError
from earmark.core.models import Changes, Item, ItemState, Source
from earmark.core.plurals import counted
from earmark.core.topics.graph import GraphData, GraphFilter, read_graph
from earmark.core.topics.graphml import write_graphml
from earmark.core.topics.layout import Position, compute_layout, needs_layout
from earmark.gui.graph.panel import LIBRARY, PATH, GraphPanel
from earmark.gui.mainwindow.frame.feedback import remark
from earmark.gui.mainwindow.library.refresh_hold import RefreshHold
from earmark.gui.mainwindow.places import GRAPH, Place
from earmark.gui.operations.graph import PathRead, RelatedRead, keep_layout, read_path, read_related
from earmark.gui.relation_pass import PassSummary, RelationPass
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.related import RelatedPane

UPDATE_DELAY_MS = 1500  # changes arriving together (a refresh, a tag edit) are worked out once
RELATIONS_READ = {ItemState.TEXT, ItemState.TAGS}  # of the item states: titles, texts, transcripts, links; tags


class GraphController(QObject):
    """Owns the Related pane and the graph panel, a view of the central area the navigator shows (``widget``,
    ``enter``, ``here``, ``leave``, ``focus``, ``find_field``). ``selected_item()`` tells it what the window has
    selected; ``select(id)`` shows an item in the library, ``activate(id)`` plays or opens it, ``queue(ids)``
    queues the episodes of a learning path (prerequisites, then the item) in order and says how many,
    ``status(sentence)`` reports.

    Signals: ``relations_updated()`` after new relations were stored, ``graph_shown()`` after the view was
    redrawn, ``path_shown()`` after a learning path was highlighted.
    """

    relations_updated = Signal()
    graph_shown = Signal()
    path_shown = Signal()

    def __init__(self, window: QMainWindow, runner: TaskRunner, db: Database,
                 selected_item: Callable[[], Item | None], select: Callable[[int], None],
                 activate: Callable[[int], None], queue: Callable[[list[int]], int],
                 status: Callable[[str], None]) -> None:
        super().__init__(window)
        self._window = window
        self._runner = runner
        self._db = db
        self._selected_item = selected_item
        self._select = select
        self._activate = activate
        self._queue = queue
        self._status = status
        self.related = RelatedPane()
        self.related.item_chosen.connect(select)
        self.panel = GraphPanel()
        self.panel.filter_changed.connect(lambda: self.refresh(fit=True))
        self.panel.colours_changed.connect(self.panel.scene.recolour)
        self.panel.view.node_clicked.connect(self._node_clicked)
        self.panel.view.node_activated.connect(self._node_activated)
        self.panel.queue_requested.connect(self.queue_path)
        self.panel.export_requested.connect(self.ask_export)
        self.relation_pass = RelationPass(runner.library_path, self)
        self.relation_pass.progress.connect(self._on_progress)
        self.relation_pass.finished.connect(self._on_pass_finished)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(UPDATE_DELAY_MS)
        self._timer.timeout.connect(self.update_relations)
        self._again = False
        self._hold = RefreshHold(self.schedule_update)  # a refresh or import runs: passes wait for its end
        self._shown: Item | None = None  # the item whose related items the pane shows
        self.path: list[int] = []  # the highlighted learning path: prerequisites, then the item
        self._reading_graph = False
        self._again_graph = False
        self._fit = False
        self._graph_center: int | None = None  # the item the neighbourhood or learning path shown is about
        self._stopped = False
        self._overview = LIBRARY  # the mode the graph returns to after a learning path

    # Relations -------------------------------------------------------------------------------------

    def schedule_update(self) -> None:
        """Work out new and changed items' relations soon (changes arriving together are handled once)."""
        if not self._stopped:
            self._timer.start()

    def library_changed(self, changes: Changes) -> None:
        """Items came or went, or changed what the relations read (core/topics/corpus.py: texts and tags): their
        relations follow. Nothing else schedules a pass (a position kept every few seconds while playing did)."""
        if changes.structure or changes.states & RELATIONS_READ:
            self.schedule_update()

    def update_relations(self) -> None:
        """Bring the relations up to date in a process of its own (``earmark update-relations``, at the lowest
        priority): the window neither waits for it nor holds its memory."""
        if self._stopped or self._runner.read_only:
            return
        if self._hold.defer():
            return
        if not self.relation_pass.start():
            self._again = True

    def wait_for_refreshes(self, started: SignalInstance, ended: SignalInstance) -> None:
        """No pass starts between ``started`` and ``ended`` (of a refresh or import); one that came due meanwhile
        starts after ``ended``, once (changes arriving together, as ever). The import's parsing runs at a lower
        priority than a pass, so a pass started on its first feeds took the CPU the rest needed (the import of 300
        feeds in the window: 5 s instead of 2.6), and worked out some of the new items, to start again for the
        others. A pass running already when a refresh starts goes on."""
        self._hold.follow(started, ended)

    def _on_pass_finished(self, summary: PassSummary) -> None:
        self._on_progress(None, "")
        if summary.error:
            self._failed(summary.error)
        elif summary.items and not summary.stopped:
            remark(self._window, "Related items worked out for "
                   f"{counted(summary.items, 'item' if summary.full else 'new or changed item')}.")
        if summary.items and not summary.stopped:  # nothing new: the lists shown stay as they are
            self.relations_updated.emit()
            self.show_related(self._shown)
            if self.panel.isVisible():
                self.refresh()
        if self._again:
            self._again = False
            self.schedule_update()

    def _failed(self, message: str) -> None:
        self._on_progress(None, message)
        self._status(message)

    def _on_progress(self, share: float | None, text: str) -> None:
        self.panel.show_progress(share, text)

    # The Related pane --------------------------------------------------------------------------------

    def show_related(self, item: Item | None) -> None:
        """Show the related items of ``item`` (read in the pool)."""
        self._shown = item
        if item is None:
            self.related.show_related(None, [])
            return
        self.related.show_related(item.title, [], working=None)  # the last item's rows go at once
        self._runner.read(read_related, item.id, on_done=self._on_related)

    def _on_related(self, read: RelatedRead) -> None:
        if self._shown is None or read.item_id != self._shown.id:
            return  # another item was selected meanwhile
        self.related.show_related(self._shown.title, read.rows, working=read.pending)
        if read.pending:
            self.schedule_update()

    def item_selected(self, item: Item | None) -> None:
        """The window's selection changed: the Related pane follows, and so does the graph in the
        neighbourhood and learning path modes."""
        self.show_related(item)
        if (self.panel.isVisible() and self.panel.current_mode() != LIBRARY
                and (item.id if item else None) != self._graph_center):
            self.refresh(fit=True)

    # The graph as a view ----------------------------------------------------------------------------

    def widget(self) -> QWidget:
        """The graph panel."""
        return self.panel

    def enter(self, place: Place) -> None:
        """Show the learning path of the selected item (mode "path"), else the graph as last arranged."""
        mode = PATH if place.mode == PATH else self._overview
        self.panel.blockSignals(True)  # one redraw below, not one for the mode too
        try:
            self.panel.set_mode(mode)
        finally:
            self.panel.blockSignals(False)
        self.refresh(fit=True)

    def here(self) -> Place:
        """The graph, or the learning path."""
        return Place(GRAPH, mode=PATH if self.panel.current_mode() == PATH else "")

    def leave(self) -> None:
        """Remember the mode to come back to."""
        if self.panel.current_mode() != PATH:
            self._overview = self.panel.current_mode()

    def focus(self) -> None:
        """The keyboard to the graph."""
        self.panel.view.setFocus()

    def find_field(self) -> QWidget:
        """The graph's find box."""
        return self.panel.find_box

    # The graph view ----------------------------------------------------------------------------------

    def set_choices(self, tags: list[str], sources: list[Source]) -> None:
        """The tags and sources the graph's filters offer."""
        self.panel.set_choices(tags, sources)

    def refresh(self, fit: bool = False) -> None:
        """Redraw the graph for the current mode and filters (laying out new nodes first)."""
        self._fit = fit or not self.panel.scene.nodes
        if self._reading_graph:
            self._again_graph = True
            return
        self._reading_graph = True
        self._again_graph = False
        self._runner.read(needs_layout, self._filter(), on_done=self._on_needs_layout, on_error=self._graph_failed)

    def _filter(self) -> GraphFilter:
        item = self._selected_item()
        return self.panel.graph_filter(item.id if item else None)

    def _on_needs_layout(self, needed: bool) -> None:
        if needed:
            self._on_progress(0.5, "Laying out the graph…")
            self._runner.read(compute_layout, self._filter(), on_done=self._keep_layout, on_error=self._graph_failed)
        else:
            self._read_graph()

    def _keep_layout(self, positions: dict[int, Position]) -> None:
        self._runner.write(keep_layout, positions, on_done=lambda _changes: self._read_graph(),
                           on_error=self._graph_failed)

    def _read_graph(self) -> None:
        item = self._selected_item()
        mode = self.panel.current_mode()
        if mode != LIBRARY and item is None:
            self._status("Select an item in the list first: the graph shows its neighbourhood or learning path.")
        flt = self.panel.graph_filter(item.id if item else None)
        self._runner.read(read_graph, flt, on_done=lambda data: self._on_graph(data, item),
                          on_error=self._graph_failed)

    def _on_graph(self, data: GraphData, item: Item | None) -> None:
        self._on_progress(None, f"{counted(len(data.nodes), 'item')}, {counted(len(data.edges), 'relation')}"
                          + (f" (the {len(data.nodes):,} best connected of {data.matched:,})"
                             if data.matched > len(data.nodes) else ""))
        self.panel.scene.show_graph(data, self.panel.colour.currentData())
        if item is not None and item.id in self.panel.scene.nodes:
            self.panel.scene.nodes[item.id].setSelected(True)
        self._graph_center = item.id if item is not None and self.panel.current_mode() != LIBRARY else None
        self.panel.set_titles([node.title for node in data.nodes])
        self._reading_graph = False
        if self.panel.current_mode() == PATH and item is not None:
            self._runner.read(read_path, item.id, on_done=self._on_path, on_error=self._graph_failed)
        else:
            self.path = []
            self.panel.show_path(None, [])
            self._after_graph()

    def _on_path(self, read: PathRead) -> None:
        self.path = [step.id for step in read.steps] + [read.item.id]
        self.panel.scene.highlight_path(self.path)
        self.panel.show_path(read.item.title, read.steps)
        self._fit = True
        self._after_graph()
        self.path_shown.emit()

    def _after_graph(self) -> None:
        if self._fit:
            self.panel.view.fit()
        self.graph_shown.emit()
        if self._again_graph:
            self.refresh()

    def _graph_failed(self, message: str) -> None:
        self._reading_graph = False
        self._failed(message)

    def _node_clicked(self, item_id: int) -> None:
        if item_id > 0:
            self._select(item_id)

    def _node_activated(self, item_id: int) -> None:
        if item_id > 0:
            self._activate(item_id)

    def queue_path(self) -> None:
        """Hand the highlighted learning path (prerequisites, then the item) to the queue, in order."""
        if not self.path:
            self._status("Show a learning path first (Learning Path of the selected item).")
            return
        queued = self._queue(list(self.path))
        self._status(f"Added {counted(queued, 'episode')} of the learning path to Up Next, in learning order." if queued
                     else "The learning path holds no episodes to queue.")

    # Exports -----------------------------------------------------------------------------------------

    def ask_export(self, fmt: str) -> None:
        """Ask where to save the graph as PNG, SVG or GraphML, then save it."""
        dialog = QFileDialog(self._window, "Export Graph", str(Path.home() / f"earmark-graph.{fmt}"),
                             f"{fmt.upper()} (*.{fmt})")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(fmt)
        dialog.fileSelected.connect(lambda name: self.export(fmt, Path(name)))
        dialog.open()

    def export(self, fmt: str, path: Path) -> None:
        """Save what the graph shows to ``path``: a PNG or SVG picture, or GraphML (with positions)."""
        from earmark.gui.graph.export import save_png, save_svg  # QtSvg loads when first used, not at start-up

        try:
            if fmt == "png":
                save_png(self.panel.scene, path)
            elif fmt == "svg":
                save_svg(self.panel.scene, path)
            else:
                write_graphml(self.panel.scene.data, path)
        except EarmarkError as exc:
            self._status(str(exc))
            return
        self._status(f"Exported the graph to {path}.")

    def shutdown(self) -> None:
        """Start nothing more and stop a pass under way (the window is closing: it never waits long for one)."""
        self._stopped = True
        self._timer.stop()
        self.relation_pass.shutdown()
