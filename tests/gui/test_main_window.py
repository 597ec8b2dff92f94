"""The main window driven like a user: keys, clicks, and what the library holds afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items, save_progress
from earmark.core.db.sources import list_sources
from earmark.core.models import Changes, ProgressUpdate
from earmark.core.settings import get_setting
from earmark.gui.application import run
from earmark.gui.views.add_podcast import AddPodcastDialog
from earmark.playback.player import PlayerState
from helpers.feed_server import FeedServer
from helpers.gui import Launch
from helpers.journeys import click_sidebar, showing, wait_showing
from helpers.podcast import Episode, write_podcast

pytestmark = pytest.mark.vlc


def stored(library_path: Path, title: str):  # noqa: ANN201 - an Item
    return next(i for i in list_items(open_library(library_path), ItemFilter()) if i.title == title)


def error_dialog() -> QMessageBox | None:
    boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
    return boxes[0] if boxes else None


def test_keyboard_select_play_pause_and_quit_saves(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                   library_path: Path) -> None:
    parts = launch()
    window, player = parts.window, parts.session.player
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    assert window.windowTitle().startswith("Earmark")
    assert QApplication.focusWidget() is window.item_list
    qtbot.waitUntil(lambda: window.item_list.currentIndex().row() == 0)

    qtbot.keyClick(window.item_list, Qt.Key.Key_Down)
    assert window.item_list.currentIndex().row() == 1
    assert "Middle episode" in window.detail.toPlainText()
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=8000)
    assert "Middle episode" in window.player_bar.title.text()
    assert window.items_model.index(1, 0).data(Qt.ItemDataRole.FontRole).bold()
    qtbot.waitUntil(lambda: player.position() >= 1.0, timeout=5000)

    qtbot.keyClick(window.item_list, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: player.state == PlayerState.PAUSED, timeout=5000)
    paused_at = player.position()
    qtbot.waitUntil(lambda: stored(library_path, "Middle episode").position > 0, timeout=5000)
    assert stored(library_path, "Middle episode").position == pytest.approx(paused_at, abs=0.3)

    qtbot.keyClick(window.item_list, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING, timeout=5000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Left)  # back 10 s: to the start
    qtbot.waitUntil(lambda: player.position() < 1.0, timeout=5000)
    qtbot.waitUntil(lambda: player.position() >= 1.5, timeout=5000)
    quit_at = player.position()
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not window.isVisible()
    middle = stored(library_path, "Middle episode")
    assert middle.position == pytest.approx(quit_at, abs=0.5)
    assert middle.last_played is not None and not middle.played


def test_playing_again_resumes_where_it_was_left(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                 library_path: Path) -> None:
    newest = stored(library_path, "Newest episode")
    save_progress(open_library(library_path), ProgressUpdate(newest.id, 3.5))
    parts = launch()
    qtbot.waitUntil(lambda: parts.window.items_model.rowCount() == 3)
    assert parts.window.items_model.index(0, 4).data() == "at 0:03"
    qtbot.keyClick(parts.window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.waitUntil(lambda: parts.session.player.position() >= 3.5, timeout=5000)
    assert parts.session.player.position() < 5.5


def test_right_skips_forward_and_the_end_marks_played(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                      library_path: Path) -> None:
    parts = launch()
    window = parts.window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    window.item_list.selectRow(2)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.PLAYING, timeout=8000)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Right)  # 30 s ahead of a 2 s clip: to its end
    qtbot.waitUntil(lambda: parts.session.player.state == PlayerState.ENDED, timeout=8000)
    qtbot.waitUntil(lambda: stored(library_path, "Short episode").played, timeout=5000)
    qtbot.waitUntil(lambda: window.items_model.index(2, 4).data() == "played", timeout=5000)
    assert "played" in window.detail.toPlainText()
    assert stored(library_path, "Short episode").position == 0


def test_empty_library_offers_the_sample_library(qtbot: QtBot, launch: Launch, library_path: Path) -> None:
    parts = launch()
    window = parts.window
    wait_showing(qtbot, window, "welcome")
    qtbot.mouseClick(window.empty_view.sample_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 54, timeout=20000)
    assert showing(window) == "list"
    assert len(list_items(open_library(library_path), ItemFilter(kind="episode"))) == 51


def test_a_file_that_is_not_a_feed_is_explained_and_changes_nothing(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                                   library_path: Path, tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text("<html><body><h1>Just a web page</h1></body></html>")
    before = [i.as_json() for i in list_items(open_library(library_path), ItemFilter())]
    parts = launch()
    parts.window.subscribing.subscribe(str(page))
    qtbot.waitUntil(lambda: error_dialog() is not None, timeout=5000)
    box = error_dialog()
    assert box is not None and "page.html is not a podcast or news feed" in box.text()
    assert "Traceback" not in box.text()
    box.close()
    assert [i.as_json() for i in list_items(open_library(library_path), ItemFilter())] == before


def test_add_podcast_from_the_keyboard_over_http(qtbot: QtBot, launch: Launch, tmp_path: Path,
                                                library_path: Path) -> None:
    write_podcast(tmp_path / "site", [Episode("Fetched over HTTP", 2.0)], title="Served Cast")
    window = launch().window
    with FeedServer(tmp_path / "site") as server:
        url = server.url("/feed.xml")

        def fill_in_the_dialog() -> None:
            dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, AddPodcastDialog)
                          and w.isVisible())
            dialog.field.setText(url)
            dialog.field.returnPressed.emit()

        QTimer.singleShot(200, fill_in_the_dialog)
        qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: window.items_model.rowCount() == 1, timeout=10000)
    assert window.items_model.item_at(0).title == "Fetched over HTTP"  # type: ignore[union-attr]
    assert "Served Cast" in window.statusBar().currentMessage()
    assert [s.title for s in list_sources(open_library(library_path))] == ["Served Cast"]


def test_corrupt_audio_is_explained_and_keeps_the_position(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                          library_path: Path) -> None:
    newest = stored(library_path, "Newest episode")
    save_progress(open_library(library_path), ProgressUpdate(newest.id, 2.0))
    assert newest.enclosure_url is not None
    Path(newest.enclosure_url.removeprefix("file://")).write_bytes(b"RIFF\x00\x00garbage" * 50)
    parts = launch()
    qtbot.waitUntil(lambda: parts.window.items_model.rowCount() == 3)
    qtbot.keyClick(parts.window.item_list, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: parts.window.player_bar.message.isVisible(), timeout=8000)
    assert parts.window.player_bar.message.text() == ("“Newest episode” could not be played: the file is missing, "
                                                      "damaged or in a format VLC cannot read.")
    qtbot.wait(300)
    assert error_dialog() is None  # said once, in the player bar
    parts.window.close()
    assert get_item(open_library(library_path), newest.id).position == pytest.approx(2.0)


def test_search_box_filters_the_list(qtbot: QtBot, launch: Launch, with_podcast: None) -> None:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is window.search
    qtbot.keyClicks(window.search, "short")
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1, timeout=3000)
    assert window.items_model.item_at(0).title == "Short episode"  # type: ignore[union-attr]
    with qtbot.waitSignal(window.items_model.loaded, timeout=3000):
        qtbot.keyClicks(window.search, ' "( AND')
    assert window.items_model.rowCount() == 0


def test_reloading_keeps_the_selection_and_the_section(qtbot: QtBot, launch: Launch, with_podcast: None) -> None:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    click_sidebar(qtbot, window, "Podcasts")
    qtbot.waitUntil(lambda: window.items_model.item_filter.kind == "episode")
    window.search.setText("episode")
    qtbot.waitUntil(lambda: window.items_model.item_filter.text == "episode", timeout=3000)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    window.item_list.selectRow(1)
    with qtbot.waitSignal(window.items_model.loaded, timeout=3000):
        window.apply_changes(Changes(structure=True))  # as after subscribing or loading the sample
    qtbot.waitUntil(lambda: window.sidebar_tree.currentIndex().data().startswith("Podcasts"))
    assert window.items_model.item_at(window.item_list.currentIndex().row()).title == "Middle episode"  # type: ignore[union-attr]


def test_the_chosen_speed_is_used_and_remembered(qtbot: QtBot, launch: Launch, with_podcast: None,
                                                 library_path: Path) -> None:
    parts = launch()
    bar = parts.window.player_bar
    index = bar.speed.findData(1.5)
    bar.speed.setCurrentIndex(index)
    bar.speed.activated.emit(index)  # what the combo box emits when the user picks an entry
    assert parts.session.player.rate() == 1.5
    parts.window.close()
    assert get_setting(open_library(library_path), "playback.speed") == 1.5
    again = launch()
    assert again.session.player.rate() == 1.5
    assert again.window.player_bar.speed.currentText() == "1.5×"


def test_a_library_that_is_not_sqlite_is_explained_in_a_dialog_and_left_untouched(qtbot: QtBot,
                                                                                 tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("my precious notes")
    shown: list[str] = []

    def read_and_close_the_dialog() -> None:
        box = error_dialog()
        assert box is not None
        shown.append(box.text())
        box.close()

    QTimer.singleShot(300, read_and_close_the_dialog)
    assert run(bad) == 1
    assert shown and "is not an Earmark library" in shown[0] and "Traceback" not in shown[0]
    assert bad.read_text() == "my precious notes"


def test_item_model_passes_the_model_tester(qtbot: QtBot, qtmodeltester, launch: Launch,  # noqa: ANN001
                                            with_podcast: None) -> None:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 3)
    qtmodeltester.check(window.items_model)
    qtmodeltester.check(window.sidebar_model)
