"""A view of the central area with nothing to remember between visits (Subscriptions, the Notes view)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QWidget

from earmark.gui.mainwindow.places import Place


class PlainView:
    """Shows ``widget`` as the view ``name``; ``on_enter()`` reads what it shows, ``focus_widget`` takes the
    keyboard, ``find`` is its search box (None: Ctrl+F searches the list)."""

    def __init__(self, name: str, widget: QWidget, focus_widget: QWidget, on_enter: Callable[[], None],
                 find: QWidget | None = None) -> None:
        self._name = name
        self._widget = widget
        self._focus = focus_widget
        self._on_enter = on_enter
        self._find = find

    def widget(self) -> QWidget:
        """The view's widget."""
        return self._widget

    def enter(self, _place: Place) -> None:
        """Read what the view shows."""
        self._on_enter()

    def here(self) -> Place:
        """The view."""
        return Place(self._name)

    def leave(self) -> None:
        """Nothing to keep."""

    def focus(self) -> None:
        """The keyboard to the view."""
        self._focus.setFocus()

    def find_field(self) -> QWidget | None:
        """The view's search box, if it has one."""
        return self._find
