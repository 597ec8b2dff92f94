"""The Statistics view as the navigator drives it: the figures of the chosen period are read in a worker each
time the view is entered or another period is chosen."""

from __future__ import annotations

from datetime import date

from PySide6.QtWidgets import QWidget

from earmark.core.db.listening_stats import ListeningStats, listening_stats
from earmark.gui.mainwindow.places import STATISTICS, Place
from earmark.gui.tasks import TaskRunner
from earmark.gui.views.statistics import StatisticsView


class StatisticsController:
    """Owns the Statistics view (an error reading the history is told as every read's is, by the runner)."""

    def __init__(self, runner: TaskRunner) -> None:
        self._runner = runner
        self.view = StatisticsView()
        self.view.period_changed.connect(self.reload)
        self._shown = False

    def widget(self) -> QWidget:
        """The view's widget."""
        return self.view

    def enter(self, _place: Place) -> None:
        """Read the figures of the chosen period."""
        self._shown = True
        self.reload()

    def reload(self) -> None:
        """Read the figures again (the history changed, or another period was chosen)."""
        if not self._shown:
            return
        today = date.today()
        self._runner.read(listening_stats, self.view.chosen().since(today),
                          on_done=lambda stats: self._show(stats, today))

    def _show(self, stats: ListeningStats, today: date) -> None:
        if self._shown:
            self.view.show_stats(stats, today)

    def here(self) -> Place:
        """The view."""
        return Place(STATISTICS)

    def leave(self) -> None:
        """Nothing to keep; the history is not read while the view is hidden."""
        self._shown = False

    def focus(self) -> None:
        """The keyboard to the period box."""
        self.view.period.setFocus()

    def find_field(self) -> QWidget | None:
        """No search box: Ctrl+F searches the list."""
        return None
