"""Keyboard only, the topic graph: the arrow keys move between nodes (Ctrl pans), + and - zoom, Ctrl+F goes to the
graph's find box, whose Enter selects the node found so that Enter then opens its item, and letters typed on the
canvas find by title instead of firing the window's single-letter shortcuts (issue 17)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from earmark.gui.mainwindow.window import MainWindow
from helpers.gui import Launch
from helpers.journeys import focused, graph_shown, press, type_text, wait_showing

CTRL = Qt.KeyboardModifier.ControlModifier


def selected_titles(window: MainWindow) -> list[str]:
    return [item.node.title for item in window.graph.panel.scene.selectedItems()]


def selected_x(window: MainWindow) -> float:
    return window.graph.panel.scene.selectedItems()[0].pos().x()


def test_arrows_move_between_nodes_and_ctrl_arrows_pan(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = graph_shown(qtbot, launch)
    view = window.graph.panel.view
    press(qtbot, Qt.Key.Key_Right)
    assert len(selected_titles(window)) == 1  # the node nearest the middle
    first, x = selected_titles(window), selected_x(window)
    press(qtbot, Qt.Key.Key_Right)
    second, right = selected_titles(window), selected_x(window)
    assert second != first and right > x
    press(qtbot, Qt.Key.Key_Left)
    assert selected_titles(window) != second and selected_x(window) < right
    first = selected_titles(window)
    for _step in range(4):
        press(qtbot, Qt.Key.Key_Plus)
    bar = view.horizontalScrollBar()
    start = bar.value()
    press(qtbot, Qt.Key.Key_Right, CTRL)
    assert bar.value() > start and selected_titles(window) == first
    assert window.session.item is None  # the arrows never reached the player


def test_find_then_enter_opens_the_node_and_letters_find(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = graph_shown(qtbot, launch)
    muted = window.session.player.muted()
    for letter in "vma":  # on the canvas: finding, not Mute (M) or anything else; each key where the focus is
        qtbot.keyClick(focused(), letter)
    find = window.findChild(QLineEdit, "graphFind")
    assert focused() is find and find.text() == "vma"
    assert window.session.player.muted() == muted
    press(qtbot, Qt.Key.Key_Escape)
    wait_showing(qtbot, window, "list")
    press(qtbot, Qt.Key.Key_G, CTRL)
    wait_showing(qtbot, window, "graph")
    press(qtbot, Qt.Key.Key_F, CTRL)
    assert focused() is find
    type_text(qtbot, "Strides")
    press(qtbot, Qt.Key.Key_Return)
    assert selected_titles(window) == ["Strides"] and focused() is window.graph.panel.view
    with qtbot.waitSignal(window.session.item_changed, timeout=10000):
        press(qtbot, Qt.Key.Key_Return)
    assert window.session.item is not None and window.session.item.title == "Strides"
