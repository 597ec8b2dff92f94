"""The graph's legend: what each node colour means (topic clusters, kinds or sources), beside the view, in the
theme's own colours so it reads in light and dark themes alike."""

from __future__ import annotations

import html

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QWidget


class GraphLegend(QLabel):
    """A small panel of coloured swatches with their names; hidden when there is nothing to explain."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphLegend")
        self.setAccessibleName("Graph legend")
        self.setAutoFillBackground(True)
        self.setStyleSheet("QLabel#graphLegend { background: palette(base); color: palette(text);"
                           " border: 1px solid palette(mid); border-radius: 4px; padding: 4px 6px; }")
        self.entries: list[tuple[QColor, str]] = []
        self.hide()

    def show_entries(self, entries: list[tuple[QColor, str]]) -> None:
        """Show these (colour, name) rows, or hide when there are none."""
        self.entries = list(entries)
        rows = [f"<span style='color:{colour.name()}'>●</span>&nbsp;{html.escape(name)}" for colour, name in entries]
        self.setText("<br>".join(rows))
        self.setVisible(bool(entries))
