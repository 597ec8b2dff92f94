"""The detail pane: sanitized notes, and a refresh of the shown item keeps the reader's place."""

from __future__ import annotations

from dataclasses import replace

from pytestqt.qtbot import QtBot

from earmark.core.models import Item
from earmark.gui.views.detail import DetailPane

LONG_NOTES = "".join(f"<p>Paragraph {n} about graph capture and lowering.</p>" for n in range(200))


def item(item_id: int, description: str) -> Item:
    return Item(id=item_id, kind="episode", title=f"Episode {item_id}", source_id=1, source="Cast", url=None,
                enclosure_url=None, published="2024-05-01T00:00:00+00:00", duration=600.0, position=0.0,
                played=False, description=description)


def test_notes_are_sanitized(qtbot: QtBot) -> None:
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show_item(item(1, "<p onclick='x()'>Hello <script>alert(1)</script><a href='javascript:bad()'>link</a></p>"))
    html = pane.toHtml()
    assert "Hello" in pane.toPlainText()
    assert "alert" not in pane.toPlainText() and "javascript" not in html and "onclick" not in html


def test_a_refresh_of_the_same_item_keeps_the_scroll_position(qtbot: QtBot) -> None:
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.resize(300, 200)
    pane.show()
    first = item(1, LONG_NOTES)
    pane.show_item(first)
    bar = pane.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    middle = bar.value()
    assert middle > 0
    pane.show_item(replace(first, position=300.0))  # its progress changed while playing
    assert bar.value() == middle
    assert "5:00 left" in pane.toPlainText()
    pane.show_item(item(2, LONG_NOTES))
    assert bar.value() == 0
