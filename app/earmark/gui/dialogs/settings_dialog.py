"""The settings dialog (Ctrl+,): one page per group of settings, one editor per declared setting, so
settings added to the registry appear here by themselves. The pages are named in a list of sections on the left
(as in most desktop apps' settings): eleven tabs did not fit 1366 px ("Passw…", Backups behind scroll arrows)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from earmark.core.settings import SETTINGS, Setting
from earmark.gui.dialogs.settings_editors import SettingEditor
from earmark.gui.preferences import Preferences

# Known groups first, in this order; others follow by name.
GROUPS = {"playback": "Playback", "downloads": "Downloads", "transcribe": "Transcripts", "feeds": "Feeds",
          "directory": "Directories", "sync": "Sync", "reader": "Reader", "library": "Library", "secrets": "Passwords",
          "backups": "Backups", "appearance": "Appearance"}
NOTE_INDENT = 24  # the description under each editor


def pages() -> list[tuple[str, list[Setting]]]:
    """The dialog's pages: (title, settings), settings in declaration order."""
    grouped: dict[str, list[Setting]] = {}
    for setting in SETTINGS.values():
        if setting.editable:
            grouped.setdefault(setting.group, []).append(setting)
    order = [g for g in GROUPS if g in grouped] + sorted(g for g in grouped if g not in GROUPS)
    return [(GROUPS.get(g, g.replace("_", " ").capitalize()), grouped[g]) for g in order]


class SettingsDialog(QDialog):
    """Edits every setting; OK or Apply stores the changed ones through ``preferences`` (which broadcasts
    each change), Cancel forgets the edits, Restore Defaults puts the defaults in the editors."""

    def __init__(self, preferences: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle("Earmark Settings")
        self.setAccessibleName("Settings")
        self._preferences = preferences
        self.editors: dict[str, SettingEditor] = {}
        self.sections = QListWidget()
        self.sections.setObjectName("settingsSections")
        self.sections.setSpacing(2)
        self.sections.setAccessibleName("Settings sections")
        self.pages = QStackedWidget()
        self.pages.setAccessibleName("Settings pages")
        for title, settings in pages():
            self.sections.addItem(title)
            self.pages.addWidget(self._page(settings))
        self.sections.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self.sections.setFixedWidth(self.sections.sizeHintForColumn(0) + 2 * self.sections.frameWidth() + 24)
        self.sections.currentRowChanged.connect(self.pages.setCurrentIndex)
        self.sections.setCurrentRow(0)
        for keys, step in (("Ctrl+Tab", 1), ("Ctrl+PgDown", 1), ("Ctrl+Shift+Tab", -1), ("Ctrl+PgUp", -1)):
            QShortcut(QKeySequence(keys), self, lambda step=step: self._turn(step))  # as tabs turn pages
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.RestoreDefaults)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.buttons.clicked.connect(self._on_button)
        beside = QHBoxLayout()
        beside.addWidget(self.sections)
        beside.addWidget(self.pages, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(beside, 1)
        layout.addWidget(self.buttons)
        self.load()
        room = (parent.screen() if parent is not None else self.screen()).availableGeometry()
        self.resize(min(720, room.width() - 40), min(600, room.height() - 80))  # its buttons in sight at 1024×600

    def _turn(self, step: int) -> None:
        """Show the next (1) or previous (-1) section, round the list."""
        self.sections.setCurrentRow((self.sections.currentRow() + step) % self.sections.count())

    def _page(self, settings: list[Setting]) -> QWidget:
        page = QWidget()
        scroller = QScrollArea()  # a long page scrolls rather than squeezing its descriptions
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes from editor to editor; the page follows
        scroller.setAccessibleName("Settings page")
        form = QFormLayout(page)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        for setting in settings:
            editor = SettingEditor(setting)
            self.editors[setting.key] = editor
            help_text = setting.description + (" (Takes effect after a restart.)" if setting.restart
                                               and "next start" not in setting.description else "")
            note = QLabel(help_text)
            note.setWordWrap(True)
            note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            note.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            note.setContentsMargins(NOTE_INDENT, 0, 0, 8)
            if setting.type is bool:
                form.addRow(editor)
            else:
                label = QLabel(f"{setting.title}:")
                label.setBuddy(editor.field)
                form.addRow(label, editor)
            form.addRow(note)
        scroller.setWidget(page)
        return scroller

    def show_setting(self, key: str) -> None:
        """Bring the page of the setting ``key`` forward, the keyboard in its editor (the command palette's
        "Settings: Page ▸ Setting")."""
        editor = self.editors.get(key)
        if editor is None:
            return
        for index in range(self.pages.count()):
            page = self.pages.widget(index)
            if page is not None and page.isAncestorOf(editor):
                self.sections.setCurrentRow(index)
        editor.field.setFocus()

    def load(self) -> None:
        """Show the stored values."""
        for key, editor in self.editors.items():
            editor.set_value(self._preferences.value(key))

    def apply(self) -> None:
        """Store every edited value (unchanged ones are left alone)."""
        for key, editor in self.editors.items():
            self._preferences.set_value(key, editor.value())

    def accept(self) -> None:
        """Apply and close."""
        self.apply()
        super().accept()

    def _on_button(self, button: QAbstractButton) -> None:
        role = self.buttons.buttonRole(button)
        if role == QDialogButtonBox.ButtonRole.ApplyRole:
            self.apply()
        elif role == QDialogButtonBox.ButtonRole.ResetRole:
            page = self.pages.currentWidget()
            for editor in self.editors.values():
                if page is not None and page.isAncestorOf(editor):  # the editors of the page shown
                    editor.set_value(editor.setting.default)
