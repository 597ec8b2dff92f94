"""The one owner of which view the window's central area shows: the sidebar, the Go menu, Esc, Back and Forward
(Alt+Left/Alt+Right and the mouse's side buttons) all ask the navigator, which leaves one view and enters the
next, keeps the history of places visited, and keeps the sidebar's row in step."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QLineEdit, QStackedWidget, QWidget

from earmark.gui.mainwindow.navigation.sidebar import ACTIVATE, BROWSE
from earmark.gui.mainwindow.places import ALL, LIST, READER, Place, key_place, place_key

HISTORY = 100  # places kept for Back


class View(Protocol):
    """A view of the central area as the navigator drives it."""

    def widget(self) -> QWidget:
        """What the central area shows for the view now."""

    def enter(self, place: Place) -> None:
        """Show ``place`` (reading what it needs in the background)."""

    def here(self) -> Place:
        """Where the view is now, with how it looks (kept for Back)."""

    def leave(self) -> None:
        """The view is no longer shown."""

    def focus(self) -> None:
        """Put the keyboard in the view."""

    def find_field(self) -> QWidget | None:
        """The view's own search box (Ctrl+F), None when it has none."""


class Sidebar(Protocol):
    """The sidebar as the navigator needs it (``populated`` once its rows were first read)."""

    populated: bool

    def select(self, place: Place) -> None:
        """Highlight the row of ``place`` without announcing a choice."""

    def resolve(self, place: Place) -> Place | None:
        """``place`` as the sidebar offers it now, None when its entry is gone."""


class Navigator(QObject):
    """Shows one view at a time in ``stack`` (views are added with ``add``). Signals: ``moved(object)`` with the
    Place shown after each move; ``history_changed(bool, bool)``: whether Back and Forward can go somewhere."""

    moved = Signal(object)
    history_changed = Signal(bool, bool)

    def __init__(self, sidebar: Sidebar, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.stack = QStackedWidget()
        self.stack.setObjectName("centralViews")
        self._sidebar = sidebar
        self._views: dict[str, View] = {}
        self._history: list[Place] = [ALL]
        self._index = 0
        self._browsing = False  # the place shown was reached by moving through the sidebar with the arrow keys
        self._awaited: Place | None = None  # to show once the sidebar lists it (a podcast just subscribed to)

    def add(self, name: str, view: View, *widgets: QWidget) -> None:
        """Let the navigator show ``view`` (its ``widgets`` go into the stack)."""
        self._views[name] = view
        for widget in widgets:
            self.stack.addWidget(widget)

    @property
    def current(self) -> Place:
        """The place shown."""
        return self._history[self._index]

    def start(self) -> None:
        """Show the first place (the whole list)."""
        self._show(self.current, focus=False, previous=None)

    # Moving -------------------------------------------------------------------------------------------------

    def go(self, place: Place, focus: bool = True, browsing: bool = False) -> None:
        """Show ``place``. A place other than the one shown is added to the history; the one shown is entered
        again as ``place`` describes it (a sidebar entry chosen again shows all it holds). Moving through the
        sidebar with the arrow keys (``browsing``) keeps one place in the history for the whole walk."""
        previous = self._keep_here()
        if place != previous and not (browsing and self._browsing):
            del self._history[self._index + 1:]
            self._history.append(place)
            self._history = self._history[-HISTORY:]
            self._index = len(self._history) - 1
        else:
            self._history[self._index] = place
        self._browsing = browsing
        self._show(place, focus, previous)

    def sidebar_chose(self, place: Place, how: str) -> None:
        """A sidebar row was chosen: clicked or walked to with the arrow keys (the keyboard stays in the
        sidebar), or activated with Enter (the keyboard goes to the view)."""
        self.go(place, focus=how == ACTIVATE, browsing=how == BROWSE)

    def back(self) -> None:
        """Show the place visited before this one."""
        self._step(-1)

    def forward(self) -> None:
        """Show the place Back left."""
        self._step(1)

    def _step(self, steps: int) -> None:
        target = self._index + steps
        if not 0 <= target < len(self._history):
            return
        previous = self._keep_here()
        self._index = target
        self._browsing = False
        self._show(self.current, True, previous)

    def to_list(self) -> None:
        """Esc: show the item list as it was left. (A drop-down list, a dialog and an editor in a table take
        their Esc first: Qt gives it to them before the window's shortcut.)"""
        self.go(self._views[LIST].here())

    def find(self) -> None:
        """Ctrl+F: the keyboard to the search box of the view shown (the list's when the view has none)."""
        field = self._views[self.current.view].find_field()
        if field is None:
            self.go(self._views[LIST].here(), focus=False)
            field = self._views[LIST].find_field()
        if field is not None:
            field.setFocus()
            if isinstance(field, QLineEdit):
                field.selectAll()

    def focus_view(self) -> None:
        """The keyboard to the view shown."""
        self._views[self.current.view].focus()

    def find_field(self) -> QWidget | None:
        """The search box of the view shown (None when it has none)."""
        return self._views[self.current.view].find_field()

    def replace_dead_end(self) -> None:
        """The place shown cannot be shown (its article or entry is gone): the list takes its place."""
        previous = self.current
        self._history[self._index] = self._views[LIST].here() if previous.view != LIST else ALL
        self._show(self.current, True, previous)

    def _keep_here(self) -> Place:
        here = self._views[self.current.view].here()
        self._history[self._index] = here
        return here

    def _show(self, place: Place, focus: bool, previous: Place | None) -> None:
        if place.view == LIST and self._sidebar.populated and self._sidebar.resolve(place) is None:
            place = self._history[self._index] = ALL  # its entry is gone (a tag or smart list deleted)
        if previous is not None and previous.view != place.view:
            self._views[previous.view].leave()
        view = self._views[place.view]
        view.enter(place)
        focus = focus or _focus_inside(self.stack)  # the keyboard follows when it was in the view left
        self.stack.setCurrentWidget(view.widget())
        self._sidebar.select(self._sidebar_place())
        if focus:
            view.focus()
        self.moved.emit(place)
        self.history_changed.emit(self._index > 0, self._index < len(self._history) - 1)

    def shown_widget_changed(self) -> None:
        """The view shown now shows another widget (the welcome screen gave way to the list, or back)."""
        view = self._views[self.current.view]
        widget = view.widget()
        if self.stack.currentWidget() is not widget:
            focus = _focus_inside(self.stack)
            self.stack.setCurrentWidget(widget)
            if focus:
                view.focus()

    # The sidebar and restarts -----------------------------------------------------------------------------------

    def _sidebar_place(self) -> Place:
        """The sidebar highlights the list's entry while an article is read."""
        return self._views[LIST].here() if self.current.view == READER else self.current

    def go_once_listed(self, place: Place) -> None:
        """Show ``place`` now if the sidebar lists its entry, else once a reload of the sidebar does."""
        self._awaited = None if self._sidebar.resolve(place) is not None else place
        if self._awaited is None:
            self.go(place)

    def sidebar_reloaded(self) -> None:
        """The sidebar was filled again: show an awaited place it now lists; highlight the place shown, or show
        All when its entry is gone."""
        if self._awaited is not None and self._sidebar.resolve(self._awaited) is not None:
            place, self._awaited = self._awaited, None
            self.go(place)
            return
        here = self._views[self.current.view].here()
        if here.view == LIST and self._sidebar.resolve(here) is None:
            self.go(ALL, focus=False)
            return
        self._sidebar.select(self._sidebar_place())

    def key(self) -> str:
        """The place shown, as text for the next start."""
        return place_key(self._views[self.current.view].here())

    def restore(self, key: str) -> None:
        """Show the place a ``key`` names when it can still be shown (the list's entry is still there; a learning
        path needs a selection, so the whole graph shows instead); else stay on the list."""
        place = key_place(key)
        if place is None or place.view == READER:
            return
        if place.view == LIST:
            place = self._sidebar.resolve(place)
        elif place.mode:
            place = Place(place.view)
        if place is not None and place != self.current:
            self.go(place)


def _focus_inside(stack: QStackedWidget) -> bool:
    """Whether the keyboard is in the central area (or nowhere)."""
    focused = QApplication.focusWidget()
    return focused is None or stack.isAncestorOf(focused)
