"""The tag editor (T): the tags of one or many items or sources, typed with completion."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QStringListModel, Qt
from PySide6.QtWidgets import QCompleter, QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from earmark.core.db.tags import normalize_tag


class TagCompleter(QCompleter):
    """Completes the tag being typed after the last comma, keeping the ones before it."""

    def splitPath(self, path: str) -> list[str]:  # noqa: N802 - Qt's name
        return [path.rsplit(",", 1)[-1].strip()]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:  # noqa: N802 - Qt's name
        widget = self.widget()
        typed = widget.text() if isinstance(widget, QLineEdit) else ""
        head = typed.rsplit(",", 1)[0] + ", " if "," in typed else ""
        return f"{head}{index.data()}, "


class TagEditor(QDialog):
    """Edits tags shared by every target: the ones in the field when it closes are on all of them, the shared
    ones removed from the field come off, tags on only some targets stay unless typed (then all get them)."""

    def __init__(self, what: str, shared: list[str], partial: list[str], known: list[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tagEditor")
        self.setWindowTitle("Tags")
        self._shared = shared
        self.field = QLineEdit(", ".join(shared) + (", " if shared else ""))
        self.field.setObjectName("tags")
        self.field.setPlaceholderText("tags, separated by commas")
        completer = TagCompleter(QStringListModel(known, self), self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.field.setCompleter(completer)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Tags of {what}:"))
        layout.addWidget(self.field)
        if partial:
            hint = QLabel(f"On some of them: {', '.join(partial)} (type one to put it on all)")
            hint.setWordWrap(True)
            hint.setStyleSheet("color: gray;")
            layout.addWidget(hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(420, self.sizeHint().height())

    def typed(self) -> list[str]:
        """The tags in the field, normalized, without repeats."""
        return list(dict.fromkeys(filter(None, (normalize_tag(t) for t in self.field.text().split(",")))))

    def changes(self) -> tuple[list[str], list[str]]:
        """(tags to add to every target, tags to remove from every target)."""
        typed = self.typed()
        return typed, [tag for tag in self._shared if tag not in typed]
