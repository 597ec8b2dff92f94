"""Bringing a pane into sight before the keyboard goes to it: a dock closed, or tabbed behind another, is shown
in front (typing into a hidden box is typing blind)."""

from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QWidget


def bring_forward(widget: QWidget) -> None:
    """Show the dock holding ``widget`` (if one does) in front of the docks tabbed with it."""
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    if parent is not None:
        parent.show()
        parent.raise_()
