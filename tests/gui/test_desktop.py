"""The window on the desktop: first run, layout and view restored after a restart, tray, notifications,
arguments from another launch, accessible names and contrast in both themes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QProcess, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.sources import list_sources
from earmark.core.feeds.subscribe import subscribe
from earmark.core.settings import set_setting
from earmark.gui.feed_refresh import RefreshSummary
from earmark.gui.models.items import COL_SOURCE
from earmark.gui.models.sidebar import NOTES
from earmark.gui.theme import ACCENTS, Appearance, contrast, palette
from earmark.gui.tray import TrayIcon
from earmark.gui.views.add_podcast import AddPodcastDialog
from earmark.gui.views.credentials import CredentialsDialog
from helpers.accessibility import unnamed_widgets
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import click_sidebar, press, sidebar_row, visible_dialog, wait_showing

REFRESH_MS = 30_000


def episodes(prefix: str, count: int) -> list[dict[str, str]]:
    return [{"title": f"{prefix} {n}", "guid": f"{prefix}-{n}", "enclosure": f"https://example.com/{prefix}{n}.mp3",
             "pubDate": f"Mon, {n + 1:02d} Jan 2024 10:00:00 +0000"} for n in range(count)]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path / "served") as feed_server:
        yield feed_server


@pytest.fixture
def quiet(library_path: Path) -> None:
    set_setting(open_library(library_path), "feeds.refresh_on_start", False)


def reject_when_shown(kind: type, seen: list[str], tries: int = 100) -> None:
    """Cancel the next ``kind`` dialog once it shows (a static dialog runs its own event loop)."""
    dialog = visible_dialog(kind)
    if dialog is not None:
        seen.append(kind.__name__)
        dialog.reject()  # type: ignore[attr-defined]
    elif tries:
        QTimer.singleShot(50, lambda: reject_when_shown(kind, seen, tries - 1))


def test_first_run_shows_the_welcome_screen_usable_from_the_keyboard(qtbot: QtBot, launch: Launch) -> None:
    window = launch().window
    welcome = window.empty_view
    wait_showing(qtbot, window, "welcome")
    assert any("Welcome to Earmark" in label.text() for label in welcome.findChildren(QLabel))
    buttons = [welcome.sample_button, welcome.add_button, welcome.import_button]
    assert [b.text().replace("&", "") for b in buttons] == [
        "Load the sample library", "Find or add a podcast…", "Import subscriptions (OPML)…"]
    qtbot.waitUntil(lambda: QApplication.focusWidget() is welcome.sample_button)
    qtbot.keyClick(welcome.sample_button, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is welcome.add_button
    qtbot.keyClick(welcome.add_button, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is welcome.import_button

    seen: list[str] = []
    reject_when_shown(QFileDialog, seen)
    qtbot.keyClick(welcome.import_button, Qt.Key.Key_Space)  # the OPML file dialog opens; cancelled
    reject_when_shown(AddPodcastDialog, seen)
    qtbot.keyClick(welcome.add_button, Qt.Key.Key_Space)  # Add Podcast opens; cancelled
    qtbot.waitUntil(lambda: seen == ["QFileDialog", "AddPodcastDialog"])  # Add Podcast's dialog does not block
    welcome.sample_button.setFocus()
    qtbot.keyClick(welcome.sample_button, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 54, timeout=20_000)
    wait_showing(qtbot, window, "list")


def test_layout_and_view_come_back_after_a_restart(qtbot: QtBot, launch: Launch, library_path: Path,
                                                   server: FeedServer, quiet: None) -> None:
    subscribe(open_library(library_path), server.serve_body("/a.xml", rss("Alpha", episodes("a", 2))))
    window = launch().window
    window.resize(1400, 700)
    window.splitter.setSizes([250, 700])
    window.item_list.horizontalHeader().resizeSection(COL_SOURCE, 222)
    press(qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    sizes, size = window.splitter.sizes(), window.size()
    assert size != QSize(1280, 800)  # not the default size
    window.close()

    again = launch().window
    assert again.size() == size
    assert again.splitter.sizes()[0] == sizes[0]  # the list takes what the docked panes leave (test_arranging_panes)
    assert again.item_list.horizontalHeader().sectionSize(COL_SOURCE) == 222
    wait_showing(qtbot, again, "notes")
    assert again.sidebar_tree.currentIndex() == again.sidebar_model.index_for(NOTES)

    click_sidebar(qtbot, again, "Alpha")
    row = sidebar_row(again, "Alpha")
    qtbot.waitUntil(lambda: again.items_model.rowCount() == 2)
    again.close()
    third = launch().window
    qtbot.waitUntil(lambda: third.sidebar_tree.currentIndex().data() == row.data())
    assert third.items_model.item_filter.source_id == list_sources(open_library(library_path))[0].id


def test_pane_sizes_and_column_widths_are_saved_and_restored(launch: Launch, quiet: None) -> None:
    window = launch().window
    window.splitter.setSizes([250, 600])
    sizes = window.splitter.sizes()
    window.desktop.save_layout()
    window.splitter.setSizes([400, 450])
    window.desktop.restore_layout()
    assert window.splitter.sizes() == sizes


def test_the_tray_menu_drives_the_window(qtbot: QtBot, launch: Launch, quiet: None) -> None:
    window = launch().window
    tray = window.desktop.tray
    assert tray.next.isVisible()  # the window's Up next has a Next action: the tray's Next triggers it
    with qtbot.waitSignal(window.menu_actions.next_in_queue.triggered):
        tray.next.trigger()
    with qtbot.waitSignal(window.menu_actions.play_pause.triggered):
        tray.play_pause.trigger()
    tray.show_hide.trigger()
    assert not window.isVisible()
    tray.menu.aboutToShow.emit()
    assert tray.show_hide.text() == "Show Earmark"
    tray.show_hide.trigger()
    assert window.isVisible()

    without_queue = TrayIcon(window, window.menu_actions.play_pause, window.menu_actions.quit, None)
    assert not without_queue.next.isVisible()


def test_a_refresh_with_new_episodes_notifies(qtbot: QtBot, launch: Launch, library_path: Path,
                                              server: FeedServer, quiet: None) -> None:
    url = server.serve_body("/n.xml", rss("News", episodes("n", 1)))
    subscribe(open_library(library_path), url)
    server.serve_body("/n.xml", rss("News", episodes("n", 3)))
    window = launch().window
    window.feeds.refresh_all()
    with qtbot.waitSignal(window.feeds.refreshed, timeout=REFRESH_MS) as blocker:
        pass
    assert isinstance(blocker.args[0], RefreshSummary) and blocker.args[0].new == 2
    assert window.desktop.tray.last_message == "2 new episodes and articles arrived."

    window.preferences.set_value("feeds.notify_new", False)
    qtbot.waitUntil(lambda: window.preferences.value("feeds.notify_new") is False)
    window.desktop.tray.last_message = ""
    window.feeds.refreshed.emit(RefreshSummary(total=1, checked=1, new=4))
    assert window.desktop.tray.last_message == ""


def test_arguments_handed_over_subscribe_and_import(qtbot: QtBot, launch: Launch, library_path: Path,
                                                    server: FeedServer, tmp_path: Path, quiet: None) -> None:
    feed = server.serve_body("/f.xml", rss("Handed Feed", episodes("h", 2)))
    listed = server.serve_body("/o.xml", rss("Listed Feed", episodes("o", 1)))
    opml = tmp_path / "mine.opml"
    opml.write_text(f"""<?xml version="1.0"?><opml version="2.0"><head/><body>
        <outline type="rss" text="Listed" xmlUrl="{listed}"/></body></opml>""", encoding="utf-8")
    window = launch().window
    window.hide()
    window.open_arguments([f"feed:{feed}", opml.as_uri()])
    assert window.isVisible()  # raised
    for _question in range(2):  # each link and file from outside is asked about once: Subscribe
        qtbot.waitUntil(lambda: isinstance(visible_dialog(QMessageBox), QMessageBox), timeout=REFRESH_MS)
        box = visible_dialog(QMessageBox)
        [subscribe_button] = [b for b in box.buttons() if b.text() == "&Subscribe"]  # type: ignore[union-attr]
        qtbot.mouseClick(subscribe_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda box=box: not box.isVisible())  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: len(list_sources(open_library(library_path))) == 2, timeout=REFRESH_MS)
    # the new podcast is selected: its two episodes show
    qtbot.waitUntil(lambda: str(window.sidebar_tree.currentIndex().data()).startswith("Handed Feed ("),
                    timeout=REFRESH_MS)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 2, timeout=REFRESH_MS)
    # the list's title for its feed ("Listed", not the feed's "Listed Feed") is the user's and stays
    assert sorted(s.title for s in list_sources(open_library(library_path))) == ["Handed Feed", "Listed"]


def test_every_widget_has_an_accessible_name(qtbot: QtBot, launch: Launch, library_path: Path,
                                             server: FeedServer, quiet: None) -> None:
    subscribe(open_library(library_path), server.serve_body("/a.xml", rss("Alpha", episodes("a", 2))))
    window = launch().window
    assert unnamed_widgets(window) == []
    press(qtbot, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert unnamed_widgets(window) == []
    press(qtbot, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert unnamed_widgets(window) == []
    window.menu_actions.show_settings.trigger()
    assert window.desktop.settings_dialog is not None
    assert unnamed_widgets(window.desktop.settings_dialog) == []
    credentials = CredentialsDialog("Alpha", window)
    qtbot.addWidget(credentials)
    assert unnamed_widgets(credentials) == []


def test_welcome_screen_has_accessible_names(launch: Launch) -> None:
    window = launch().window
    assert unnamed_widgets(window.empty_view) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_both_themes_keep_readable_contrast(scheme: str) -> None:
    colours = palette(scheme)
    role = QPalette.ColorRole
    pairs = [(role.WindowText, role.Window), (role.Text, role.Base), (role.Text, role.AlternateBase),
             (role.ButtonText, role.Button), (role.HighlightedText, role.Highlight), (role.ToolTipText,
                                                                                    role.ToolTipBase),
             (role.PlaceholderText, role.Base), (role.PlaceholderText, role.Window), (role.Link, role.Base)]
    for foreground, background in pairs:
        ratio = contrast(colours.color(foreground), colours.color(background))
        assert ratio >= 4.5, f"{foreground.name} on {background.name}: {ratio:.2f}"
    accents = ACCENTS[scheme]
    for colour in (accents.error, accents.tag, accents.muted):
        assert contrast(colours.color(role.Base).fromString(colour), colours.color(role.Base)) >= 4.5
        assert contrast(colours.color(role.Window).fromString(colour), colours.color(role.Window)) >= 4.5
    for background in (accents.current_line, accents.highlight):
        assert contrast(colours.color(role.Text), colours.color(role.Text).fromString(background)) >= 4.5
    for background in (role.Window, role.Base, role.Button):  # the edge of an empty check box
        assert contrast(QColor(accents.edge), colours.color(background)) >= 3, background.name


def test_the_system_theme_follows_the_desktop_colour_scheme(launch: Launch, quiet: None) -> None:
    window = launch().window
    appearance = Appearance.of(QApplication.instance())  # type: ignore[arg-type]
    before = appearance.desktop_scheme
    try:
        appearance.follow_scheme(Qt.ColorScheme.Dark)  # what QStyleHints.colorSchemeChanged delivers
        assert appearance.scheme() == "dark"
        assert QApplication.palette().color(QPalette.ColorRole.Window).lightnessF() < 0.3
        window.preferences.set_value("appearance.theme", "light")  # an explicit theme wins
        assert QApplication.palette().color(QPalette.ColorRole.Window).lightnessF() > 0.7
        appearance.follow_scheme(Qt.ColorScheme.Dark)
        assert appearance.scheme() == "light"
        window.preferences.set_value("appearance.theme", "system")
        appearance.follow_scheme(Qt.ColorScheme.Light)
        assert appearance.scheme() == "light"
    finally:
        appearance.follow_scheme(before)
        window.preferences.set_value("appearance.theme", "system")


def test_closing_during_a_refresh_stops_it_cleanly(qtbot: QtBot, launch: Launch, library_path: Path,
                                                   server: FeedServer, quiet: None) -> None:
    db = open_library(library_path)
    fast = server.serve_body("/fast.xml", rss("Fast", episodes("fast", 1)))
    slow = server.serve_body("/slow.xml", rss("Slow", episodes("slow", 1)))
    subscribe(db, fast)
    subscribe(db, slow)
    db.close()
    server.serve_body("/fast.xml", rss("Fast", episodes("fast", 3)))
    server.serve_slow("/slow.xml", 60, rss("Slow", episodes("slow", 2)))
    window = launch().window
    window.feeds.refresh_all()
    with qtbot.waitSignal(window.feeds.refresher.feed_done, timeout=REFRESH_MS):
        pass  # the fast feed is in; the slow one hangs
    assert window.feeds.refresher.is_running()
    started = time.monotonic()
    window.close()  # the refresh is told to stop, killed if it has not within half a second, the library closed
    took = time.monotonic() - started
    assert took < 2.0, f"quitting waited {took:.1f} s for a hanging feed"  # the limit for quitting
    child = window.feeds.refresher._process  # noqa: SLF001 - the refresh's child process must be gone
    assert child is None or child.state() == QProcess.ProcessState.NotRunning
    db = open_library(library_path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    counts = {s.title: s.item_count for s in list_sources(db)}
    assert counts == {"Fast": 3, "Slow": 1}
