"""The main window for the keyboard: Tab and Shift+Tab move between the panes in layout order, F6 and Shift+F6
go from pane to pane, each pane has a Go action of its own (Ctrl+1 … Ctrl+8, docs/keyboard.md), the widget with
the keyboard shows a frame, and F10 opens the menu bar as in other desktop applications."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QMainWindow, QMenuBar, QWidget

from earmark.gui.focus_chain import NEXT, PREVIOUS, FocusChain, Pane
from earmark.gui.focus_frame import FocusFrame
from earmark.gui.mainwindow.frame.actions import Actions
from earmark.gui.mainwindow.navigation.navigator import Navigator


def fixed(widget: QWidget) -> Callable[[], QWidget]:
    """A pane whose widget stays the same."""
    return lambda: widget


def pane_keys(window: QMainWindow, actions: Actions, navigator: Navigator,
              panes: dict[str, QWidget]) -> FocusChain:
    """The window's focus chain over the central views, the search box of the view shown and ``panes`` (by
    name: details, related, notes, transcript, queue, player, sidebar), with their actions connected."""
    central = Pane("view", fixed(navigator.stack), navigator.focus_view)
    search = Pane("search", navigator.find_field, navigator.find)
    chain = FocusChain(window, [central, search, *(Pane(name, fixed(widget)) for name, widget in panes.items())])
    for name in ["view", *panes]:
        action = getattr(actions, f"focus_{name}", None)
        if action is not None:
            action.triggered.connect(lambda _checked=False, pane=name: chain.focus_pane(pane))
    actions.next_pane.triggered.connect(lambda: chain.cycle(NEXT))
    actions.previous_pane.triggered.connect(lambda: chain.cycle(PREVIOUS))
    app = QApplication.instance()
    if isinstance(app, QApplication):
        FocusFrame.of(app)  # the widget with the keyboard shows it
    QShortcut(QKeySequence("F10"), window).activated.connect(lambda: open_menu_bar(window.menuBar()))
    return chain


def open_menu_bar(bar: QMenuBar) -> None:
    """F10: the first menu opens; Left and Right then move along the menu bar."""
    menus = [action for action in bar.actions() if action.isVisible() and action.menu() is not None]
    if menus:
        bar.setActiveAction(menus[0])
