"""The filter bar under the search box: state, favourites, publication days and duration, and saving the
current view as a smart list."""

from __future__ import annotations

import re
from dataclasses import replace

from PySide6 import QtWidgets
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QToolButton,
    QWidget,
)

from earmark.core.db.filters import ItemFilter
from earmark.gui.theme import accents

STATE_CHOICES = (("All", None), ("Unplayed", "unplayed"), ("In progress", "in_progress"), ("Played", "played"))
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class FilterBar(QWidget):
    """Controls that narrow the item list. Signal: ``changed()`` when any of them changes (values())."""

    changed = Signal()

    def __init__(self, save_action: QAction, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("filterBar")
        self.state = QComboBox()
        self.state.setAccessibleName("Played state")
        for text, _value in STATE_CHOICES:
            self.state.addItem(text)
        self.favourite = QCheckBox("★")
        self.favourite.setToolTip("Favourites only")
        self.favourite.setAccessibleName("Favourites only")
        self.published_from = self._day_edit("from", "Published on or after (YYYY-MM-DD)")
        self.published_to = self._day_edit("to", "Published on or before (YYYY-MM-DD)")
        self.duration_min = self._minutes_spin("Shortest duration in minutes")
        self.duration_max = self._minutes_spin("Longest duration in minutes")
        self._save = save = QToolButton()
        save.setObjectName("saveSmartList")
        save.setDefaultAction(save_action)
        save.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        save.setToolTip(f"{save_action.text().replace('&', '')} ({save_action.shortcut().toString()})")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        for widget in (self.state, self.favourite, QLabel("Published"), self.published_from, self.published_to,
                       QLabel("Minutes"), self.duration_min, QLabel("–"), self.duration_max):
            layout.addWidget(widget)
        layout.addStretch(1)
        layout.addWidget(save)
        self.state.currentIndexChanged.connect(self.changed)
        self.favourite.toggled.connect(self.changed)
        for edit in (self.published_from, self.published_to):
            edit.editingFinished.connect(self.changed)
        for spin in (self.duration_min, self.duration_max):
            spin.valueChanged.connect(self.changed)

    def add_icons(self) -> None:
        """The save button's icon, from the style, and the day fields' clear buttons, once the list is read (after
        a start's first frame: QStyle's Python type costs ~7 ms to make, the clear button's icon ~3 ms; the button
        and the fields keep their sizes meanwhile). An icon, not the action's long text: the bar fits beside the
        docked panes."""
        action = self._save.defaultAction()
        if action.icon().isNull():
            action.setIcon(self.style().standardIcon(QtWidgets.QStyle.StandardPixmap.SP_DialogSaveButton))
        for edit in (self.published_from, self.published_to):  # their clear buttons' icon: ~3 ms the first time
            edit.setClearButtonEnabled(True)

    def _day_edit(self, placeholder: str, tip: str) -> QLineEdit:
        edit = QLineEdit()
        edit.setPlaceholderText(placeholder)
        edit.setToolTip(tip)
        edit.setAccessibleName(tip)
        # A whole date with the clear button beside it, whatever the font (squeezed, it read "fr…").
        edit.setFixedWidth(edit.fontMetrics().horizontalAdvance("2026-12-31") + 3 * edit.fontMetrics().height())
        edit.textChanged.connect(lambda text: edit.setStyleSheet(
            "" if not text or _DAY.match(text) else f"color: {accents().error};"))
        return edit

    def _minutes_spin(self, tip: str) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(0, 24 * 60)
        spin.setSpecialValueText("any")
        spin.setToolTip(tip)
        spin.setAccessibleName(tip)
        spin.setKeyboardTracking(False)
        return spin

    def narrow(self, flt: ItemFilter) -> ItemFilter:
        """``flt`` with the bar's state (the view's own when the bar says any, so that Continue listening stays
        in progress), favourites, days and durations (days not written YYYY-MM-DD are left out)."""
        def day(edit: QLineEdit) -> str | None:
            text = edit.text().strip()
            return text if _DAY.match(text) else None

        return replace(
            flt,
            state=STATE_CHOICES[self.state.currentIndex()][1] or flt.state,  # type: ignore[arg-type]  # a State
            favourite=self.favourite.isChecked(),
            published_from=day(self.published_from),
            published_to=day(self.published_to),
            duration_min=self.duration_min.value() * 60.0 or None,
            duration_max=self.duration_max.value() * 60.0 or None,
        )

    def show_filter(self, flt: ItemFilter) -> None:
        """Set the controls from ``flt`` (a smart list) without announcing a change."""
        self.blockSignals(True)
        try:
            for widget in (self.state, self.favourite, self.duration_min, self.duration_max):
                widget.blockSignals(True)
            self.state.setCurrentIndex(next(i for i, (_t, v) in enumerate(STATE_CHOICES) if v == flt.state))
            self.favourite.setChecked(flt.favourite)
            self.published_from.setText(flt.published_from or "")
            self.published_to.setText(flt.published_to or "")
            self.duration_min.setValue(round((flt.duration_min or 0) / 60))
            self.duration_max.setValue(round((flt.duration_max or 0) / 60))
        finally:
            for widget in (self.state, self.favourite, self.duration_min, self.duration_max):
                widget.blockSignals(False)
            self.blockSignals(False)
