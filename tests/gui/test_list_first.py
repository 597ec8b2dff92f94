"""A start builds the window up to its list, shows it, and builds the rest after the list's first paint: the window
it ends up as is the one built at once, and closing it in the moment between does not break it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolButton
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.sample import load_sample
from earmark.core.settings import set_setting
from earmark.gui.application import Parts, build
from earmark.gui.mainwindow.places import NOTES, Place, place_key


def sample_library(library_path: Path) -> None:
    db = open_library(library_path)
    load_sample(db)
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()


def started(qtbot: QtBot, library_path: Path, list_first: bool) -> Parts:
    parts = build(library_path, vlc_args=("--aout=dummy",), list_first=list_first)
    qtbot.addWidget(parts.window)
    if not list_first:
        parts.window.show()
    qtbot.waitUntil(lambda: parts.window.sidebar_model.rowCount() > 0, timeout=10_000)
    return parts


def arrangement(window: QMainWindow) -> dict[str, object]:
    """What a person finds in the window: its menus, shortcuts, docked panes and their state, views, the view."""
    return {
        "menus": [action.text() for action in window.menuBar().actions()],
        "shortcuts": sorted(action.shortcut().toString() for action in window.actions()),
        # The panes on screen and where (those behind another's tab have no place of their own until raised).
        "docks": sorted((dock.objectName(), dock.geometry().getRect() if not dock.visibleRegion().isEmpty()
                         else None) for dock in window.findChildren(QDockWidget)),
        "tabs": sorted(tuple(sorted(d.objectName() for d in window.tabifiedDockWidgets(dock)))
                       for dock in window.findChildren(QDockWidget)),
        "central": window.centralWidget().geometry().getRect(),
        "views": window.navigator.stack.count(),  # type: ignore[attr-defined]
        "place": window.navigator.key(),  # type: ignore[attr-defined]
        "size": window.size(),
        "save icon": not window.findChild(QToolButton, "saveSmartList").icon().isNull(),  # added once the list is read
    }


def test_the_window_shown_list_first_ends_up_as_the_one_built_at_once(qtbot: QtBot, library_path: Path) -> None:
    sample_library(library_path)
    first = started(qtbot, library_path, list_first=False).window
    first.resize(1400, 700)
    first.menu_actions.show_queue_pane.trigger()  # a docked pane put away
    first.navigator.go(Place(NOTES))
    first.close()
    whole = started(qtbot, library_path, list_first=False).window
    qtbot.waitUntil(lambda: bool(arrangement(whole)["save icon"]), timeout=10_000)  # the list read
    expected = arrangement(whole)
    assert expected["place"] == place_key(Place(NOTES))

    window = started(qtbot, library_path, list_first=True).window
    assert window.isVisible()  # shown by the start itself, from its list on
    qtbot.waitUntil(lambda: window.navigator.key() == expected["place"], timeout=10_000)
    try:  # once its layout has settled: the menus and panes just built are laid out in the next passes
        qtbot.waitUntil(lambda: arrangement(window) == expected, timeout=5000)
    finally:
        assert arrangement(window) == expected


def test_a_window_closed_before_it_is_whole_closes_once_it_is(qtbot: QtBot, library_path: Path) -> None:
    sample_library(library_path)
    parts = build(library_path, vlc_args=("--aout=dummy",), list_first=True)
    qtbot.addWidget(parts.window)
    window = parts.window
    assert window.isVisible() and not hasattr(window, "desktop")  # its list only, so far
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert hasattr(window, "desktop")  # it was built, then closed as a whole window closes
    assert open_library(library_path).execute("SELECT count(*) FROM items").fetchone()[0] == 54


def test_the_first_frame_has_the_menus_and_reads_the_sidebar(qtbot: QtBot, library_path: Path) -> None:
    sample_library(library_path)
    parts = build(library_path, vlc_args=("--aout=dummy",), list_first=True)
    qtbot.addWidget(parts.window)
    window = parts.window
    assert not hasattr(window, "desktop")  # its list only, so far: nothing moves down when the rest arrives
    assert [action.text() for action in window.menuBar().actions()][:3] == ["&File", "&Edit", "&View"]
    qtbot.waitUntil(lambda: window.sidebar_model.rowCount() > 0, timeout=10_000)
    qtbot.waitUntil(lambda: window.navigator.key() is not None and hasattr(window, "desktop"), timeout=10_000)
