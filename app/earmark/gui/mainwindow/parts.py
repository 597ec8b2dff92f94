"""What the main window builds after its first paint: the controllers, views and panes beyond the list, and the
wiring they need. Importing them costs more than building the list (the graph, the reader, the notes, the
statistics, downloads, sync, MPRIS...), so the window imports this module only once the list has shown its
first rows (see ``MainWindow``); a window built at once (tests, a restore) imports it straight away."""

from earmark.core.artwork import artwork_url
from earmark.gui.accessibility import Announcer, make_readable
from earmark.gui.covers.wiring import WindowCovers
from earmark.gui.library_watch import LibraryWatch
from earmark.gui.mainwindow.frame.desktop import DesktopController, Followers
from earmark.gui.mainwindow.frame.docks import Pane, PaneDocks
from earmark.gui.mainwindow.frame.help import HelpController
from earmark.gui.mainwindow.frame.pane_keys import pane_keys
from earmark.gui.mainwindow.library.backups import BackupsController
from earmark.gui.mainwindow.library.feeds import FeedsController
from earmark.gui.mainwindow.library.graph import GraphController
from earmark.gui.mainwindow.library.notes import NotesController
from earmark.gui.mainwindow.library.organize import OrganizeController
from earmark.gui.mainwindow.library.subscribing import SubscribeController
from earmark.gui.mainwindow.library.sync import SyncController
from earmark.gui.mainwindow.listening.episodes import EpisodeController
from earmark.gui.mainwindow.listening.playback import PlaybackController
from earmark.gui.mainwindow.listening.player_bar import PlayerBar, player_tool_bar
from earmark.gui.mainwindow.listening.player_status import dialog_when_needed
from earmark.gui.mainwindow.listening.queue import QueueController
from earmark.gui.mainwindow.listening.silence import SilenceController
from earmark.gui.mainwindow.listening.transcription import TranscriptionController
from earmark.gui.mainwindow.navigation.ask import AskController
from earmark.gui.mainwindow.navigation.item_panes import ItemPanes
from earmark.gui.mainwindow.navigation.opening import ItemOpener
from earmark.gui.mainwindow.navigation.search_keys import SearchKeys
from earmark.gui.mainwindow.navigation.selection import Selection
from earmark.gui.mainwindow.navigation.statistics import StatisticsController
from earmark.gui.mainwindow.reading.articles import ArticlesController
from earmark.gui.mainwindow.reading.reading import ReadingController
from earmark.gui.models.queue import QueueModel
from earmark.gui.mpris import Mpris
from earmark.gui.views.detail import DetailPane
from earmark.gui.views.queue import QueueView
from earmark.gui.views.recovery import RecoveryDialogs
from earmark.gui.views.subscriptions import SubscriptionsView

__all__ = [
    "Announcer", "ArticlesController", "AskController", "BackupsController", "DesktopController", "DetailPane",
    "EpisodeController", "FeedsController", "Followers", "GraphController", "HelpController", "ItemOpener",
    "ItemPanes", "LibraryWatch", "Mpris", "NotesController", "OrganizeController", "Pane", "PaneDocks",
    "PlaybackController", "PlayerBar", "QueueController", "QueueModel", "QueueView",
    "ReadingController", "RecoveryDialogs", "SearchKeys", "Selection", "SilenceController", "StatisticsController",
    "SubscribeController", "SubscriptionsView", "SyncController", "TranscriptionController", "WindowCovers",
    "artwork_url", "dialog_when_needed", "make_readable", "pane_keys", "player_tool_bar",
]
