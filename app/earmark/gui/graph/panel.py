"""The graph panel: the view with its controls (find a node, mode, depth, filters by tag, source, kind and
weight, topic nodes, colours, fit, export, queue this path), the learning path in words, and progress."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from earmark.core.models import Source
from earmark.core.topics.graph import GraphFilter
from earmark.core.topics.path import Step
from earmark.gui.graph.keys import GraphKeys
from earmark.gui.graph.scene import KIND, SOURCE, TOPIC_COLOURS, GraphScene
from earmark.gui.graph.view import GraphView
from earmark.gui.mainwindow.places import LEARNING_PATH

LIBRARY, NEIGHBOURHOOD, PATH = "library", "neighbourhood", LEARNING_PATH  # the navigator names the path mode
MODES = ((LIBRARY, "Whole library"), (NEIGHBOURHOOD, "Neighbourhood of the selected item"),
         (PATH, "Learning path of the selected item"))
DEFAULT_MIN_WEIGHT = 0.15
COMBO_LETTERS = 12  # the width of the tag and source lists, in letters
EXPORTS = (("png", "Picture (PNG)…"), ("svg", "Drawing (SVG)…"), ("graphml", "Graph (GraphML)…"))


class GraphPanel(QWidget):
    """The graph and its controls. Signals: ``filter_changed()`` (mode, depth or a filter changed),
    ``export_requested(str)`` (png, svg or graphml), ``queue_requested()``, ``colours_changed(str)``."""

    filter_changed = Signal()
    export_requested = Signal(str)
    queue_requested = Signal()
    colours_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphPanel")
        self.scene = GraphScene(self)
        self.view = GraphView(self.scene)

        self.find_box = QLineEdit()
        self.find_box.setObjectName("graphFind")
        self.find_box.setAccessibleName("Find an item in the graph")
        self.find_box.setPlaceholderText("Find an item in the graph…")
        self.find_box.setClearButtonEnabled(True)
        self._titles = QStringListModel(self)
        completer = QCompleter(self._titles, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.find_box.setCompleter(completer)
        self.find_box.returnPressed.connect(self._find)
        completer.activated.connect(lambda _text: self._find())
        self.keys = GraphKeys(self.view, self.find_box)
        self.mode = QComboBox()
        self.mode.setObjectName("graphMode")
        self.mode.setAccessibleName("What the graph shows")
        for key, text in MODES:
            self.mode.addItem(text, key)
        self.depth_box = QSpinBox()
        self.depth_box.setObjectName("graphDepth")
        self.depth_box.setAccessibleName("Neighbourhood depth")
        self.depth_box.setRange(1, 2)
        self.depth_box.setPrefix("depth ")
        self.fit_button = QToolButton()
        self.fit_button.setText("Fit")
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for fmt, text in EXPORTS:
            menu.addAction(text, partial(self.export_requested.emit, fmt))
        self.export_button.setMenu(menu)
        self.queue_button = QPushButton("Queue This Path")
        self.queue_button.setObjectName("queuePath")
        self.queue_button.clicked.connect(self.queue_requested)

        self.tag = QComboBox()
        self.tag.setObjectName("graphTag")
        self.tag.setAccessibleName("Tag shown")
        self.source = QComboBox()
        self.source.setObjectName("graphSource")
        self.source.setAccessibleName("Source shown")
        self.kind = QComboBox()
        self.kind.setObjectName("graphKind")
        self.kind.setAccessibleName("Kind of item shown")
        for text, value in (("All items", None), ("Episodes", "episode"), ("Articles", "article")):
            self.kind.addItem(text, value)
        self.min_weight = QDoubleSpinBox()
        self.min_weight.setObjectName("graphMinWeight")
        self.min_weight.setAccessibleName("Minimum relation weight")
        self.min_weight.setRange(0.0, 2.0)
        self.min_weight.setSingleStep(0.05)
        self.min_weight.setPrefix("weight ≥ ")
        self.min_weight.setValue(DEFAULT_MIN_WEIGHT)
        self.topics = QCheckBox("Topics")
        self.topics.setObjectName("graphTopics")
        self.colour = QComboBox()
        self.colour.setObjectName("graphColour")
        self.colour.setAccessibleName("Colour the nodes by")
        self.colour.addItem("Colour by topic", TOPIC_COLOURS)
        self.colour.addItem("Colour by kind", KIND)
        self.colour.addItem("Colour by source", SOURCE)
        self.colour.currentIndexChanged.connect(lambda _i: self.colours_changed.emit(self.colour.currentData()))
        self.colours_changed.connect(self.scene.recolour)
        self.set_choices([], [])

        self.path_label = QLabel()
        self.path_label.setObjectName("pathLabel")
        self.path_label.setWordWrap(True)
        self.status = QLabel()
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(180)
        self.progress.hide()

        first = QHBoxLayout()
        first_row: list[QWidget] = [self.find_box, self.mode, self.depth_box, self.fit_button, self.export_button,
                                    self.queue_button]
        for widget in first_row:
            first.addWidget(widget)
        first.setStretch(0, 1)
        second = QHBoxLayout()
        second_row: list[QWidget] = [self.tag, self.source, self.kind, self.min_weight, self.topics, self.colour]
        for widget in second_row:
            second.addWidget(widget)
        second.addStretch(1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.progress)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(first)
        layout.addLayout(second)
        layout.addWidget(self.path_label)
        beside = QHBoxLayout()
        beside.addWidget(self.view, 1)
        beside.addWidget(self.view.legend, 0, Qt.AlignmentFlag.AlignTop)  # beside the graph: it hides no node
        layout.addLayout(beside, 1)
        layout.addLayout(bottom)

        for combo in (self.tag, self.source):
            # as wide as a short entry: a long podcast name or tag must not widen the window past the screen
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(COMBO_LETTERS)
        for combo in (self.mode, self.tag, self.source, self.kind):
            combo.currentIndexChanged.connect(self._changed)
        self.depth_box.valueChanged.connect(self._changed)
        self.min_weight.valueChanged.connect(self._changed)
        self.topics.toggled.connect(self._changed)
        self.fit_button.clicked.connect(self.view.fit)
        self._update_controls()

    def set_choices(self, tags: list[str], sources: list[Source]) -> None:
        """The tags and sources the filters offer (the current choices stay when they still exist)."""
        for combo, entries, everything in ((self.tag, [(f"#{t}", t) for t in tags], "All tags"),
                                           (self.source, [(s.title, s.id) for s in sources], "All sources")):
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(everything, None)
            for text, value in entries:
                combo.addItem(text, value)
            combo.setCurrentIndex(max(0, combo.findData(current)))
            combo.blockSignals(False)

    def current_mode(self) -> str:
        """LIBRARY, NEIGHBOURHOOD or PATH."""
        return str(self.mode.currentData())

    def set_mode(self, mode: str) -> None:
        """Switch to a mode (as if chosen in the list)."""
        self.mode.setCurrentIndex(self.mode.findData(mode))

    def graph_filter(self, center: int | None) -> GraphFilter:
        """What the controls ask for; ``center`` is the selected item (neighbourhood and path modes)."""
        mode = self.current_mode()
        return GraphFilter(tag=self.tag.currentData(), source_id=self.source.currentData(),
                           kind=self.kind.currentData(), min_weight=self.min_weight.value(),
                           center=center if mode == NEIGHBOURHOOD else None, depth=self.depth_box.value(),
                           topics=self.topics.isChecked())

    def show_path(self, item_title: str | None, steps: list[Step]) -> None:
        """Say the learning path in words (None: not in path mode)."""
        if item_title is None:
            self.path_label.clear()
            self.path_label.hide()
            return
        if not steps:
            self.path_label.setText(f"“{item_title}” has no prerequisites in the library.")
            self.path_label.setToolTip("")
        else:
            words = "  →  ".join(f"{number}. {step.title} ({step.brief()})"
                                 for number, step in enumerate(steps, start=1))
            self.path_label.setText(f"Learning path: {words}  →  {len(steps) + 1}. {item_title}")
            self.path_label.setToolTip("\n".join(f"{number}. {step.title}: {step.why}"
                                                  for number, step in enumerate(steps, start=1)))
        self.path_label.show()

    def set_titles(self, titles: list[str]) -> None:
        """The titles the find box completes."""
        self._titles.setStringList(sorted(set(titles), key=str.lower))

    def show_progress(self, share: float | None, text: str) -> None:
        """Show how far long work is (None: done)."""
        self.status.setText(text)
        self.progress.setVisible(share is not None)
        if share is not None:
            self.progress.setValue(int(share * 100))

    def _find(self) -> None:
        text = self.find_box.text().strip().lower()
        if not text:
            return
        matches = [item for item in self.scene.nodes.values() if text in item.node.title.lower()]
        if not matches:
            self.status.setText(f"No item in the graph matches “{self.find_box.text().strip()}”.")
            return
        best = min(matches, key=lambda item: (item.node.title.lower() != text, len(item.node.title)))
        self.view.centre_on_node(best.node.id)
        self.view.setFocus()

    def _changed(self) -> None:
        self._update_controls()
        self.filter_changed.emit()

    def _update_controls(self) -> None:
        mode = self.current_mode()
        self.depth_box.setEnabled(mode == NEIGHBOURHOOD)
        self.queue_button.setVisible(mode == PATH)
