"""Changing shortcuts: one key field per action, conflicts refused, defaults restorable."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QKeySequenceEdit,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from earmark.gui.mainwindow.frame.actions import SPECS, conflicts, label, normalized
from earmark.gui.theme import accents


class ShortcutEditor(QDialog):
    """Edits every action's first shortcut (further default shortcuts stay when the first is unchanged).

    ``overrides`` after acceptance: the shortcuts that differ from the defaults (the ``keyboard.shortcuts``
    setting)."""

    def __init__(self, current: dict[str, tuple[str, ...]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutEditor")
        self.setWindowTitle("Customize Shortcuts")
        self.resize(520, 640)
        self._current = current
        self.overrides: dict[str, list[str]] = {}
        self.edits: dict[str, QKeySequenceEdit] = {}
        form = QFormLayout()
        for spec in SPECS:
            edit = QKeySequenceEdit(QKeySequence(current[spec.name][0] if current[spec.name] else ""))
            edit.setObjectName(f"shortcut_{spec.name}")
            edit.setClearButtonEnabled(True)
            edit.setMaximumSequenceLength(1)
            self.edits[spec.name] = edit
            form.addRow(f"{spec.menu}: {label(spec.text)}", edit)
        inner = QWidget()
        inner.setLayout(form)
        scroll = QScrollArea()
        scroll.setWidget(inner)
        scroll.setWidgetResizable(True)
        self.problem = QLabel()
        self.problem.setObjectName("shortcutProblem")
        self.problem.setStyleSheet(f"color: {accents().error};")  # readable in the light and dark themes
        self.problem.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                   | QDialogButtonBox.StandardButton.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self.restore_defaults)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def chosen(self) -> dict[str, tuple[str, ...]]:
        """Every action's shortcuts as edited."""
        result = {}
        for spec in SPECS:
            first = normalized([self.edits[spec.name].keySequence().toString()])
            before = self._current[spec.name]
            result[spec.name] = before if before[:1] == first else first
        return result

    def restore_defaults(self) -> None:
        """Put every default back in the fields."""
        self._current = {spec.name: normalized(spec.shortcuts) for spec in SPECS}
        for spec in SPECS:
            self.edits[spec.name].setKeySequence(QKeySequence(self._current[spec.name][0]
                                                              if self._current[spec.name] else ""))

    def accept(self) -> None:
        """Refuse shortcuts given to two actions; otherwise keep what differs from the defaults."""
        chosen = self.chosen()
        clashes = conflicts(chosen)
        if clashes:
            names = {spec.name: label(spec.text) for spec in SPECS}
            self.problem.setText("; ".join(f"{key} is given to {' and '.join(names[n] for n in users)}"
                                           for key, users in clashes.items()) + ". Change one of them.")
            return
        defaults = {spec.name: normalized(spec.shortcuts) for spec in SPECS}
        self.overrides = {name: list(keys) for name, keys in chosen.items() if keys != defaults[name]}
        super().accept()
