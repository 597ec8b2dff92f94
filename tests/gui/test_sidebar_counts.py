"""The sidebar's counts change where they are: a person's highlighted row and the headings they closed stay, and a
screen reader sees no rows go and come back; only new rows (a new tag) make the sidebar anew, and then what the
person closed stays closed."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item
from earmark.gui.views.tag_editor import TagEditor
from helpers.gui import Launch
from helpers.journeys import (
    click_row,
    click_sidebar,
    count_of,
    highlighted_row,
    press,
    sidebar,
    sidebar_row,
    visible_dialog,
    wait_entry_listed,
)


def test_counts_change_in_place_and_closed_headings_stay_closed(qtbot: QtBot, launch: Launch, sample: None,
                                                                 library_path: Path) -> None:
    window = launch().window
    tree = sidebar(window)
    click_sidebar(qtbot, window, "Podcasts")
    qtbot.waitUntil(lambda: highlighted_row(window).startswith("Podcasts ("))
    press(qtbot, Qt.Key.Key_Minus)  # closes the heading (Left skips back in the episode playing)
    assert not tree.isExpanded(sidebar_row(window, "Podcasts"))
    click_sidebar(qtbot, window, "Articles")
    wait_entry_listed(qtbot, window)
    archived = count_of(str(sidebar_row(window, "Archive").data()))
    gone: list[str] = []
    model = tree.model()
    model.rowsAboutToBeRemoved.connect(lambda *_: gone.append("rows removed"))
    model.modelAboutToBeReset.connect(lambda: gone.append("reset"))

    click_row(qtbot, window.item_list, 0)
    press(qtbot, Qt.Key.Key_A)  # archive the article
    qtbot.waitUntil(lambda: count_of(str(sidebar_row(window, "Archive").data())) == archived + 1, timeout=10_000)
    assert gone == []
    assert highlighted_row(window).startswith("Articles (")
    assert not tree.isExpanded(sidebar_row(window, "Podcasts"))

    # A tag no item had: a new row, so the sidebar is made anew; Podcasts stays closed, the rest opens.
    click_row(qtbot, window.item_list, 0)
    press(qtbot, Qt.Key.Key_T)
    qtbot.waitUntil(lambda: visible_dialog(TagEditor) is not None)
    editor = visible_dialog(TagEditor)
    assert isinstance(editor, TagEditor)
    qtbot.keyClicks(editor.field, "brand new tag")
    editor.field.completer().popup().hide()  # no tag completes it; an offscreen popup may linger
    editor.accept()  # Return in the field: see test_tag_editor_accepts_with_return
    chosen = window.selection.selected_item_ids()
    qtbot.waitUntil(lambda: "brand new tag" in get_item(open_library(library_path), chosen[0]).tags)
    qtbot.waitUntil(lambda: "reset" in gone, timeout=10_000)
    qtbot.waitUntil(lambda: str(sidebar_row(window, "brand new tag").data()) == "brand new tag (1)", timeout=10_000)
    assert tree.isExpanded(sidebar_row(window, "Tags"))
    assert tree.isExpanded(sidebar_row(window, "Articles"))
    assert not tree.isExpanded(sidebar_row(window, "Podcasts"))

    window.activateWindow()  # the tag dialog had the focus
    qtbot.waitUntil(window.isActiveWindow)
    click_sidebar(qtbot, window, "Podcasts")
    qtbot.waitUntil(tree.hasFocus)
    press(qtbot, Qt.Key.Key_Plus)  # opens it again
    assert tree.isExpanded(sidebar_row(window, "Podcasts"))
