"""Every main-window action with its text and shortcuts, declared once (docs/keyboard.md lists them)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """An action's name (attribute on Actions), menu text, shortcuts and where they apply."""

    name: str
    text: str
    shortcuts: tuple[str, ...] = ()
    context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut


SPECS = (
    ActionSpec("add_podcast", "&Add Podcast…", ("Ctrl+N",)),
    ActionSpec("load_sample", "Load &Sample Library"),
    ActionSpec("import_opml", "&Import Subscriptions (OPML)…", ("Ctrl+O",)),
    ActionSpec("export_opml", "&Export Subscriptions (OPML)…", ("Ctrl+Shift+E",)),
    ActionSpec("export_notes", "Export &Notes…"),
    ActionSpec("backup_library", "&Back Up Library…"),
    ActionSpec("refresh_all", "&Refresh All Feeds", ("F5", "Ctrl+R")),
    ActionSpec("refresh_selected", "Refresh (Retry) &Selected Feeds", ("Shift+F5",)),
    ActionSpec("cancel_refresh", "S&top Refreshing"),
    ActionSpec("set_password", "Set Feed &Password…"),
    ActionSpec("show_subscriptions", "S&ubscriptions", ("Ctrl+Shift+U",)),
    ActionSpec("quit", "&Quit", ("Ctrl+Q",)),
    ActionSpec("play_selected", "&Play Selected", ("Return", "Enter"), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("play_pause", "Play/&Pause", ("Space",)),
    ActionSpec("skip_back", "Skip &Back", ("Left",)),
    ActionSpec("skip_forward", "Skip &Forward", ("Right",)),
    ActionSpec("edit_tags", "Edit &Tags…", ("T",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("toggle_favourite", "&Favourite", ("F",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("save_search", "Save as S&mart List…", ("Ctrl+S",)),
    ActionSpec("rename_tag", "&Rename Tag…", ("F2",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("colour_tag", "Tag &Colour…"),
    ActionSpec("delete_entry", "&Delete Tag or Smart List", ("Delete",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("focus_search", "&Search", ("Ctrl+F", "/")),
    ActionSpec("focus_list", "Go to &List", ("Escape",)),
    ActionSpec("add_note", "Add &Note at the Playing Position", ("B", "Ctrl+B")),
    ActionSpec("show_notes", "All No&tes", ("Ctrl+Shift+B",)),
    ActionSpec("delete_note", "&Delete Note", ("Delete",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("undo", "&Undo", ("Ctrl+Z",)),
    ActionSpec("redo", "&Redo", ("Ctrl+Shift+Z", "Ctrl+Y")),
    ActionSpec("add_article", "Add A&rticle…", ("Ctrl+Shift+N",)),
    ActionSpec("paste_link", "&Paste Link", ("Ctrl+V",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("add_links", "Add &Links from This Item…", ("Ctrl+L",)),
    ActionSpec("import_reading_list", "Import Reading &List…"),
    ActionSpec("export_reading_list", "Export Reading Lis&t…"),
    ActionSpec("toggle_read", "Mark &Read/Unread", ("R",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("toggle_archive", "&Archive/Unarchive", ("A",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("fetch_again", "Fetch Article A&gain"),
    ActionSpec("allow_images", "Load &Images of This Article", ("I",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("highlight", "&Highlight Selection", ("H",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("highlight_note", "Highlight with &Note…", ("Shift+H",), Qt.ShortcutContext.WidgetShortcut),
    ActionSpec("larger_text", "&Larger Text", ("Ctrl++", "Ctrl+=")),
    ActionSpec("smaller_text", "&Smaller Text", ("Ctrl+-",)),
    ActionSpec("dark_reader", "&Dark Reader", ("Ctrl+Alt+D",)),
    ActionSpec("continue_reading", "&Continue Reading", ("Ctrl+Shift+R",)),
)


class Actions:
    """The QActions of the main window, one attribute per spec name."""

    add_podcast: QAction
    load_sample: QAction
    import_opml: QAction
    export_opml: QAction
    export_notes: QAction
    backup_library: QAction
    refresh_all: QAction
    refresh_selected: QAction
    cancel_refresh: QAction
    set_password: QAction
    show_subscriptions: QAction
    quit: QAction
    play_selected: QAction
    play_pause: QAction
    skip_back: QAction
    skip_forward: QAction
    edit_tags: QAction
    toggle_favourite: QAction
    save_search: QAction
    rename_tag: QAction
    colour_tag: QAction
    delete_entry: QAction
    focus_search: QAction
    focus_list: QAction
    add_note: QAction
    show_notes: QAction
    delete_note: QAction
    undo: QAction
    redo: QAction
    add_article: QAction
    paste_link: QAction
    add_links: QAction
    import_reading_list: QAction
    export_reading_list: QAction
    toggle_read: QAction
    toggle_archive: QAction
    fetch_again: QAction
    allow_images: QAction
    highlight: QAction
    highlight_note: QAction
    larger_text: QAction
    smaller_text: QAction
    dark_reader: QAction
    continue_reading: QAction

    def __init__(self, parent: QWidget) -> None:
        self.all: dict[str, QAction] = {}
        for spec in SPECS:
            action = QAction(spec.text, parent)
            action.setObjectName(spec.name)
            action.setShortcuts([QKeySequence(s) for s in spec.shortcuts])
            action.setShortcutContext(spec.context)
            self.all[spec.name] = action
            setattr(self, spec.name, action)
