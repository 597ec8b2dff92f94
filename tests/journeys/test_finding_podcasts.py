"""Finding a podcast as a newcomer does: Ctrl+N, its name, Enter; the results as each directory answers (one
that is down is a sentence while the others show), each with its podcast's cover (its initials until it comes),
Down and Enter to preview it (the cover beside its title), Subscribe, and there it is, selected. A website's
address leads to its feed; an address that cannot be read stays in the box, selected, with its sentence beside
it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from earmark.gui.models.directory_results import RESULT_COVER
from earmark.gui.views.add_podcast import AddPodcastDialog
from earmark.gui.views.directory_key import PodcastIndexKeyDialog
from earmark.gui.views.podcast_preview import PREVIEW_COVER
from helpers.covers import SAMPLE_COVER, cover_at, near, painted_icon, placeholder_at, quadrant, shown
from helpers.directory_server import KEY, SECRET, DirectoryServer, Listing
from helpers.feed_server import FeedServer, Route, rss
from helpers.gui import Launch
from helpers.journeys import (
    click_row,
    focused,
    highlighted_row,
    press,
    sidebar_texts,
    type_text,
    visible_dialog,
    wait_rows,
)

CTRL = Qt.KeyboardModifier.ControlModifier
FEED_MS = 15_000


def episodes(count: int) -> list[dict[str, str]]:
    return [{"title": f"Episode {n}", "guid": f"e-{n}", "enclosure": f"https://example.com/{n}.mp3",
             "pubDate": f"Mon, {n + 1:02d} Jan 2024 10:00:00 +0000"} for n in range(count)]


@pytest.fixture
def feeds(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as server:
        yield server


@pytest.fixture
def directories(feeds: FeedServer, library_path: Path) -> Iterator[DirectoryServer]:
    torch = feeds.serve_body("/torch.xml", rss("PyTorch Developer Podcast", episodes(12)))
    image = feeds.route("/torch.png", Route(body=SAMPLE_COVER.read_bytes(), content_type="image/png"))
    catalogue = [Listing("PyTorch Developer Podcast", torch, author="Edward Yang", episodes=12, itunes_id=7,
                         image=image),
                 Listing("PyTorch Lightning Talks", feeds.url("/lightning.xml"), only_in=("gpodder",))]
    with DirectoryServer(catalogue) as server:
        db = open_library(library_path)
        for key, value in {**server.settings(), "directory.gpodder": True}.items():
            set_setting(db, key, value)
        db.close()
        yield server


def open_add_podcast(qtbot: QtBot) -> AddPodcastDialog:
    """Ctrl+N: the dialog, its box with the keyboard."""
    press(qtbot, Qt.Key.Key_N, CTRL)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), AddPodcastDialog))
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, AddPodcastDialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: focused() is dialog.field)
    return dialog


def message(dialog: AddPodcastDialog) -> str:
    label = dialog.findChild(QLabel, "findMessage")
    assert label is not None and label.isVisible()
    return label.text()


def result_titles(dialog: AddPodcastDialog) -> list[str]:
    return [str(dialog.model.index(row).data()).split("\n")[0] for row in range(dialog.model.rowCount())]


def shows_covers(qtbot: QtBot, dialog: AddPodcastDialog) -> None:
    """The first result's cover is painted beside it once fetched; the second, which has none, shows its
    initials on its colour."""
    region = quadrant(RESULT_COVER)
    cover = cover_at(SAMPLE_COVER, RESULT_COVER, region)
    assert not near(cover, placeholder_at("PyTorch Developer Podcast", RESULT_COVER, False, region))
    qtbot.waitUntil(lambda: near(painted_icon(dialog.results, dialog.model.index(0), RESULT_COVER), cover),
                    timeout=FEED_MS)
    initials = placeholder_at("PyTorch Lightning Talks", RESULT_COVER, False, region)
    assert near(painted_icon(dialog.results, dialog.model.index(1), RESULT_COVER), initials)


def test_a_name_found_previewed_and_subscribed_is_selected(qtbot: QtBot, launch: Launch,
                                                           directories: DirectoryServer) -> None:
    window = launch().window
    dialog = open_add_podcast(qtbot)
    qtbot.waitUntil(lambda: "Apple Podcasts and gpodder.net" in dialog.services.text())
    assert directories.asked == []  # nothing leaves the machine before the person searches
    type_text(qtbot, "pytorch")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: message(dialog) == "2 podcasts found for “pytorch”.", timeout=FEED_MS)  # both answered
    assert result_titles(dialog) == ["PyTorch Developer Podcast", "PyTorch Lightning Talks"]
    first = str(dialog.model.index(0).data())  # named by both directories, listed once
    assert "Edward Yang · 12 episodes · latest 2024-05-13 · " in first
    assert "Apple Podcasts" in first and "gpodder.net" in first
    shows_covers(qtbot, dialog)
    press(qtbot, Qt.Key.Key_Down)  # into the results
    assert focused() is dialog.results and dialog.results.accessibleName() == "Podcasts found"
    press(qtbot, Qt.Key.Key_Return)  # preview
    qtbot.waitUntil(lambda: dialog.preview.episodes.rowCount() == 10, timeout=FEED_MS)
    assert dialog.preview.isVisible() and dialog.preview.title.text() == "PyTorch Developer Podcast"
    assert dialog.preview.episodes.stringList()[0] == "2024-01-12  Episode 11"  # the newest first
    assert "12 episodes in its feed" in dialog.preview.status.text()
    preview_cover = cover_at(SAMPLE_COVER, PREVIEW_COVER, quadrant(PREVIEW_COVER))  # beside its title
    qtbot.waitUntil(lambda: near(shown(dialog.preview.cover, quadrant(PREVIEW_COVER)), preview_cover),
                    timeout=FEED_MS)
    press(qtbot, Qt.Key.Key_Escape)  # back to the results, not out of the dialog
    assert dialog.isVisible() and not dialog.preview.isVisible() and focused() is dialog.results
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.preview.subscribe_button.isEnabled(), timeout=FEED_MS)
    assert focused() is dialog.preview.subscribe_button
    press(qtbot, Qt.Key.Key_Return)  # Subscribe
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("PyTorch Developer Podcast ("), timeout=FEED_MS)
    assert visible_dialog(AddPodcastDialog) is None
    wait_rows(qtbot, window, 12)

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    dialog = open_add_podcast(qtbot)  # the same podcast again: it says it is subscribed
    type_text(qtbot, "pytorch developer")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "found" in message(dialog) and "Asking" not in message(dialog), timeout=FEED_MS)
    assert str(dialog.model.index(0).data()).endswith(" · subscribed")
    click_row(qtbot, dialog.results, 0)
    qtbot.waitUntil(lambda: "subscribed to it already" in dialog.preview.status.text(), timeout=FEED_MS)
    assert dialog.preview.subscribe_button.text().replace("&", "") == "Show in Library"
    press(qtbot, Qt.Key.Key_Escape)
    press(qtbot, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: visible_dialog(AddPodcastDialog) is None)
    assert sum(row.startswith("PyTorch Developer Podcast") for row in sidebar_texts(window)) == 1


def test_a_directory_that_is_down_is_a_sentence_while_the_others_show(qtbot: QtBot, launch: Launch,
                                                                      directories: DirectoryServer,
                                                                      library_path: Path) -> None:
    db = open_library(library_path)
    set_setting(db, "directory.fyyd", True)
    db.close()
    directories.down("apple")
    directories.slow("fyyd", 6)
    launch()
    dialog = open_add_podcast(qtbot)
    qtbot.waitUntil(lambda: "Apple Podcasts, fyyd and gpodder.net" in dialog.services.text())
    type_text(qtbot, "pytorch")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: message(dialog) == "2 podcasts found for “pytorch”. fyyd is slow to answer… Apple "
                                              "Podcasts answered with HTTP error 503 (Service Unavailable).",
                    timeout=FEED_MS)
    assert result_titles(dialog) == ["PyTorch Developer Podcast", "PyTorch Lightning Talks"]  # gpodder.net's
    qtbot.waitUntil(lambda: "slow" not in message(dialog), timeout=FEED_MS)  # fyyd answers in the end
    assert message(dialog) == ("2 podcasts found for “pytorch”. Apple Podcasts answered with HTTP error 503 "
                               "(Service Unavailable).")
    assert "fyyd" in str(dialog.model.index(0).data())


def test_a_popular_list_is_chosen_by_keys(qtbot: QtBot, launch: Launch, directories: DirectoryServer) -> None:
    launch()
    dialog = open_add_podcast(qtbot)
    qtbot.waitUntil(lambda: dialog.popular.count() > 1)
    assert directories.asked == []
    labels = [dialog.popular.itemText(i) for i in range(dialog.popular.count())]
    assert labels[:3] == ["Choose a list…", "Apple Podcasts: All podcasts", "Apple Podcasts: Arts"]
    assert "Apple Podcasts: Technology" in labels and "gpodder.net: All podcasts" in labels
    press(qtbot, Qt.Key.Key_P, Qt.KeyboardModifier.AltModifier)  # &Popular
    assert focused() is dialog.popular and dialog.popular.accessibleName() == "Popular podcasts"
    press(qtbot, Qt.Key.Key_Down)  # Apple's chart of every podcast
    qtbot.waitUntil(lambda: message(dialog) == "1 podcast found in the list.", timeout=FEED_MS)
    assert result_titles(dialog) == ["PyTorch Developer Podcast"]  # looked up by its id: its feed is known
    assert dialog.model.results[0].feed_url.endswith("/torch.xml")
    assert [a.path for a in directories.asked] == ["/us/rss/toppodcasts/limit=50/genre=26/json", "/lookup"]


def test_a_website_leads_to_its_feed(qtbot: QtBot, launch: Launch, feeds: FeedServer) -> None:
    feeds.serve_body("/feed.xml", rss("Website Show", episodes(3)))
    site = feeds.serve_body("/show.html", b'<!doctype html><html><head><link rel="alternate" '
                                          b'type="application/rss+xml" href="feed.xml"></head></html>', "text/html")
    window = launch().window
    open_add_podcast(qtbot)
    type_text(qtbot, site.removeprefix("http://"))  # as pasted from a browser's address bar, without http://
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("Website Show ("), timeout=FEED_MS)
    wait_rows(qtbot, window, 3)


def test_a_website_naming_several_feeds_lists_them_to_choose_from(qtbot: QtBot, launch: Launch,
                                                                   feeds: FeedServer) -> None:
    feeds.serve_body("/audio.xml", rss("Show in MP3", episodes(2)))
    feeds.serve_body("/video.xml", rss("Show in Video", episodes(4)))
    site = feeds.serve_body("/", b'<!doctype html><html><head>'
                                 b'<link rel="alternate" type="application/rss+xml" title="Audio" href="/audio.xml">'
                                 b'<link rel="alternate" type="application/rss+xml" title="Video" href="/video.xml">'
                                 b'</head></html>', "text/html")
    window = launch().window
    dialog = open_add_podcast(qtbot)
    type_text(qtbot, site)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: message(dialog) == f"{site} names 2 feeds: choose one (Down, then Enter).",
                    timeout=FEED_MS)
    assert result_titles(dialog) == ["Audio", "Video"]
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Down)
    press(qtbot, Qt.Key.Key_Return)  # previews the video feed
    qtbot.waitUntil(lambda: dialog.preview.subscribe_button.isEnabled(), timeout=FEED_MS)
    assert dialog.preview.title.text() == "Show in Video"
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("Show in Video ("), timeout=FEED_MS)
    assert not any(row.startswith("Show in MP3") for row in sidebar_texts(window))


def test_an_address_that_fails_stays_selected_with_its_sentence(qtbot: QtBot, launch: Launch,
                                                                 feeds: FeedServer) -> None:
    plain = feeds.serve_body("/plain.html", b"<!doctype html><html><body>No feed here</body></html>", "text/html")
    launch()
    dialog = open_add_podcast(qtbot)
    type_text(qtbot, plain)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "is a web page that names no feed" in message(dialog), timeout=FEED_MS)
    field = focused()
    assert isinstance(field, QLineEdit) and field is dialog.field and dialog.isVisible()
    assert field.selectedText() == plain  # typing replaces it; End puts it right


def test_podcast_index_is_added_with_the_persons_own_key(qtbot: QtBot, launch: Launch, keyring_bus: str,
                                                         directories: DirectoryServer) -> None:
    launch()
    dialog = open_add_podcast(qtbot)
    qtbot.waitUntil(lambda: "Apple Podcasts and gpodder.net" in dialog.services.text())
    press(qtbot, Qt.Key.Key_K, Qt.KeyboardModifier.AltModifier)  # Podcast Index &Key…
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), PodcastIndexKeyDialog))
    ask = QApplication.activeModalWidget()
    ask.activateWindow()
    qtbot.waitUntil(lambda: focused() is ask.key_edit)
    type_text(qtbot, KEY)
    press(qtbot, Qt.Key.Key_Tab)
    type_text(qtbot, SECRET)
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Apple Podcasts, Podcast Index and gpodder.net" in dialog.services.text(),
                    timeout=FEED_MS)
    assert message(dialog) == "Podcast Index's key is kept: searches ask it too."
    dialog.activateWindow()  # the window under the closed key dialog has the keyboard again (offscreen: given it)
    qtbot.waitUntil(lambda: focused() is dialog.field)  # back in the box
    type_text(qtbot, "pytorch")
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: message(dialog) == "2 podcasts found for “pytorch”.", timeout=FEED_MS)
    [signed] = [a for a in directories.asked if a.directory == "podcastindex"]
    assert signed.path == "/search/byterm" and signed.headers["X-Auth-Key"] == KEY  # accepted: its answer counted
    assert "Podcast Index" in str(dialog.model.index(0).data())
