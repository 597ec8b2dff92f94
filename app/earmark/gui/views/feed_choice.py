"""Which feed to subscribe to, when a podcast's web page names several (audio and video, or by language)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QWidget

from earmark.core.feeds.addresses import PageFeeds
from earmark.core.plurals import counted
from earmark.core.urls import shown_address


def choose_feed(parent: QWidget, found: PageFeeds, on_chosen: Callable[[str], None]) -> QInputDialog:
    """Ask, without blocking the event loop, which of the page's feeds to subscribe to; ``on_chosen(url)``."""
    dialog = QInputDialog(parent)
    dialog.setObjectName("feedChoiceDialog")
    dialog.setWindowTitle("Choose a Feed")
    dialog.setLabelText(f"{shown_address(found.page)} names {counted(len(found.feeds), 'feed')}. Subscribe to:")
    labels = [f"{choice.title} ({choice.kind}) — {choice.url}" for choice in found.feeds]
    dialog.setComboBoxItems(labels)
    dialog.setOkButtonText("Subscribe")
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.textValueSelected.connect(lambda label: on_chosen(found.feeds[labels.index(label)].url))
    dialog.open()
    return dialog
