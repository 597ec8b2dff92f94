"""One editor widget per kind of setting (check box, spin box, choice, path, text), built from its
declaration alone."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from earmark.core.settings import Setting

INT_RANGE = (0, 1_000_000)
FLOAT_RANGE = (0.0, 1_000_000.0)


class SettingEditor(QWidget):
    """Edits one setting. Signal: ``edited()`` when the user changes the value."""

    edited = Signal()

    def __init__(self, setting: Setting, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setting = setting
        self.setObjectName(f"setting:{setting.key}")
        self.setAccessibleName(setting.title)
        self.setAccessibleDescription(setting.description)
        self.setToolTip(setting.description)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.field = self._make_field()
        self.field.setAccessibleName(setting.title)
        self.field.setAccessibleDescription(setting.description)
        layout.addWidget(self.field, 1)
        self.setFocusProxy(self.field)
        self.choose_button: QPushButton | None = None
        if setting.path_kind:
            self.choose_button = QPushButton("Browse…" if setting.suggestions else "Choose…")
            self.choose_button.setAccessibleName(f"Choose the {setting.title.lower()}")
            self.choose_button.clicked.connect(self._choose)
            layout.addWidget(self.choose_button)

    def _make_field(self) -> QWidget:
        s = self.setting
        if s.type is bool:
            box = QCheckBox(s.title)
            box.toggled.connect(self.edited)
            return box
        if s.type is int:
            spin = QSpinBox()
            spin.setRange(int(s.minimum if s.minimum is not None else INT_RANGE[0]),
                          int(s.maximum if s.maximum is not None else INT_RANGE[1]))
            spin.setSingleStep(int(s.step or 1))
            self._decorate(spin)
            spin.valueChanged.connect(self.edited)
            return spin
        if s.type is float:
            double = QDoubleSpinBox()
            step = s.step or 0.1
            double.setDecimals(max(0, len(f"{step:g}".partition(".")[2])) or 0)
            double.setRange(s.minimum if s.minimum is not None else FLOAT_RANGE[0],
                            s.maximum if s.maximum is not None else FLOAT_RANGE[1])
            double.setSingleStep(step)
            self._decorate(double)
            double.valueChanged.connect(self.edited)
            return double
        if s.suggestions:  # a list to pick from, or any other text typed (a folder, browsed for)
            offered = QComboBox()
            offered.setEditable(True)
            offered.addItems(list(s.suggestions))
            offered.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            offered.currentTextChanged.connect(self.edited)
            return offered
        if s.choices:
            combo = QComboBox()
            for value, label in s.choices:
                combo.addItem(label, value)
            combo.currentIndexChanged.connect(self.edited)
            return combo
        line = QLineEdit()
        if s.path_kind:
            line.setPlaceholderText("(default)")
            line.setClearButtonEnabled(True)
        line.textEdited.connect(self.edited)
        return line

    def _decorate(self, spin: QSpinBox | QDoubleSpinBox) -> None:
        spin.setSuffix(self.setting.suffix)
        spin.setSpecialValueText(self.setting.minimum_text)
        spin.setAccelerated(True)

    def value(self) -> object:
        """What the editor shows, as the setting's type."""
        field = self.field
        if isinstance(field, QCheckBox):
            return field.isChecked()
        if isinstance(field, QSpinBox | QDoubleSpinBox):
            return self.setting.coerce(field.value())
        if isinstance(field, QComboBox):
            return field.currentText().strip() if field.isEditable() else field.currentData()
        assert isinstance(field, QLineEdit)
        return field.text().strip()

    def set_value(self, value: object) -> None:
        """Show ``value`` (without emitting ``edited``)."""
        field = self.field
        field.blockSignals(True)
        if isinstance(field, QCheckBox):
            field.setChecked(bool(value))
        elif isinstance(field, QSpinBox):
            field.setValue(int(value))  # type: ignore[call-overload]  # an int setting's value
        elif isinstance(field, QDoubleSpinBox):
            field.setValue(float(value))  # type: ignore[arg-type]  # a float setting's value
        elif isinstance(field, QComboBox) and field.isEditable():
            field.setCurrentText(str(value))
        elif isinstance(field, QComboBox):
            field.setCurrentIndex(max(0, field.findData(value)))
        elif isinstance(field, QLineEdit):
            field.setText(str(value))
        field.blockSignals(False)

    def _choose(self) -> None:
        field = self.field
        assert isinstance(field, QLineEdit | QComboBox)
        if isinstance(field, QLineEdit):
            current = field.text().strip() or str(Path.home())
        else:  # a size ("base.en") is no folder to start from
            current = field.currentText().strip()
            current = current if Path(current).is_dir() else str(Path.home())
        if self.setting.path_kind == "folder":
            chosen = QFileDialog.getExistingDirectory(self, f"Choose the {self.setting.title.lower()}", current)
        else:
            chosen, _filter = QFileDialog.getSaveFileName(
                self, f"Choose the {self.setting.title.lower()}", current, "Earmark libraries (*.db);;All files (*)",
                options=QFileDialog.Option.DontConfirmOverwrite)
        if chosen:
            if isinstance(field, QLineEdit):
                field.setText(chosen)
            else:
                field.setCurrentText(chosen)
            self.edited.emit()
