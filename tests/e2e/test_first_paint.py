"""A start shows its list first: the real entry point, in a fresh interpreter on a library of 500 episodes, paints
the list's first rows before it imports the parts of the window the list does not need (the command line's
groups, the graph, the reader, notes, statistics, sync, transcripts, MPRIS and the topic graph's numpy), and
builds them right after: menus, docked panes, the other views."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from earmark.core.db.connection import open_library
from helpers.big_library import add_episodes

NOT_AT_FIRST_PAINT = (
    "numpy", "sklearn", "scipy", "igraph", "trafilatura", "markdown_it", "pyqtgraph", "av", "feedparser",
    "earmark.cli.library", "earmark.cli.feeds", "earmark.cli.graph", "earmark.cli.notes", "earmark.cli.reading",
    "earmark.cli.sync", "earmark.cli.transcribe", "earmark.cli.backups",
    "earmark.core.topics.graph", "earmark.core.feeds.parse",
    "earmark.gui.graph.panel", "earmark.gui.mainwindow.library.graph", "earmark.gui.mainwindow.reading.reading",
    "earmark.gui.mainwindow.library.notes", "earmark.gui.mainwindow.navigation.statistics",
    "earmark.gui.mainwindow.library.sync", "earmark.gui.mainwindow.listening.transcription",
    "earmark.gui.mainwindow.frame.docks", "earmark.gui.mpris",
    "earmark.gui.tray", "earmark.gui.views.reader", "earmark.gui.views.statistics",
)
BUILT_AFTER = ("earmark.gui.mainwindow.library.graph", "earmark.gui.mainwindow.reading.reading",
               "earmark.gui.mainwindow.library.notes", "earmark.gui.mainwindow.navigation.statistics",
               "earmark.gui.mainwindow.frame.docks", "earmark.gui.mpris")

# The child watches the moment the window's list_first start hands over to the rest of the window: the list has
# painted rows. It notes what is imported then, lets the rest be built, notes the window then, and quits.
START_AND_WATCH = """
import gc, json, sys
from PySide6.QtWidgets import QApplication, QDockWidget
import earmark.gui.mainwindow.frame.first_paint as first_paint

watched = json.loads(sys.argv[2])
seen = {}
build_after_first_paint = first_paint.after_first_paint

def watching(lists, build_rest):
    def at_first_paint():
        seen["rows"] = lists.model.rowCount()
        seen["visible"] = lists.table.isVisible()
        seen["imported"] = sorted(name for name in watched if name in sys.modules)
        seen["collecting"] = gc.isenabled()
        build_rest()
        seen["collecting_after"] = gc.isenabled()
        window = lists.parent()
        seen["menus"] = [action.text().replace("&", "") for action in window.menuBar().actions()]
        seen["docks"] = sorted(dock.objectName() for dock in window.findChildren(QDockWidget))
        seen["views"] = window.navigator.stack.count()
        seen["imported_after"] = sorted(name for name in watched if name in sys.modules)
        QApplication.quit()
    build_after_first_paint(lists, at_first_paint)

first_paint.after_first_paint = watching
from earmark.__main__ import main
sys.argv = ["earmark", "--library", sys.argv[1]]
print(json.dumps({"code": main(), **seen}))
"""


def start(library: Path, home: Path) -> dict[str, object]:
    """``earmark --library LIBRARY`` in a new interpreter (offscreen, its own config folders), as watched."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONSAFEPATH": "1",
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CACHE_HOME": str(home / "cache")}
    done = subprocess.run([sys.executable, "-c", START_AND_WATCH, str(library), json.dumps(NOT_AT_FIRST_PAINT)],
                          capture_output=True, text=True, timeout=120, check=False, env=env)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_the_list_paints_before_the_rest_of_the_window_is_imported(tmp_path: Path) -> None:
    library = tmp_path / "library.db"
    open_library(library).close()
    add_episodes(library, 500)
    result = start(library, tmp_path / "home")
    assert result["code"] == 0
    assert result["visible"] is True
    assert 0 < int(str(result["rows"])) <= 500  # its first page (200) or, when it came first, the whole list
    assert result["imported"] == []
    assert result["collecting"] is False  # no garbage collection while it starts: what it made lives on
    # ... and the rest of the window follows at once.
    assert set(BUILT_AFTER) <= set(result["imported_after"])  # type: ignore[arg-type]
    assert {"File", "View", "Playback", "Go", "Help"} <= set(result["menus"])  # type: ignore[arg-type]
    assert len(result["docks"]) == 5  # type: ignore[arg-type]
    assert result["collecting_after"] is True  # collected again once the window is whole
    assert result["views"] == 9  # the list and the welcome screen, subscriptions, notes, graph, reader, statistics,
    # My Podcasts and Ask
