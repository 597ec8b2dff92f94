"""Adding podcasts as people do: typing an address into Add Podcast (Ctrl+N), links that sites produce
(podcast:, itpc:, to feeds served over plain http), and importing a subscription list; each outcome is read where
a person reads it (the sidebar, the dialog's title, icon and sentence)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox
from pytestqt.qtbot import QtBot

from earmark.core.db.backups import backup_counts, list_backups
from earmark.gui.mainwindow.library.backups import START_DELAY_MS
from earmark.gui.views.add_podcast import AddPodcastDialog
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import (
    answer,
    click_sidebar,
    highlighted_row,
    listed_titles,
    message_box,
    press,
    sidebar_texts,
    type_text,
    visible_dialog,
    wait_rows,
)

CTRL = Qt.KeyboardModifier.ControlModifier
FEED_MS = 15_000
IMPORT_MS = 30_000  # an import runs in a child process: its start-up is part of the wait


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def episodes(count: int) -> list[dict[str, str]]:
    return [{"title": f"Episode {n}", "guid": f"e-{n}", "enclosure": f"https://example.com/{n}.mp3"}
            for n in range(count)]


def open_add_podcast(qtbot: QtBot) -> AddPodcastDialog:
    """Ctrl+N: Add Podcast, its box with the keyboard."""
    press(qtbot, Qt.Key.Key_N, CTRL)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), AddPodcastDialog))
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, AddPodcastDialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.field)
    return dialog


def add_podcast(qtbot: QtBot, window: QMainWindow, address: str) -> AddPodcastDialog:
    """Ctrl+N, type ``address`` into the dialog, Enter."""
    dialog = open_add_podcast(qtbot)
    type_text(qtbot, address)
    press(qtbot, Qt.Key.Key_Return)
    return dialog


def said(qtbot: QtBot, dialog: AddPodcastDialog, words: str) -> str:
    """The sentence under the box, once it holds ``words``."""
    qtbot.waitUntil(lambda: words in dialog.message.text(), timeout=FEED_MS)
    assert dialog.message.isVisible()
    return dialog.message.text()


def test_an_address_earmark_cannot_read_is_said_beside_it(qtbot: QtBot, launch: Launch) -> None:
    window = launch().window
    dialog = add_podcast(qtbot, window, "ftp://example.com/feed.xml")
    assert "only http, https and local files are supported" in said(qtbot, dialog, "cannot read")
    assert "There is no file" not in dialog.message.text()
    assert dialog.isVisible() and dialog.field.selectedText() == "ftp://example.com/feed.xml"


def test_an_address_that_could_not_be_read_stays_to_be_put_right(qtbot: QtBot, launch: Launch,
                                                                  server: FeedServer) -> None:
    """The typed address is not lost with the error: it stays in the box, selected, the sentence beside it; closed,
    Ctrl+N brings it back."""
    url = server.serve_body("/show.xml", rss("Mended Show", episodes(2)))
    window = launch().window
    typo = url.replace("/show.xml", "/shwo.xml")
    dialog = add_podcast(qtbot, window, typo)  # the server answers 404
    assert "HTTP error 404" in said(qtbot, dialog, "404")
    assert QApplication.focusWidget() is dialog.field and dialog.field.selectedText() == typo
    assert dialog.field.width() >= dialog.field.fontMetrics().horizontalAdvance(typo)  # the whole address shows
    press(qtbot, Qt.Key.Key_Escape)  # closed: the address comes back with the next Ctrl+N
    qtbot.waitUntil(lambda: visible_dialog(AddPodcastDialog) is None)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    dialog = open_add_podcast(qtbot)
    assert dialog.field.text() == typo and dialog.field.selectedText() == typo
    press(qtbot, Qt.Key.Key_End)
    for _letter in "shwo.xml":
        press(qtbot, Qt.Key.Key_Backspace)
    type_text(qtbot, "show.xml")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any(row.startswith("Mended Show (") for row in sidebar_texts(window)), timeout=FEED_MS)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    dialog = open_add_podcast(qtbot)  # subscribed: the next podcast starts from an empty box
    assert dialog.field.text() == ""
    press(qtbot, Qt.Key.Key_Escape)


@pytest.mark.parametrize("link", ["podcast://{host}/show.xml", "itpc://{host}/show.xml",
                                  "podcast:{quoted}", "podcast://http://{host}/show.xml"])
def test_a_podcast_link_to_a_feed_served_over_plain_http_subscribes(qtbot: QtBot, launch: Launch,
                                                                    server: FeedServer, link: str) -> None:
    url = server.serve_body("/show.xml", rss("Plain Show", episodes(2)))
    host = url.removeprefix("http://").split("/")[0]
    window = launch().window
    add_podcast(qtbot, window, link.format(host=host, quoted=quote(url, safe="")))
    qtbot.waitUntil(lambda: any(row.startswith("Plain Show (") for row in sidebar_texts(window)), timeout=FEED_MS)
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def import_file(qtbot: QtBot, window: QMainWindow, opml: Path) -> None:
    """Open ``opml`` with Earmark (as xdg-open of the file hands it over) and click Subscribe."""
    window.open_arguments([str(opml)])
    question = message_box(qtbot)
    assert question.text().startswith("Subscribe to the "), question.text()
    answer(qtbot, question, "Subscribe")


def subscription_list(path: Path, *outlines: str) -> Path:
    path.write_text('<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>'
                    f'{"".join(outlines)}</body></opml>', encoding="utf-8")
    return path


def test_an_import_says_what_it_left_out_without_a_warning_sign(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                               tmp_path: Path) -> None:
    one = server.serve_body("/one.xml", rss("One", episodes(1)))
    opml = subscription_list(tmp_path / "mine.opml", f'<outline type="rss" text="One" xmlUrl="{one}"/>',
                             '<outline type="rss" text="Homepage only" htmlUrl="https://example.com/"/>')
    window = launch().window
    import_file(qtbot, window, opml)
    box = message_box(qtbot, IMPORT_MS)
    assert box.windowTitle() == "Notes from the import"
    assert "Homepage only" in box.text() and "no feed address" in box.text(), box.text()
    assert "already subscribed" not in box.text()  # the counts are the status bar's
    assert box.icon() == QMessageBox.Icon.Information


def test_an_import_that_left_nothing_out_asks_nothing_more(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                          tmp_path: Path) -> None:
    one = server.serve_body("/one.xml", rss("One", episodes(2)))
    two = server.serve_body("/two.xml", rss("Two", episodes(1)))
    window = launch().window
    add_podcast(qtbot, window, one)
    qtbot.waitUntil(lambda: any(row.startswith("One (") for row in sidebar_texts(window)), timeout=FEED_MS)
    opml = subscription_list(tmp_path / "mine.opml", f'<outline type="rss" text="One" xmlUrl="{one}"/>',
                             f'<outline type="rss" text="Two" xmlUrl="{two}"/>')
    import_file(qtbot, window, opml)
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Imported:"), timeout=IMPORT_MS)
    assert window.statusBar().currentMessage() == "Imported: 2 of 2 feeds checked (1 subscribed already), 1 new item."
    qtbot.wait(300)  # a box would follow the status bar's sentence at once
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def test_a_failed_import_is_titled_for_the_import(qtbot: QtBot, launch: Launch, tmp_path: Path) -> None:
    opml = tmp_path / "broken.opml"
    opml.write_text("this is not a subscription list", encoding="utf-8")
    window = launch().window
    window.feeds.import_opml(opml)  # File ▸ Import Subscriptions, the file chosen
    box = message_box(qtbot, IMPORT_MS)
    assert box.windowTitle() == "Import failed", (box.windowTitle(), box.text())
    assert box.icon() == QMessageBox.Icon.Warning


def test_a_link_opened_from_outside_asks_once_then_selects_the_new_podcast(qtbot: QtBot, launch: Launch,
                                                                          server: FeedServer) -> None:
    url = server.serve_body("/show.xml", rss("Linked Show", episodes(3)))
    window = launch().window
    window.open_arguments([f"podcast://{url.removeprefix('http://')}"])  # xdg-open of a web page's link
    question = message_box(qtbot)
    assert question.windowTitle() == "Subscribe"
    assert question.text().startswith("Subscribe to “Linked Show”? It has 3 episodes.")
    assert not any(row.startswith("Linked Show") for row in sidebar_texts(window))  # nothing before the answer
    answer(qtbot, question, "Subscribe")
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("Linked Show ("), timeout=FEED_MS)
    wait_rows(qtbot, window, 3)
    assert sorted(listed_titles(window)) == ["Episode 0", "Episode 1", "Episode 2"]


def test_a_link_opened_from_outside_and_cancelled_adds_nothing(qtbot: QtBot, launch: Launch,
                                                              server: FeedServer) -> None:
    url = server.serve_body("/show.xml", rss("Unwanted Show", episodes(1)))
    window = launch().window
    window.open_arguments([url])
    answer(qtbot, message_box(qtbot), "Cancel")
    qtbot.wait(300)
    assert not any(row.startswith("Unwanted Show") for row in sidebar_texts(window))


def test_a_new_librarys_first_import_is_backed_up_the_same_day(qtbot: QtBot, launch: Launch, server: FeedServer,
                                                               tmp_path: Path, library_path: Path) -> None:
    one = server.serve_body("/one.xml", rss("One", episodes(3)))
    window = launch().window
    qtbot.wait(START_DELAY_MS + 1000)  # when the window checks the day's backup
    assert list_backups(library_path) == []  # an empty library is not copied: that copy would stand for the day
    import_file(qtbot, window, subscription_list(tmp_path / "mine.opml",
                                                 f'<outline type="rss" text="One" xmlUrl="{one}"/>'))
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Imported:"), timeout=IMPORT_MS)
    qtbot.waitUntil(lambda: list_backups(library_path) != [], timeout=10_000)  # File ▸ Restore from Backup… lists it
    [daily] = list_backups(library_path)
    assert daily.kind == "daily"
    assert backup_counts(daily.path) == {"items": 3, "notes": 0, "sources": 1}


def test_the_same_podcast_by_another_address_is_selected_not_added_again(qtbot: QtBot, launch: Launch,
                                                                         server: FeedServer) -> None:
    """Its address written otherwise (known at once), then a mirror whose feed carries the same podcast:guid
    (known once read): each time the podcast there is is selected, and the status bar says it was there."""
    body = rss("Twice Show", episodes(3)).replace(
        b"<channel>", b'<channel><podcast:guid xmlns:podcast="https://podcastindex.org/namespace/1.0">'
                      b"5c9a1e24-twice</podcast:guid>")
    url = server.serve_body("/show.xml", body)
    window = launch().window
    add_podcast(qtbot, window, url)
    qtbot.waitUntil(lambda: any(row.startswith("Twice Show (") for row in sidebar_texts(window)), timeout=FEED_MS)
    for again in (url.replace("http://", "HTTP://") + "/", server.serve_body("/mirror.xml", body)):
        click_sidebar(qtbot, window, sidebar_texts(window)[0])  # somewhere else
        qtbot.waitUntil(lambda: not highlighted_row(window).startswith("Twice Show"))
        qtbot.waitUntil(window.isActiveWindow)
        add_podcast(qtbot, window, again)
        qtbot.waitUntil(lambda: highlighted_row(window).startswith("Twice Show ("), timeout=FEED_MS)
        assert window.statusBar().currentMessage().startswith("Already subscribed to Twice Show"), (
            window.statusBar().currentMessage())
        wait_rows(qtbot, window, 3)
        assert sorted(listed_titles(window)) == ["Episode 0", "Episode 1", "Episode 2"]
        assert [row for row in sidebar_texts(window) if row.startswith("Twice Show")] == ["Twice Show (3)"]
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def test_a_link_from_outside_to_a_podcast_there_selects_it_without_asking(qtbot: QtBot, launch: Launch,
                                                                          server: FeedServer) -> None:
    url = server.serve_body("/show.xml", rss("Linked Twice", episodes(2)))
    window = launch().window
    add_podcast(qtbot, window, url)
    qtbot.waitUntil(lambda: any(row.startswith("Linked Twice (") for row in sidebar_texts(window)), timeout=FEED_MS)
    click_sidebar(qtbot, window, sidebar_texts(window)[0])
    window.open_arguments([f"podcast://{url.removeprefix('http://')}"])  # a web page's link to it, over https
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("Linked Twice ("), timeout=FEED_MS)
    assert window.statusBar().currentMessage() == "Already subscribed to Linked Twice."
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
    assert [row for row in sidebar_texts(window) if row.startswith("Linked Twice")] == ["Linked Twice (2)"]


def test_an_address_that_had_moved_is_remembered_as_the_podcasts(qtbot: QtBot, launch: Launch,
                                                                 server: FeedServer) -> None:
    """Typed as people type it (no scheme), the address answers with a permanent redirect: the podcast is
    subscribed at its new address and known by the one read, so pasting it later (with its scheme) selects it
    without reading it (its server has since forgotten the redirect)."""
    server.serve_body("/new.xml", rss("Moved Show", episodes(2)))
    old = server.serve_redirect("/old.xml", "/new.xml", 301).removeprefix("http://")
    window = launch().window
    add_podcast(qtbot, window, old)
    qtbot.waitUntil(lambda: any(row.startswith("Moved Show (") for row in sidebar_texts(window)), timeout=FEED_MS)
    server.serve_status("/old.xml", 404)
    click_sidebar(qtbot, window, sidebar_texts(window)[0])  # somewhere else
    qtbot.waitUntil(lambda: not highlighted_row(window).startswith("Moved Show"))
    qtbot.waitUntil(window.isActiveWindow)
    add_podcast(qtbot, window, f"http://{old}")
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("Moved Show ("), timeout=FEED_MS)
    assert window.statusBar().currentMessage() == "Already subscribed to Moved Show."
    assert [row for row in sidebar_texts(window) if row.startswith("Moved Show")] == ["Moved Show (2)"]
    assert visible_dialog(AddPodcastDialog) is None
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
