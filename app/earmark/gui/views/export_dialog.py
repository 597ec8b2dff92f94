"""File → Export Notes…: what to export (scope), in which format, where, with a preview of the result."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from earmark.core.db.notes import NoteFilter
from earmark.core.models import Source
from earmark.core.notes.export import EXPORT_KINDS
from earmark.core.records import record

SCOPES = ("item", "selection", "tag", "source", "everything")


@record
class ExportChoices:
    """What the dialog can offer: the current item, the selected items, the tags and sources; and the scope it
    opens on (one of SCOPES)."""

    item: tuple[int, str] | None  # id and title
    selection: tuple[int, ...]
    tags: list[str]
    sources: list[Source]
    start: str = "item"


class ExportDialog(QDialog):
    """Chooses scope, format and destination. The window's controller renders previews and exports.

    Signals: ``preview_requested(str, object)`` (kind, NoteFilter) whenever a choice changes;
    ``export_requested(str, object, object)`` (kind, NoteFilter, Path) when Export is pressed.
    """

    preview_requested = Signal(str, object)
    export_requested = Signal(str, object, object)

    def __init__(self, choices: ExportChoices, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export Notes")
        self.setObjectName("exportDialog")
        self.resize(720, 560)
        self._choices = choices
        self.scopes = QButtonGroup(self)
        texts = {
            "item": f"This item: {choices.item[1]}" if choices.item else "This item (none selected)",
            "selection": f"The selected items ({len(choices.selection)})",
            "tag": "Items with the tag", "source": "Items of the source", "everything": "Every note",
        }
        scope_box = QVBoxLayout()
        for number, scope in enumerate(SCOPES):
            button = QRadioButton(texts[scope])
            button.setObjectName(f"scope_{scope}")
            self.scopes.addButton(button, number)
            scope_box.addWidget(button)
        self.scopes.button(SCOPES.index("item")).setEnabled(choices.item is not None)
        self.scopes.button(SCOPES.index("selection")).setEnabled(len(choices.selection) > 1)
        start = self.scopes.button(SCOPES.index(choices.start))
        (start if start.isEnabled() else self.scopes.button(SCOPES.index("everything"))).setChecked(True)
        self.tag = QComboBox()
        self.tag.addItems(choices.tags)
        self.source = QComboBox()
        for source in choices.sources:
            self.source.addItem(source.title, source.id)
        self.kind = QComboBox()
        self.kind.setObjectName("exportFormat")
        for kind, text in EXPORT_KINDS.items():
            self.kind.addItem(text, kind)
        self.path = QLineEdit(str(Path.home() / "Earmark notes"))
        self.path.setObjectName("exportPath")
        browse = QPushButton("Choose…")
        browse.clicked.connect(self._browse)
        where = QHBoxLayout()
        where.addWidget(self.path, 1)
        where.addWidget(browse)
        self.preview = QPlainTextEdit()
        self.preview.setObjectName("exportPreview")
        self.preview.setReadOnly(True)
        self.preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = self.buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setObjectName("exportButton")
        self.buttons.accepted.connect(self._export)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Notes of", scope_box)
        form.addRow("Tag", self.tag)
        form.addRow("Source", self.source)
        form.addRow("Format", self.kind)
        form.addRow("Save to", where)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.buttons)
        for signal in (self.scopes.idToggled, self.tag.currentIndexChanged, self.source.currentIndexChanged,
                       self.kind.currentIndexChanged):
            signal.connect(self._changed)
        self._changed()

    def scope(self) -> str:
        """The chosen scope (one of SCOPES)."""
        return SCOPES[max(0, self.scopes.checkedId())]

    def set_scope(self, scope: str) -> None:
        """Choose a scope (as clicking its button does)."""
        self.scopes.button(SCOPES.index(scope)).setChecked(True)

    def note_filter(self) -> NoteFilter:
        """The notes the chosen scope takes."""
        scope = self.scope()
        if scope == "item" and self._choices.item:
            return NoteFilter(item_ids=(self._choices.item[0],))
        if scope == "selection":
            return NoteFilter(item_ids=self._choices.selection)
        if scope == "tag":
            return NoteFilter(tag=self.tag.currentText() or None, item_ids=None if self.tag.count() else ())
        if scope == "source":
            return NoteFilter(source_id=self.source.currentData(), item_ids=None if self.source.count() else ())
        return NoteFilter()

    def kind_name(self) -> str:
        """The chosen format (a key of EXPORT_KINDS)."""
        return str(self.kind.currentData())

    def show_preview(self, text: str) -> None:
        """Show what the export will write."""
        self.preview.setPlainText(text)

    def _changed(self, *_args: object) -> None:
        self.tag.setEnabled(self.scope() == "tag")
        self.source.setEnabled(self.scope() == "source")
        folder = self.kind_name() == "markdown"
        path = Path(self.path.text())
        suffix = {"json": ".json", "csv": ".csv", "history-csv": ".csv", "history-json": ".json"}.get(self.kind_name())
        self.path.setText(str(path.with_suffix("") if folder else path.with_suffix(suffix or "")))
        self.preview.setPlainText("Preparing the preview…")
        self.preview_requested.emit(self.kind_name(), self.note_filter())

    def _browse(self) -> None:
        if self.kind_name() == "markdown":
            chosen = QFileDialog.getExistingDirectory(self, "Export Markdown into", self.path.text())
        else:
            chosen, _filter = QFileDialog.getSaveFileName(self, "Export to", self.path.text())
        if chosen:
            self.path.setText(chosen)

    def _export(self) -> None:
        if self.path.text().strip():
            self.export_requested.emit(self.kind_name(), self.note_filter(), Path(self.path.text().strip()))
