"""The Statistics view's bar chart of minutes listened, drawn by pyqtgraph in the colours of the theme (light or
dark, followed when it changes). Imported when the view first shows: pyqtgraph is not loaded at start-up."""

from __future__ import annotations

from datetime import date

import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QPalette

from earmark.core.db.listening_stats import ListeningStats, series

LABELS = {"day": "%d %b", "week": "%d %b", "month": "%b %Y"}
MAX_TICKS = 12  # labels under the bars at most (every n-th bar is labelled)


def bars(stats: ListeningStats, unit: str, first: date, last: date) -> list[tuple[str, float]]:
    """The chart's bars: a label and the minutes listened, per ``unit`` from ``first`` to ``last``."""
    return [(start.strftime(LABELS[unit]), seconds / 60) for start, seconds in series(stats.days, unit, first, last)]


class _Plot(pg.PlotWidget):
    """A plot that takes the theme's colours again when the palette changes."""

    chart: ListeningChart | None = None  # set once built (the base class changes the palette while building)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.chart is not None:
            self.chart.restyle()


class ListeningChart:
    """A bar per period; ``heights`` are the minutes shown (what a test compares with the history)."""

    def __init__(self) -> None:
        plot = _Plot()
        self.widget = plot
        self.widget.setObjectName("statsChart")
        self.widget.setAccessibleName("Minutes listened per period")
        self._plot = self.widget.getPlotItem()
        self._plot.setMenuEnabled(False)
        self._plot.setMouseEnabled(x=False, y=False)
        self._plot.hideButtons()
        self._plot.showGrid(y=True, alpha=0.25)
        self._plot.getAxis("left").setStyle(maxTickLevel=0)  # grid lines at the labelled minutes only
        self._bars = pg.BarGraphItem(x=[], height=[], width=0.7)
        self._plot.addItem(self._bars)
        self.labels: list[str] = []
        self.heights: list[float] = []
        self.restyle()
        plot.chart = self

    def show_bars(self, shown: list[tuple[str, float]]) -> None:
        """Draw these bars (label, minutes)."""
        self.labels = [label for label, _ in shown]
        self.heights = [minutes for _, minutes in shown]
        step = max(1, -(-len(shown) // MAX_TICKS))
        self._plot.getAxis("bottom").setTicks([[(i, label) for i, label in enumerate(self.labels) if i % step == 0]])
        self._bars.setOpts(x=list(range(len(shown))), height=self.heights, width=0.7)
        self._plot.setXRange(-0.6, max(0, len(shown) - 1) + 0.6, padding=0)
        self._plot.setYRange(0, max([*self.heights, 1.0]) * 1.1, padding=0)
        self.restyle()

    def restyle(self) -> None:
        """The theme's colours: its base as the background, its text for the axes, its highlight for the bars."""
        palette = self.widget.palette()
        self.widget.setBackground(palette.color(QPalette.ColorRole.Base))
        text = palette.color(QPalette.ColorRole.Text)
        for side in ("left", "bottom"):
            axis = self._plot.getAxis(side)
            axis.setPen(pg.mkPen(text))
            axis.setTextPen(pg.mkPen(text))
        highlight = palette.color(QPalette.ColorRole.Highlight)
        self._bars.setOpts(brush=pg.mkBrush(highlight), pen=pg.mkPen(highlight.darker(120)))
        self._plot.setLabel("left", "minutes", color=text.name())
