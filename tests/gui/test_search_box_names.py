"""Typing a word in the real search box finds the technical names it is part of, with the name marked in the Match
column, on the sample library."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from earmark.core.db.search import Snippet
from earmark.gui.mainwindow.window import MainWindow
from earmark.gui.models.items import COL_MATCH, COL_TITLE, SnippetRole
from helpers.gui import Launch

SAMPLE_ITEMS = 54


def titles(window: MainWindow) -> list[str]:
    model = window.items_model
    return [model.index(row, COL_TITLE).data() for row in range(model.rowCount())]


def test_typing_a_word_finds_the_names_it_is_part_of(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    qtbot.waitUntil(lambda: window.items_model.rowCount() == SAMPLE_ITEMS)
    qtbot.keyClick(window.item_list, Qt.Key.Key_Slash)
    assert QApplication.focusWidget() is window.search
    qtbot.keyClicks(window.search, "autograd")
    qtbot.waitUntil(lambda: len(titles(window)) == 8)
    assert titles(window)[:2] == ["Compiled autograd", "AOTAutograd"]
    snippet = window.items_model.index(1, COL_MATCH).data(SnippetRole)
    assert isinstance(snippet, Snippet) and snippet.field == "title" and snippet.marked() == "[AOTAutograd]"
    window.search.clear()
    qtbot.keyClicks(window.search, "accesso")  # as you type: a prefix inside a name
    qtbot.waitUntil(lambda: titles(window) == ["TensorAccessor"])
    window.search.clear()
    qtbot.keyClicks(window.search, "dynamo")
    qtbot.waitUntil(lambda: "torchdynamo" in titles(window))
    assert "Dynamo - VariableTracker" in titles(window)
