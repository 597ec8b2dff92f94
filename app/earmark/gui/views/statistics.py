"""The Statistics view: a period to look at, its figures (time listened, time saved by speed and by skipped silence,
episodes finished, articles read), a bar chart of the time listened per day, week or month, and the podcasts
listened to most. The chart is pyqtgraph's (gui/views/listening_chart.py), built the first time the view shows."""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from earmark.core.db.listening_stats import ListeningStats
from earmark.core.records import record
from earmark.core.timefmt import format_span


@record(frozen=True)
class Period:
    """A choice of the period box: how many days back (None: all), and the chart's bars (day, week, month)."""

    label: str
    days: int | None
    bars: str

    def since(self, today: date) -> date | None:
        """The first day counted."""
        return None if self.days is None else today - timedelta(days=self.days - 1)


PERIODS = (Period("Last 7 days", 7, "day"), Period("Last 30 days", 30, "day"), Period("Last 12 weeks", 84, "week"),
           Period("Last 12 months", 365, "month"), Period("All time", None, "month"))
FIGURES = (("statListened", "Time listened"), ("statSavedBySpeed", "Saved by speed"),
           ("statSavedBySilence", "Saved by skipping silence"), ("statFinished", "Episodes finished"),
           ("statArticles", "Articles read"))


class StatisticsView(QWidget):
    """Shows a ListeningStats; ``period_changed`` when another period is chosen (the controller reads it)."""

    period_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statistics")
        self.period = QComboBox()
        self.period.setObjectName("statsPeriod")
        self.period.setAccessibleName("Period")
        for choice in PERIODS:
            self.period.addItem(choice.label)
        self.period.currentIndexChanged.connect(lambda _index: self.period_changed.emit())
        heading = QLabel("<h2>Statistics</h2>")
        top = QHBoxLayout()
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(QLabel("Period:"))
        top.addWidget(self.period)
        figures = QFormLayout()
        self.figures: dict[str, QLabel] = {}
        for name, text in FIGURES:
            value = QLabel("—")
            value.setObjectName(name)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            figures.addRow(f"{text}:", value)
            self.figures[name] = value
        self.chart_title = QLabel()
        self.chart_title.setObjectName("statsChartTitle")
        self.chart_box = QVBoxLayout()  # the chart goes here on first show
        self.podcasts = QTableWidget(0, 2)
        self.podcasts.setObjectName("statsPodcasts")
        self.podcasts.setAccessibleName("Time listened per podcast")
        self.podcasts.setAccessibleDescription("The podcasts listened to most in the period, with the time each took")
        self.podcasts.setHorizontalHeaderLabels(["Podcast", "Listened"])
        self.podcasts.verticalHeader().hide()
        self.podcasts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.podcasts.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.podcasts.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.podcasts.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(figures)
        layout.addWidget(self.chart_title)
        layout.addLayout(self.chart_box, 3)
        layout.addWidget(QLabel("Per podcast"))
        layout.addWidget(self.podcasts, 2)
        self.chart: object | None = None  # a ListeningChart once shown

    def chosen(self) -> Period:
        """The period chosen."""
        return PERIODS[max(0, self.period.currentIndex())]

    def show_stats(self, stats: ListeningStats, today: date) -> None:
        """Show ``stats`` (read for the chosen period)."""
        completion = "" if stats.completion is None else f" ({stats.completion:.0%})"
        values = {
            "statListened": format_span(stats.listened_seconds),
            "statSavedBySpeed": format_span(stats.saved_by_speed_seconds),
            "statSavedBySilence": format_span(stats.saved_by_silence_seconds),
            "statFinished": f"{stats.episodes_finished} of {stats.episodes_started} started{completion}",
            "statArticles": f"{stats.articles_read} ({format_span(stats.reading_seconds)} reading)",
        }
        for name, text in values.items():
            self.figures[name].setText(text)
        self.podcasts.setRowCount(len(stats.per_source))
        for row, source in enumerate(stats.per_source):
            self.podcasts.setItem(row, 0, QTableWidgetItem(source.title))
            listened = QTableWidgetItem(format_span(source.listened_seconds))
            listened.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.podcasts.setItem(row, 1, listened)
        from earmark.gui.views.listening_chart import ListeningChart, bars  # pyqtgraph: loaded on first use

        if self.chart is None:
            self.chart = ListeningChart()
            self.chart_box.addWidget(self.chart.widget)
        assert isinstance(self.chart, ListeningChart)
        period = self.chosen()
        shown = bars(stats, period.bars, period.since(today) or _first_day(stats, today), today)
        self.chart_title.setText(f"Minutes listened per {period.bars}" if stats.listened_seconds else
                                 f"Nothing listened to {_span(period)}: the minutes of what you play show here")
        self.chart.show_bars(shown)


def _span(period: Period) -> str:
    """``in the last 7 days``, or ``yet`` for all time."""
    return "yet" if period.days is None else f"in the {period.label.lower()}"


def _first_day(stats: ListeningStats, today: date) -> date:
    return next(iter(stats.days), today)
