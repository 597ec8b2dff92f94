"""Looking at one's listening: the Statistics view, reached from the sidebar and from the Go menu's shortcut,
shows the same figures as `earmark stats --json` for the period chosen (its chart's bars add up to the time
listened, its table lists the podcasts), and is left with Esc and come back to with Back."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QTableWidget
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library, write_transaction
from earmark.core.db.history import record_play
from earmark.core.db.items import save_progress
from earmark.core.models import ProgressUpdate
from earmark.core.timefmt import format_span
from helpers.cli import Cli
from helpers.gui import Launch
from helpers.journeys import click_sidebar, highlighted_row, press, wait_showing

CTRL, SHIFT, ALT = (Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier,
                    Qt.KeyboardModifier.AltModifier)


@pytest.fixture
def history(library_path: Path, sample: None) -> None:
    """Sessions of the sample library, through the saving path: today at 1.5x with silence skipped (one
    finished), and one in 2021 (seen by All time only)."""
    db = open_library(library_path)
    try:
        episodes = [row[0] for row in db.execute(
            "SELECT id FROM items WHERE kind = 'episode' AND enclosure_url IS NOT NULL ORDER BY id LIMIT 3")]
        save_progress(db, ProgressUpdate(episodes[0], 900.0, 3000.0, speed=1.5, silence_saved=30.0))
        save_progress(db, ProgressUpdate(episodes[1], 1200.0, 1200.0, ended=True, speed=1.0, silence_saved=12.0))
        with write_transaction(db):
            record_play(db, episodes[2], 2400.0, False, now=datetime(2021, 3, 1, 9, tzinfo=UTC))
    finally:
        db.close()


def figures(window: QMainWindow) -> dict[str, str]:
    return {name: label.text() for name in ("statListened", "statSavedBySpeed", "statSavedBySilence",
                                            "statFinished") if (label := window.findChild(QLabel, name))}


def expected(stats: dict[str, object]) -> dict[str, str]:
    completion = f" ({stats['completion']:.0%})" if stats["completion"] is not None else ""
    return {"statListened": format_span(float(stats["listened_seconds"])),  # type: ignore[arg-type]
            "statSavedBySpeed": format_span(float(stats["saved_by_speed_seconds"])),  # type: ignore[arg-type]
            "statSavedBySilence": format_span(float(stats["saved_by_silence_seconds"])),  # type: ignore[arg-type]
            "statFinished": f"{stats['episodes_finished']} of {stats['episodes_started']} started{completion}"}


def chart_title(window: QMainWindow) -> str:
    label = window.findChild(QLabel, "statsChartTitle")
    assert label is not None
    return label.text()


def podcast_rows(window: QMainWindow) -> list[tuple[str, str]]:
    table = window.findChild(QTableWidget, "statsPodcasts")
    assert table is not None
    return [(table.item(row, 0).text(), table.item(row, 1).text()) for row in range(table.rowCount())]


def test_statistics_agree_with_the_command_line(qtbot: QtBot, launch: Launch, library_path: Path,
                                                capsys: pytest.CaptureFixture[str], history: None) -> None:
    window = launch().window
    cli = Cli(library_path, capsys)
    week = json.loads(cli("stats", "--since", (date.today() - timedelta(days=6)).isoformat(), "--json")[1])
    everything = json.loads(cli("stats", "--json")[1])
    assert everything["listened_seconds"] > week["listened_seconds"] > 0  # the 2021 session

    click_sidebar(qtbot, window, "Statistics")
    wait_showing(qtbot, window, "statistics")
    assert highlighted_row(window) == "Statistics"
    qtbot.waitUntil(lambda: figures(window) == expected(week), timeout=5000)  # the last 7 days first
    assert podcast_rows(window) == [(s["title"], format_span(s["listened_seconds"])) for s in week["per_source"]]
    chart = window.statistics.view.chart  # type: ignore[attr-defined]
    assert len(chart.heights) == 7
    assert sum(chart.heights) == pytest.approx(week["listened_seconds"] / 60)
    assert chart.heights[-1] == pytest.approx(week["listened_seconds"] / 60)  # all of it today
    assert chart_title(window) == "Minutes listened per day"

    period = window.findChild(QComboBox, "statsPeriod")
    assert period is not None
    period.setFocus()
    press(qtbot, Qt.Key.Key_End)  # All time
    assert period.currentText() == "All time"
    qtbot.waitUntil(lambda: figures(window) == expected(everything), timeout=5000)
    assert sum(chart.heights) == pytest.approx(everything["listened_seconds"] / 60)
    assert chart.labels[0] == "Mar 2021" and chart.heights[0] == pytest.approx(2400 / 60)

    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    press(qtbot, Qt.Key.Key_Left, ALT)  # Back
    wait_showing(qtbot, window, "statistics")
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    press(qtbot, Qt.Key.Key_I, CTRL | SHIFT)  # Go ▸ Statistics
    wait_showing(qtbot, window, "statistics")


def test_a_period_with_nothing_listened_says_so(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    press(qtbot, Qt.Key.Key_I, CTRL | SHIFT)  # Go ▸ Statistics
    wait_showing(qtbot, window, "statistics")
    qtbot.waitUntil(lambda: chart_title(window).startswith("Nothing listened to in the last 7 days"), timeout=5000)
    assert figures(window)["statListened"] == format_span(0)
    period = window.findChild(QComboBox, "statsPeriod")
    assert period is not None
    period.setFocus()
    press(qtbot, Qt.Key.Key_End)  # All time
    qtbot.waitUntil(lambda: chart_title(window).startswith("Nothing listened to yet"), timeout=5000)
