"""What the person has selected, whichever view shows: items in the list, feeds in Subscriptions."""

from __future__ import annotations

from collections.abc import Callable

from earmark.core.models import Item
from earmark.gui.mainwindow.navigation.item_list import ListController
from earmark.gui.mainwindow.places import SUBSCRIPTIONS
from earmark.gui.views.subscriptions import SubscriptionsView


class Selection:
    """The items selected in ``lists`` and the feeds selected in ``subscriptions``; ``showing()`` names the view
    shown (the feeds count while Subscriptions shows, else the feeds of the selected items)."""

    def __init__(self, lists: ListController, subscriptions: SubscriptionsView, showing: Callable[[], str]) -> None:
        self._lists = lists
        self._subscriptions = subscriptions
        self._showing = showing

    def selected_item(self) -> Item | None:
        """The current item of the list, read in full."""
        return self._lists.selected_item()

    def selected_item_ids(self) -> list[int]:
        """The ids of the selected items, in list order."""
        return self._lists.selected_item_ids()

    def selected_episode_ids(self) -> list[int]:
        """The selected episodes, in list order."""
        return self._lists.selected_episode_ids()

    def select_item(self, item_id: int) -> None:
        """Select the item in the list (once the list has it)."""
        self._lists.select_item(item_id)

    def in_subscriptions(self) -> bool:
        """Whether the Subscriptions view shows (then the feeds selected there are what commands work on)."""
        return self._showing() == SUBSCRIPTIONS

    def selected_source_ids(self) -> list[int]:
        """The feeds selected in Subscriptions, else the feeds of the selected items."""
        if self.in_subscriptions():
            return self._subscriptions.selected_source_ids()
        return list(dict.fromkeys(item.source_id for item in self._lists.selected_items() if item.source_id))

    def selected_source_id(self) -> int | None:
        """The first of ``selected_source_ids``."""
        ids = self.selected_source_ids()
        return ids[0] if ids else None
