"""Organising from the keyboard: search with snippets, the tag editor, favourites, sorting remembered per
view, the filter bar, smart lists and tag renames, on the sample library in the real window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit
from pytestqt.qtbot import QtBot

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.search import Snippet
from earmark.core.db.smart_lists import list_smart_lists
from earmark.core.db.tags import tag_counts
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.models.items import COL_MATCH, COL_TITLE, SnippetRole
from earmark.gui.views.tag_editor import TagEditor
from helpers.gui import Launch
from helpers.journeys import visible_dialog

SAMPLE_ITEMS = 54


def open_window(qtbot: QtBot, launch: Launch) -> MainWindow:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == SAMPLE_ITEMS)
    return window


def titles(window: MainWindow) -> list[str]:
    model = window.items_model
    return [model.index(row, COL_TITLE).data() for row in range(model.rowCount())]


def test_search_as_you_type_shows_where_each_result_matched(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = open_window(qtbot, launch)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Slash)
    assert QApplication.focusWidget() is window.search
    qtbot.keyClicks(window.search, "cuda gra")
    qtbot.waitUntil(lambda: set(titles(window)[:2]) == {"CUDA graphs", "CUDA graph trees"})  # titles rank first
    assert len(titles(window)) == 3  # and the newsletter that mentions them
    header = window.item_list.horizontalHeader()
    assert not header.isSectionHidden(COL_MATCH)
    snippet = window.items_model.index(0, COL_MATCH).data(SnippetRole)
    assert isinstance(snippet, Snippet) and snippet.field == "title"
    window.search.clear()
    qtbot.keyClicks(window.search, 'reference "counting')  # a stray quote is just a separator
    qtbot.waitUntil(lambda: "Reference counting" in titles(window))
    qtbot.keyClicks(window.search, " ((")
    qtbot.waitUntil(lambda: "Reference counting" in titles(window))
    qtbot.keyClick(window.search, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is window.item_list
    window.search.clear()
    qtbot.waitUntil(lambda: window.items_model.rowCount() == SAMPLE_ITEMS)
    assert header.isSectionHidden(COL_MATCH)


def test_tag_editor_tags_a_multi_selection_with_completion(qtbot: QtBot, launch: Launch, sample: None,
                                                           library_path: Path) -> None:
    window = open_window(qtbot, launch)
    window.item_list.setFocus()
    qtbot.keyClick(window.item_list, Qt.Key.Key_Home)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    chosen = window.selection.selected_item_ids()
    assert len(chosen) == 2
    qtbot.keyClick(window.item_list, Qt.Key.Key_T)
    qtbot.waitUntil(lambda: visible_dialog(TagEditor) is not None)
    editor = visible_dialog(TagEditor)
    assert isinstance(editor, TagEditor)
    qtbot.keyClicks(editor.field, "induc")
    completer = editor.field.completer()
    assert completer.currentCompletion() == "inductor, "  # the tag, ready for the next one
    editor.field.setText(completer.currentCompletion())  # what Qt inserts when the completion is picked
    qtbot.keyClicks(editor.field, "To Revisit")
    completer.popup().hide()  # no tag completes "To Revisit"; an offscreen popup may linger
    editor.accept()  # Return in the field: see test_tag_editor_accepts_with_return
    qtbot.waitUntil(lambda: all("to revisit" in get_item(open_library(library_path), i).tags for i in chosen))
    assert all("inductor" in get_item(open_library(library_path), i).tags for i in chosen)
    qtbot.waitUntil(lambda: any(window.sidebar_model.item(r).text() == "Tags" for r in
                                range(window.sidebar_model.rowCount())))
    assert ("to revisit", 2) in tag_counts(open_library(library_path))

    assert window.selection.selected_item_ids() == chosen  # the reload after tagging kept the whole selection
    window.activateWindow()  # the dialog had the focus
    window.item_list.setFocus()
    qtbot.waitUntil(window.item_list.hasFocus)
    qtbot.keyClick(window.item_list, Qt.Key.Key_T)  # again: the shared tags are in the field; remove one
    qtbot.waitUntil(lambda: visible_dialog(TagEditor) is not None)
    editor = visible_dialog(TagEditor)
    assert isinstance(editor, TagEditor)
    assert "to revisit" in editor.field.text()
    editor.field.setText(editor.field.text().replace("to revisit", ""))
    editor.accept()
    qtbot.waitUntil(lambda: ("to revisit", 0) in tag_counts(open_library(library_path)))
    assert all("inductor" in get_item(open_library(library_path), i).tags for i in chosen)


def test_tag_editor_accepts_with_return_and_reports_the_changes(qtbot: QtBot) -> None:
    editor = TagEditor("2 items", ["inductor", "xpu"], ["meetup"], ["inductor", "meetup", "xpu", "dynamo"])
    qtbot.addWidget(editor)
    editor.open()
    assert editor.field.text() == "inductor, xpu, "
    editor.field.setText("inductor, Meetup, dynamo")
    with qtbot.waitSignal(editor.accepted):
        qtbot.keyClick(editor.field, Qt.Key.Key_Return)
    assert editor.changes() == (["inductor", "meetup", "dynamo"], ["xpu"])


def test_favourite_key_and_filter_bar(qtbot: QtBot, launch: Launch, sample: None, library_path: Path) -> None:
    window = open_window(qtbot, launch)
    window.item_list.setFocus()
    qtbot.keyClick(window.item_list, Qt.Key.Key_Home)
    first = window.selection.selected_item_ids()
    qtbot.keyClick(window.item_list, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: [i.id for i in list_items(open_library(library_path), ItemFilter(favourite=True))]
                    == first)
    window.filter_bar.favourite.setChecked(True)
    qtbot.waitUntil(lambda: window.items_model.rowCount() == 1)
    window.filter_bar.favourite.setChecked(False)
    window.filter_bar.duration_min.setValue(25)
    longest = list_items(open_library(library_path), ItemFilter(duration_min=25 * 60))
    assert 0 < len(longest) < SAMPLE_ITEMS
    qtbot.waitUntil(lambda: titles(window) == [item.title for item in longest])


def test_sorting_by_a_header_is_remembered_per_view(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = open_window(qtbot, launch)
    header = window.item_list.horizontalHeader()
    header.setSortIndicator(COL_TITLE, Qt.SortOrder.AscendingOrder)
    qtbot.waitUntil(lambda: titles(window)[:2] == sorted(titles(window), key=str.lower)[:2])
    assert window.items_model.item_filter.sort == "title"
    tag_row = window.sidebar_model.index_for(ItemFilter(tag="inductor"))
    window.sidebar_tree.setCurrentIndex(tag_row)
    qtbot.waitUntil(lambda: window.items_model.item_filter.tag == "inductor")
    assert window.items_model.item_filter.sort == "default"  # another view keeps its own order
    window.sidebar_tree.setCurrentIndex(window.sidebar_model.index_for(ItemFilter()))
    qtbot.waitUntil(lambda: window.items_model.item_filter.tag is None)
    assert window.items_model.item_filter.sort == "title"
    window.close()

    again = launch().window  # and it survives a restart
    qtbot.waitUntil(lambda: again.items_model.rowCount() == SAMPLE_ITEMS)
    qtbot.waitUntil(lambda: again.items_model.item_filter.sort == "title")


def test_save_a_search_as_a_smart_list_and_rename_a_tag(qtbot: QtBot, launch: Launch, sample: None,
                                                       library_path: Path) -> None:
    window = open_window(qtbot, launch)
    window.search.setText("inductor")
    window.filter_bar.state.setCurrentIndex(1)  # unplayed
    qtbot.waitUntil(lambda: window.items_model.item_filter.text == "inductor")
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: visible_dialog(QInputDialog) is not None)
    dialog = visible_dialog(QInputDialog)
    assert isinstance(dialog, QInputDialog)
    dialog.setTextValue("Inductor to hear")
    dialog.accept()
    qtbot.waitUntil(lambda: len(list_smart_lists(open_library(library_path))) == 1)
    [smart] = list_smart_lists(open_library(library_path))
    assert (smart.filter.text, smart.filter.state) == ("inductor", "unplayed")

    window.search.clear()
    qtbot.waitUntil(lambda: window.items_model.item_filter.text == "")
    qtbot.waitUntil(lambda: str(window.sidebar_model.index_for(smart.filter).data()).startswith("Inductor to hear"))
    window.sidebar_tree.setCurrentIndex(window.sidebar_model.index_for(smart.filter))
    qtbot.waitUntil(lambda: window.items_model.item_filter.text == "inductor")
    assert window.search.text() == "inductor"  # the smart list brings its search along

    tag_row = window.sidebar_model.index_for(ItemFilter(tag="optim"))
    window.sidebar_tree.setCurrentIndex(tag_row)
    window.activateWindow()
    window.sidebar_tree.setFocus()
    qtbot.waitUntil(window.sidebar_tree.hasFocus)
    qtbot.keyClick(window.sidebar_tree, Qt.Key.Key_F2)
    qtbot.waitUntil(lambda: visible_dialog(QInputDialog) is not None)
    rename = visible_dialog(QInputDialog)
    assert isinstance(rename, QInputDialog)
    rename.findChild(QLineEdit).setText("optimizers")
    rename.accept()
    qtbot.waitUntil(lambda: ("optimizers", 1) in tag_counts(open_library(library_path)))
