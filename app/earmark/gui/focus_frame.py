"""A focus frame a person can see on every widget that has the keyboard, in light and dark themes.

Fusion draws no focus frame around item views, text panes, an empty list or a canvas, so a keyboard user could
not tell where the keys would go. One frame follows the keyboard focus through the application: a widget laid
over the focused one (above its contents, transparent for the mouse) that draws a 2-px ring in the theme's focus
colour (``theme.accents().focus``, at least 3:1 against the window's colours as WCAG asks of focus indicators).
"""

from __future__ import annotations

from PySide6.QtCore import QChildEvent, QEvent, QObject, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QMenu, QMenuBar, QWidget
from shiboken6 import isValid

from earmark.gui.theme import accents

WIDTH = 2
OWNERS = (QAbstractSpinBox, QComboBox)  # their inner line edit has the focus; the frame goes round the owner
SKIPPED = (QMenu, QMenuBar)  # menus show their own current entry


class Ring(QWidget):
    """The ring over one widget: a child of it, so it moves, resizes and goes away with it. It stays above the
    widget's other children (a scroll area raises its scroll bars when it lays them out)."""

    def __init__(self, target: QWidget) -> None:
        super().__init__(target)
        self.setObjectName("focusFrame")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.retired = False  # taken away, deleted soon
        target.installEventFilter(self)
        for child in target.children():
            if child is not self:
                child.installEventFilter(self)
        self._place()
        self.show()

    def _place(self) -> None:
        target = self.parentWidget()
        if target is not None:
            self.setGeometry(target.rect())
            if target.children()[-1] is not self:
                self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Follow the widget's size; go above a child that was raised or added."""
        kind = event.type()
        if self.retired:
            return False
        if watched is self.parentWidget():
            if kind == QEvent.Type.ChildAdded and isinstance(event, QChildEvent) and event.child() is not self:
                event.child().installEventFilter(self)
            if kind in (QEvent.Type.Resize, QEvent.Type.ChildAdded, QEvent.Type.Show):
                self._place()
        elif not isinstance(watched, Ring) and kind in (QEvent.Type.ZOrderChange, QEvent.Type.Show):
            self._place()
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        """A ring along the widget's edge, inside it."""
        painter = QPainter(self)
        colour = QColor(accents().focus)
        width, height = self.width(), self.height()
        for x, y, w, h in ((0, 0, width, WIDTH), (0, height - WIDTH, width, WIDTH), (0, 0, WIDTH, height),
                           (width - WIDTH, 0, WIDTH, height)):
            painter.fillRect(x, y, w, h, colour)


class FocusFrame(QObject):
    """Puts a Ring over the widget with the keyboard focus and takes it away when the focus leaves;
    ``FocusFrame.of(app)`` makes the application's one on first use."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.setObjectName("focusFrames")
        self._ring: Ring | None = None
        app.focusChanged.connect(self._follow)

    @classmethod
    def of(cls, app: QApplication) -> FocusFrame:
        """The application's focus frame (made on first use)."""
        existing = app.findChild(FocusFrame, "focusFrames")
        if isinstance(existing, FocusFrame):
            return existing
        frame = cls(app)
        frame._follow(None, QApplication.focusWidget())
        return frame

    def target(self) -> QWidget | None:
        """The widget the frame is drawn round (None while none)."""
        ring = self._ring
        return ring.parentWidget() if ring is not None and isValid(ring) else None

    def _follow(self, _old: QWidget | None, new: QWidget | None) -> None:
        target = _framed(new)
        if target is self.target():
            return
        if self._ring is not None and isValid(self._ring):
            self._ring.retired = True
            self._ring.hide()
            self._ring.deleteLater()
        self._ring = Ring(target) if target is not None else None


def _framed(widget: QWidget | None) -> QWidget | None:
    """The widget the frame goes round when ``widget`` has the keyboard (None: no frame)."""
    if widget is None or isinstance(widget, SKIPPED) or widget.window().windowType() == Qt.WindowType.Popup:
        return None
    owner = widget.parentWidget()
    while owner is not None and not owner.isWindow():
        if isinstance(owner, OWNERS):
            return owner
        owner = owner.parentWidget()
    return widget
