"""Tab, Shift+Tab, F6 and Shift+F6 between a window's panes in the order they are laid out.

Qt's own Tab order is the order widgets were made in, and item views use Tab to move between their cells, so a
person was trapped in the item list. Here the panes are read where they are on screen (columns from left to
right, top to bottom in a column, a bar across the window after what is above it), so the order keeps working
when panes are moved, docked or hidden. Tab goes to the next control of a pane, and from a pane's last control
to the next pane; an item view is one stop (its arrow keys move between its rows). F6 goes to the next pane
itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cmp_to_key

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QMainWindow,
    QTextBrowser,
    QWidget,
)

from earmark.core.records import record
from earmark.gui.app_filter import ApplicationFilter

NEXT, PREVIOUS = 1, -1
TAB_KEYS = {Qt.Key.Key_Tab: NEXT, Qt.Key.Key_Backtab: PREVIOUS}
# Inner parts of these widgets take the focus as their owner's part, never as a stop of their own.
COMPOSITE = (QAbstractItemView, QAbstractSpinBox, QComboBox)


@record(frozen=True)
class Pane:
    """A pane of the window: ``root()`` is its widget now (None while it has none), ``enter`` puts the
    keyboard in it as its own shortcut does (by default: its first control)."""

    name: str
    root: Callable[[], QWidget | None]
    enter: Callable[[], None] | None = None


class FocusChain(ApplicationFilter):
    """Moves the keyboard between the ``panes`` of ``window`` (see the module docstring). Installed as an
    application event filter, it takes Tab and Shift+Tab (with or without Ctrl) while the keyboard is in the
    window; dialogs and popups keep their own Tab order."""

    def __init__(self, window: QWidget, panes: Sequence[Pane]) -> None:
        super().__init__(window)
        self._window = window
        self._panes = list(panes)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Tab and Shift+Tab in the window move along the chain; every other event goes on untouched."""
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        key = Qt.Key(event.key())
        shifted = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key not in TAB_KEYS or event.modifiers() & Qt.KeyboardModifier.AltModifier:
            return False
        if watched is not QApplication.focusWidget() or not isinstance(watched, QWidget) \
                or watched.window() is not self._window:
            return False
        step = PREVIOUS if shifted or TAB_KEYS[key] == PREVIOUS else NEXT
        if isinstance(watched, QTextBrowser) and _link_ahead(watched, step):
            return False  # the text's own Tab goes to its next link (Enter opens it), as in a web browser
        self.tab(step)
        return True

    # Moving ------------------------------------------------------------------------------------------------------

    def tab(self, step: int) -> None:
        """The keyboard to the next (``step`` 1) or previous (-1) control of the chain."""
        stops = [stop for _pane, pane_stops in self.layout() for stop in pane_stops]
        if not stops:
            return
        here = self._stop_of(QApplication.focusWidget(), stops)
        target = stops[0] if here is None and step == NEXT else stops[-1] if here is None \
            else stops[(stops.index(here) + step) % len(stops)]
        _bring_forward(target)
        target.setFocus(Qt.FocusReason.BacktabFocusReason if step == PREVIOUS else Qt.FocusReason.TabFocusReason)

    def cycle(self, step: int) -> None:
        """F6 / Shift+F6: the keyboard to the next or previous pane."""
        panes = [(pane, stops) for pane, stops in self.layout() if stops]
        if not panes:
            return
        focused = QApplication.focusWidget()
        current = next((i for i, (_pane, stops) in enumerate(panes) if self._stop_of(focused, stops)), None)
        index = 0 if current is None and step == NEXT else (current or 0) + step
        self.focus_pane(panes[index % len(panes)][0].name)

    def focus_pane(self, name: str) -> None:
        """The keyboard to the pane called ``name`` (its shortcut); a pane tabbed behind another comes to the
        front first."""
        for pane in self._panes:
            root = pane.root() if pane.name == name else None
            if root is not None:
                _bring_forward(root)
        for pane, stops in self.layout():
            if pane.name != name:
                continue
            if pane.enter is not None:
                pane.enter()
            elif stops:
                stops[0].setFocus(Qt.FocusReason.ShortcutFocusReason)
            return

    def layout(self) -> list[tuple[Pane, list[QWidget]]]:
        """The panes shown, in layout order, each with its controls in layout order (a pane inside another one
        takes its controls out of the outer pane)."""
        roots = {pane.name: root for pane in self._panes if (root := pane.root()) is not None and _shown(root)}
        shown = [pane for pane in self._panes if pane.name in roots]
        slots = {name: self._rect(_slot(root)) for name, root in roots.items()}
        shown.sort(key=cmp_to_key(lambda a, b: _outer_last(roots[a.name], roots[b.name])
                                  or _before(slots[a.name], slots[b.name])))
        inner = list(roots.values())
        return [(pane, self._stops(roots[pane.name], [r for r in inner if r is not roots[pane.name]]))
                for pane in shown]

    # Reading the layout ------------------------------------------------------------------------------------------

    def _rect(self, widget: QWidget) -> QRect:
        """Where ``widget`` is, in global coordinates (panes may float in windows of their own)."""
        return QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())

    def _stops(self, root: QWidget, others: list[QWidget]) -> list[QWidget]:
        inner = [other for other in others if root.isAncestorOf(other)]  # panes of their own
        found = [w for w in [root, *root.findChildren(QWidget)] if _focusable(w)
                 and not any(other is w or other.isAncestorOf(w) for other in inner)]
        stops = [w for w in found if not any(a is not w and a.isAncestorOf(w) for a in found
                                             if isinstance(a, COMPOSITE))]
        stops.sort(key=cmp_to_key(lambda a, b: _in_reading_order(self._rect(a), self._rect(b))))
        return stops

    @staticmethod
    def _stop_of(widget: QWidget | None, stops: list[QWidget]) -> QWidget | None:
        """The stop ``widget`` is or belongs to (an editor in a table belongs to the table)."""
        while widget is not None:
            if widget in stops:
                return widget
            widget = widget.parentWidget()
        return None


def _slot(root: QWidget) -> QWidget:
    """Where a pane sits: its dock, else the pane itself. A dock tabbed behind another is moved out of sight by
    Qt: it sits where the dock in front of it is."""
    dock = root.parentWidget()
    while dock is not None and not isinstance(dock, QDockWidget):
        dock = dock.parentWidget()
    if dock is None:
        return root
    window = dock.parentWidget()
    if dock.visibleRegion().isEmpty() and isinstance(window, QMainWindow):
        return next((other for other in window.tabifiedDockWidgets(dock) if not other.visibleRegion().isEmpty()),
                    dock)
    return dock


def _bring_forward(widget: QWidget) -> None:
    """A widget in a dock tabbed behind another: its tab comes to the front (a closed dock stays closed)."""
    ancestor = widget.parentWidget()
    while ancestor is not None:
        if isinstance(ancestor, QDockWidget) and ancestor.toggleViewAction().isChecked():
            ancestor.raise_()
        ancestor = ancestor.parentWidget()


def _link_ahead(browser: QTextBrowser, step: int) -> bool:
    """Whether the text has a link after (``step`` 1) or before (-1) the one the keyboard is on (after the
    cursor when it is on none; before: only from a link)."""
    if not browser.textInteractionFlags() & Qt.TextInteractionFlag.LinksAccessibleByKeyboard:
        return False
    cursor = browser.textCursor()
    start, end = cursor.selectionStart(), cursor.selectionEnd()
    on_link = start != end
    for at, length in _links(browser):
        if step == NEXT and (at > end or at == end and not on_link):
            return True
        if step == PREVIOUS and on_link and at + length <= start:
            return True
    return False


def _links(browser: QTextBrowser) -> list[tuple[int, int]]:
    """Where the text's links are: (position, length) of each piece of linked text."""
    found = []
    block = browser.document().begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if fragment.isValid() and fragment.charFormat().isAnchor() and fragment.charFormat().anchorHref():
                found.append((fragment.position(), fragment.length()))
            fragments += 1
        block = block.next()
    return found


def _shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def _focusable(widget: QWidget) -> bool:
    return (_shown(widget) and widget.isEnabled() and widget.focusProxy() is None
            and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus))


def _in_reading_order(a: QRect, b: QRect) -> int:
    """Rows top to bottom (the two overlap from top to bottom: one row), left to right in a row."""
    if a.bottom() < b.top():
        return -1
    if b.bottom() < a.top():
        return 1
    return (a.left() > b.left()) - (a.left() < b.left())


def _outer_last(a: QWidget, b: QWidget) -> int:
    """A pane inside another comes before it: a view's own search box (the Notes view's filter) leads into the view,
    as the list's search box leads into the list, instead of coming after the view's last control."""
    return -1 if b.isAncestorOf(a) else 1 if a.isAncestorOf(b) else 0


def _before(a: QRect, b: QRect) -> int:
    """Columns left to right; in a column (the two overlap from left to right) top to bottom, the smaller of
    two starting at the same height first."""
    if a.right() < b.left():
        return -1
    if b.right() < a.left():
        return 1
    first, second = (a.top(), a.bottom()), (b.top(), b.bottom())
    return (first > second) - (first < second)
