"""Hostile show notes and messages in the GUI: nothing remote or local is loaded, nothing active survives."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from earmark.core.models import Item
from earmark.gui.views.detail import DetailPane
from earmark.gui.views.transcript_pane import TranscriptPane
from helpers.feed_server import FeedServer


class SpyPane(DetailPane):
    """The detail pane, noting every resource the document asks for and what it got."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, object]] = []
        super().__init__()

    def loadResource(self, type_: int, name: QUrl | str) -> object:
        given = super().loadResource(type_, name)
        self.asked.append((name.toString() if isinstance(name, QUrl) else str(name), given))
        return given


def hostile_notes(server: FeedServer, local_image: Path) -> str:
    remote = server.url("/tracker")
    return (
        f'<p>Notes <img src="{remote}/pixel.png" onerror="steal()"> <img src="{local_image.as_uri()}">'
        f'<img src="{local_image}"> <img src="pixel.png"></p>'
        f'<link rel="stylesheet" href="{remote}/style.css"><style>@import url({remote}/import.css); '
        f"p {{ background: url({remote}/bg.png) }}</style>"
        f'<p style="background-image: url({remote}/inline.png)" background="{remote}/attr.png">styled</p>'
        f'<iframe src="{remote}/frame.html"></iframe><script src="{remote}/script.js">steal()</script>'
        f'<object data="{remote}/object.swf"></object><embed src="{remote}/embed.swf">'
        f'<video poster="{remote}/poster.png" src="{remote}/video.mp4"></video>'
        f'<table background="{remote}/table.png"><tr><td>cell</td></tr></table>'
        f'<a href="javascript:steal()">js link</a> <a href="file:///etc/passwd">file link</a>'
        f'<svg><image href="{remote}/svg.png"/></svg><form action="{remote}/form"><input name="q"></form>'
    )


def test_the_detail_pane_loads_nothing_remote_or_local(qtbot: QtBot, tmp_path: Path) -> None:
    local_image = tmp_path / "local.png"
    image = QImage(4, 4, QImage.Format.Format_RGB32)
    image.fill(0xFF0000)
    assert image.save(str(local_image))
    with FeedServer(tmp_path) as server:
        pane = SpyPane()
        qtbot.addWidget(pane)
        pane.resize(500, 400)
        pane.show()
        for url in (None, "https://example.com/ep/1", "file:///home/user/notes/"):
            notes = hostile_notes(server, local_image)
            pane.show_item(Item(id=1, kind="episode", title="<img src=x onerror=steal()>Hostile", source_id=1,
                                source="Cast", url=url, enclosure_url=None, published=None, duration=None,
                                position=0.0, played=False, description=notes))
            pane.grab()  # lays the document out and paints it: every image is asked for now
            html = pane.toHtml()
            notes_html = html.split("</h2>", 1)[1]  # the title is shown as text (escaped), the notes as markup
            assert "steal" not in notes_html and "javascript" not in html and "file:" not in html
            assert "<script" not in html and "iframe" not in html and "@import" not in html and "url(" not in html
            assert pane.toPlainText().startswith("<img src=x onerror=steal()>Hostile")
            assert "cell" in pane.toPlainText()
        assert server.requests == [], "the pane fetched something"
        # Only images are asked for, and each gets the same blank pixel (nothing read from the disk or the web).
        assert pane.asked and all(isinstance(given, QImage) and given.size().width() == 1 for _, given in pane.asked)


def test_a_transcript_error_quoting_markup_is_shown_as_text(qtbot: QtBot) -> None:
    pane = TranscriptPane()
    qtbot.addWidget(pane)
    message = 'https://cdn.example/<img src="file:///etc/hosts"><b>x</b>.vtt answered with HTTP error 404 (Not Found).'
    pane.show_message(1, message, can_retry=True)
    status = pane.findChild(QLabel, "transcriptStatus")
    assert status is not None and status.text() == message
    assert status.textFormat() == status.textFormat().PlainText


def test_a_local_image_named_in_notes_is_not_read_from_the_disk(qtbot: QtBot, tmp_path: Path) -> None:
    # Given no resource, Qt's image handler loads the name from the disk itself: a 300x200 picture named by a
    # feed's notes (<img src="/home/me/photo.png">, kept by sanitize when the item has no page to resolve it
    # against) was read and shown. Found by the robustness suite; now the pane gives every image a blank pixel.
    picture = tmp_path / "photo.png"
    image = QImage(300, 200, QImage.Format.Format_RGB32)
    image.fill(0x00FF00)
    assert image.save(str(picture))
    pane = SpyPane()
    qtbot.addWidget(pane)
    pane.resize(600, 400)
    heights = {}
    for name, src in (("missing", str(tmp_path / "missing.png")), ("path", str(picture)),
                      ("uri", picture.as_uri())):
        pane.setHtml(f'<p><img src="{src}"></p>')
        pane.grab()
        heights[name] = pane.document().size().height()
    assert heights["path"] == heights["uri"] == heights["missing"] < 100, heights
