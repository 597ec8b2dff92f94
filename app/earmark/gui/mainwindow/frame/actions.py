"""Every main-window action with its menu, text and default shortcuts, declared once (docs/keyboard.md lists
them); the user's own shortcuts replace the defaults (setting ``keyboard.shortcuts``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from earmark.core.records import record
from earmark.gui.mainwindow.places import VIEWS_GO_TO
from earmark.gui.models.sidebar import ENTRIES_GO_TO

Widget = Qt.ShortcutContext.WidgetShortcut


@record(frozen=True)
class ActionSpec:
    """An action's name (attribute on Actions), menu, menu text, default shortcuts and where they apply."""

    name: str
    menu: str
    text: str
    shortcuts: tuple[str, ...] = ()
    context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut
    checkable: bool = False


GO_TO = (*ENTRIES_GO_TO, *VIEWS_GO_TO)  # declared beside the sidebar entries and views they show
SPECS = (
    ActionSpec("add_podcast", "File", "&Add Podcast…", ("Ctrl+N",)),
    ActionSpec("load_sample", "File", "Load &Sample Library"),
    ActionSpec("import_opml", "File", "&Import Subscriptions (OPML)…", ("Ctrl+O",)),
    ActionSpec("export_opml", "File", "&Export Subscriptions (OPML)…", ("Ctrl+Shift+E",)),
    ActionSpec("import_reading_list", "File", "Import Reading &List…"),
    ActionSpec("export_reading_list", "File", "Export Reading Lis&t…"),
    ActionSpec("export_notes", "File", "Export &Notes…"),
    ActionSpec("backup_library", "File", "&Back Up Library…"),
    ActionSpec("restore_backup", "File", "&Restore from Backup…"),
    ActionSpec("quit", "File", "&Quit", ("Ctrl+Q",)),
    ActionSpec("undo", "Edit", "&Undo", ("Ctrl+Z",)),
    ActionSpec("redo", "Edit", "&Redo", ("Ctrl+Shift+Z", "Ctrl+Y")),
    ActionSpec("delete_note", "Edit", "&Delete Note", ("Del",), Widget),
    ActionSpec("show_settings", "Edit", "Se&ttings…", ("Ctrl+,",)),
    ActionSpec("refresh_all", "Feeds", "&Refresh All Feeds", ("F5", "Ctrl+R")),
    ActionSpec("refresh_selected", "Feeds", "Refresh (Retry) &Selected Feeds", ("Shift+F5",)),
    ActionSpec("cancel_refresh", "Feeds", "S&top Refreshing"),
    ActionSpec("set_password", "Feeds", "Set Feed &Password…"),
    ActionSpec("unsubscribe", "Feeds", "U&nsubscribe…"),
    ActionSpec("podcast_settings", "Feeds", "Podcast Playback Settin&gs…", ("Ctrl+Shift+T",)),
    ActionSpec("sync_now", "Feeds", "S&ync Now", ("Ctrl+Shift+S",)),
    ActionSpec("play_selected", "Playback", "&Play Selected", ("Return", "Enter"), Widget),
    ActionSpec("play_pause", "Playback", "Pla&y/Pause", ("Space", "K")),
    ActionSpec("back_10", "Playback", "Back &10 Seconds", ("J",)),
    ActionSpec("forward_10", "Playback", "Forward 1&0 Seconds", ("L",)),
    ActionSpec("skip_back", "Playback", "Skip &Back", ("Left",)),
    ActionSpec("skip_forward", "Playback", "Skip &Forward", ("Right",)),
    ActionSpec("back_minute", "Playback", "Back 1 M&inute", ("Shift+Left",)),
    ActionSpec("forward_minute", "Playback", "Forward 1 Minu&te", ("Shift+Right",)),
    ActionSpec("previous_chapter", "Playback", "Previous C&hapter", ("Alt+PgUp", "PgUp")),  # PgUp: not in a list
    ActionSpec("next_chapter", "Playback", "Next &Chapter", ("Alt+PgDown", "PgDown")),
    ActionSpec("slower", "Playback", "Slo&wer", ("[",)),
    ActionSpec("faster", "Playback", "F&aster", ("]",)),
    ActionSpec("normal_speed", "Playback", "N&ormal Speed", ("Backspace",)),
    ActionSpec("mute", "Playback", "&Mute", ("M",), checkable=True),
    ActionSpec("volume_up", "Playback", "Volume &Up", ("Ctrl+Up",)),
    ActionSpec("volume_down", "Playback", "Volume &Down", ("Ctrl+Down",)),
    ActionSpec("voice_boost", "Playback", "&Voice Boost", ("Ctrl+Shift+V",), checkable=True),
    ActionSpec("skip_silence", "Playback", "S&kip Silence", ("Ctrl+Shift+X",), checkable=True),
    ActionSpec("add_note", "Playback", "Add &Note at the Playing Position", ("B", "Ctrl+B")),
    ActionSpec("sleep_15", "Playback", "Sleep in 1&5 Minutes"),
    ActionSpec("sleep_30", "Playback", "Sleep in &30 Minutes"),
    ActionSpec("sleep_minutes", "Playback", "Sleep in N Minut&es…"),
    ActionSpec("sleep_episode", "Playback", "&Sleep at End of Episode"),
    ActionSpec("sleep_chapter", "Playback", "Sleep at End of Chapte&r"),
    ActionSpec("sleep_off", "Playback", "Cance&l Sleep Timer"),
    ActionSpec("next_in_queue", "Up Next", "&Next in Up Next", ("Shift+N",)),
    ActionSpec("previous_in_queue", "Up Next", "&Previous in Up Next", ("Shift+P",)),
    ActionSpec("queue_last", "Up Next", "&Add to Up Next", ("Q",)),
    ActionSpec("queue_next", "Up Next", "Play Ne&xt", ("Shift+Q",)),
    ActionSpec("queue_remove", "Up Next", "&Remove from Up Next", ("Del",), Widget),
    ActionSpec("queue_up", "Up Next", "Move &Up in Up Next", ("Alt+Up",)),
    ActionSpec("queue_down", "Up Next", "Move &Down in Up Next", ("Alt+Down",)),
    ActionSpec("queue_clear", "Up Next", "&Clear Up Next"),
    ActionSpec("mark_played", "Episode", "Mar&k Played", ("Ctrl+M",)),
    ActionSpec("mark_unplayed", "Episode", "Mark &Unplayed", ("Ctrl+Shift+M",)),
    ActionSpec("download", "Episode", "&Download", ("Ctrl+D",)),
    ActionSpec("pause_download", "Episode", "Pause/Resume Do&wnload", ("Ctrl+Shift+D",)),
    ActionSpec("delete_download", "Episode", "D&elete Download"),
    ActionSpec("transcribe", "Episode", "&Transcribe", ("Ctrl+Alt+X",)),
    ActionSpec("transcribe_all", "Episode", "Transcribe &All Downloaded"),
    ActionSpec("transcribe_new", "Episode", "Transcribe &New Episodes of This Podcast"),
    ActionSpec("stop_transcribing", "Episode", "&Stop Transcribing"),
    ActionSpec("add_article", "Articles", "&Add Article…", ("Ctrl+Shift+N",)),
    ActionSpec("paste_link", "Articles", "&Paste Link", ("Ctrl+V",), Widget),
    ActionSpec("add_links", "Articles", "Add &Links from This Item…", ("Ctrl+L",)),
    ActionSpec("fetch_again", "Articles", "Fetch Article A&gain"),
    ActionSpec("toggle_read", "Articles", "Mark &Read/Unread", ("R",), Widget),
    ActionSpec("toggle_archive", "Articles", "Ar&chive/Unarchive", ("A",), Widget),
    ActionSpec("highlight", "Articles", "&Highlight Selection", ("H",), Widget),
    ActionSpec("highlight_note", "Articles", "Highlight with &Note…", ("Shift+H",), Widget),
    ActionSpec("allow_images", "Articles", "Load &Images of This Article", ("I",), Widget),
    ActionSpec("larger_text", "Articles", "Larger &Text", ("Ctrl++", "Ctrl+="), Widget),
    ActionSpec("smaller_text", "Articles", "&Smaller Text", ("Ctrl+-",), Widget),
    ActionSpec("dark_reader", "Articles", "&Dark Reader", ("D",), Widget, checkable=True),
    ActionSpec("edit_tags", "Organize", "Edit &Tags…", ("T",), Widget),
    ActionSpec("toggle_favourite", "Organize", "&Favourite", ("F",), Widget),
    ActionSpec("save_search", "Organize", "Save as S&mart List…", ("Ctrl+S",)),
    ActionSpec("rename_tag", "Organize", "&Rename Tag…", ("F2",), Widget),
    ActionSpec("colour_tag", "Organize", "Tag &Colour…"),
    ActionSpec("delete_entry", "Organize", "&Delete Tag or Smart List", ("Del",), Widget),
    ActionSpec("focus_search", "Go", "&Search", ("Ctrl+F", "/")),
    ActionSpec("focus_list", "Go", "Go to &List", ("Esc",)),
    ActionSpec("go_back", "Go", "Bac&k", ("Alt+Left",)),
    ActionSpec("go_forward", "Go", "&Forward", ("Alt+Right",)),
    ActionSpec("focus_view", "Go", "Go to the View Sho&wn", ("Ctrl+1",)),
    ActionSpec("focus_details", "Go", "Go to Det&ails", ("Ctrl+2",)),
    ActionSpec("focus_related", "Go", "Go to Relat&ed", ("Ctrl+3",)),
    ActionSpec("focus_notes", "Go", "Go to &Notes", ("Ctrl+4",)),
    ActionSpec("focus_transcript", "Go", "G&o to Transcript", ("Ctrl+5",)),
    ActionSpec("focus_queue", "Go", "Go to &Up Next", ("Ctrl+U", "Ctrl+6")),
    ActionSpec("focus_player", "Go", "Go to the &Player Bar", ("Ctrl+7",)),
    ActionSpec("focus_sidebar", "Go", "Go to Side&bar", ("Ctrl+8",)),
    ActionSpec("next_pane", "Go", "Ne&xt Pane", ("F6",)),
    ActionSpec("previous_pane", "Go", "Pre&vious Pane", ("Shift+F6",)),
    *(ActionSpec(go.name, go.menu, go.text, go.shortcuts) for go in GO_TO),
    ActionSpec("command_palette", "Help", "&Command Palette…", ("Ctrl+K",)),
    ActionSpec("cheat_sheet", "Help", "&Keyboard Shortcuts", ("?", "F1")),
    ActionSpec("edit_shortcuts", "Help", "C&ustomize Shortcuts…", ("Ctrl+Shift+K",)),
    ActionSpec("user_guide", "Help", "User &Guide"),
    ActionSpec("about", "Help", "&About Earmark"),
    ActionSpec("show_details_pane", "View", "&Details", ("Ctrl+Alt+1",)),
    ActionSpec("show_related_pane", "View", "&Related", ("Ctrl+Alt+2",)),
    ActionSpec("show_notes_pane", "View", "&Notes", ("Ctrl+Alt+3",)),
    ActionSpec("show_transcript_pane", "View", "&Transcript", ("Ctrl+Alt+4",)),
    ActionSpec("show_queue_pane", "View", "&Up Next", ("Ctrl+Alt+5",)),
    ActionSpec("reset_layout", "View", "Reset &Layout", ("Ctrl+Alt+0",)),
    ActionSpec("zoom_in", "Graph", "Zoom &In", ("+", "=", "Ctrl++"), Widget),
    ActionSpec("zoom_out", "Graph", "Zoom &Out", ("-", "Ctrl+-"), Widget),
    ActionSpec("fit_graph", "Graph", "&Fit the Graph", ("0", "Ctrl+0"), Widget),
    ActionSpec("queue_path", "Graph", "&Queue This Path"),
)
# Menu names with their mnemonics, in menu-bar order.
MENUS = {"File": "&File", "Edit": "&Edit", "View": "&View", "Feeds": "Fee&ds", "Playback": "&Playback",
         "Up Next": "&Up Next", "Episode": "Epi&sode", "Articles": "&Articles", "Organize": "&Organize", "Go": "&Go",
         "Graph": "G&raph", "Help": "&Help"}


def label(spec_text: str) -> str:
    """An action's text without its mnemonic ampersand."""
    return spec_text.replace("&", "")


def normalized(keys: Sequence[str]) -> tuple[str, ...]:
    """Shortcuts in Qt's portable spelling (``ctrl+k`` → ``Ctrl+K``), empty ones left out."""
    texts = (QKeySequence(k).toString(QKeySequence.SequenceFormat.PortableText) for k in keys)
    return tuple(t for t in texts if t)


def effective_shortcuts(overrides: Mapping[str, object]) -> dict[str, tuple[str, ...]]:
    """Every action's shortcuts: the user's where set (unknown names and malformed entries are ignored),
    else the defaults."""
    result = {spec.name: normalized(spec.shortcuts) for spec in SPECS}
    for name, keys in overrides.items():
        if name in result and isinstance(keys, list) and all(isinstance(k, str) for k in keys):
            result[name] = normalized(keys)
    return result


def conflicts(shortcuts: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Key sequences given to more than one action, with those actions' names. Actions whose shortcuts work
    only in their own widget (Delete in the sidebar, in the notes, in Up Next) may share a key with each
    other, never with a window-wide one."""
    users: dict[str, list[str]] = {}
    for name, keys in shortcuts.items():
        for key in keys:
            users.setdefault(key, []).append(name)
    scoped = {spec.name for spec in SPECS if spec.context == Widget}
    return {key: names for key, names in users.items() if len(names) > 1 and not set(names) <= scoped}


class Actions:
    """The QActions of the main window, one attribute per spec name (typed here for those the window's parts
    connect by name; the Go entries of GO_TO are wired by the window from their declarations, through ``all``)."""

    add_podcast: QAction
    load_sample: QAction
    import_opml: QAction
    export_opml: QAction
    import_reading_list: QAction
    export_reading_list: QAction
    export_notes: QAction
    backup_library: QAction
    restore_backup: QAction
    quit: QAction
    undo: QAction
    redo: QAction
    delete_note: QAction
    refresh_all: QAction
    refresh_selected: QAction
    cancel_refresh: QAction
    set_password: QAction
    unsubscribe: QAction
    podcast_settings: QAction
    sync_now: QAction
    play_selected: QAction
    play_pause: QAction
    back_10: QAction
    forward_10: QAction
    skip_back: QAction
    skip_forward: QAction
    back_minute: QAction
    forward_minute: QAction
    previous_chapter: QAction
    next_chapter: QAction
    slower: QAction
    faster: QAction
    normal_speed: QAction
    mute: QAction
    volume_up: QAction
    volume_down: QAction
    voice_boost: QAction
    skip_silence: QAction
    add_note: QAction
    sleep_15: QAction
    sleep_30: QAction
    sleep_minutes: QAction
    sleep_episode: QAction
    sleep_chapter: QAction
    sleep_off: QAction
    next_in_queue: QAction
    previous_in_queue: QAction
    queue_last: QAction
    queue_next: QAction
    queue_remove: QAction
    queue_up: QAction
    queue_down: QAction
    queue_clear: QAction
    mark_played: QAction
    mark_unplayed: QAction
    download: QAction
    pause_download: QAction
    delete_download: QAction
    transcribe: QAction
    transcribe_all: QAction
    transcribe_new: QAction
    stop_transcribing: QAction
    add_article: QAction
    paste_link: QAction
    add_links: QAction
    fetch_again: QAction
    toggle_read: QAction
    toggle_archive: QAction
    highlight: QAction
    highlight_note: QAction
    allow_images: QAction
    larger_text: QAction
    smaller_text: QAction
    dark_reader: QAction
    edit_tags: QAction
    toggle_favourite: QAction
    save_search: QAction
    rename_tag: QAction
    colour_tag: QAction
    delete_entry: QAction
    focus_search: QAction
    focus_list: QAction
    go_back: QAction
    go_forward: QAction
    focus_view: QAction
    focus_details: QAction
    focus_related: QAction
    focus_notes: QAction
    focus_transcript: QAction
    focus_queue: QAction
    focus_player: QAction
    focus_sidebar: QAction
    next_pane: QAction
    previous_pane: QAction
    command_palette: QAction
    cheat_sheet: QAction
    edit_shortcuts: QAction
    user_guide: QAction
    about: QAction
    show_details_pane: QAction
    show_related_pane: QAction
    show_notes_pane: QAction
    show_transcript_pane: QAction
    show_queue_pane: QAction
    reset_layout: QAction
    zoom_in: QAction
    zoom_out: QAction
    fit_graph: QAction
    queue_path: QAction
    show_settings: QAction

    def __init__(self, parent: QWidget, overrides: Mapping[str, object] | None = None) -> None:
        self.all: dict[str, QAction] = {}
        for spec in SPECS:
            action = QAction(spec.text, parent)
            action.setObjectName(spec.name)
            action.setShortcutContext(spec.context)
            action.setCheckable(spec.checkable)
            self.all[spec.name] = action
            setattr(self, spec.name, action)
        self.apply_shortcuts(overrides or {})

    def apply_shortcuts(self, overrides: Mapping[str, object]) -> None:
        """Give every action the user's shortcuts, or its defaults."""
        for name, keys in effective_shortcuts(overrides).items():
            self.all[name].setShortcuts([QKeySequence(k) for k in keys])

    def shortcuts(self, name: str) -> tuple[str, ...]:
        """An action's current shortcuts, in Qt's portable spelling."""
        return normalized([s.toString() for s in self.all[name].shortcuts()])
