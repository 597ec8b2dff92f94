"""Where the window's central area is: a view, and for the item list the sidebar entry it shows; written as text
to be shown again at the next start."""

from __future__ import annotations

import json
from dataclasses import field

from earmark.core.db.queries import ItemFilter
from earmark.core.errors import EarmarkError
from earmark.core.records import record

LIST, SUBSCRIPTIONS, NOTES, GRAPH, READER = "list", "subscriptions", "notes", "graph", "reader"
STATISTICS, ASK = "statistics", "ask"
VIEWS = (LIST, SUBSCRIPTIONS, NOTES, GRAPH, READER, STATISTICS, ASK)


@record(frozen=True)
class Place:
    """A place in the window: ``view``, with the list's sidebar ``entry`` (and ``smart_list`` id), the reader's
    ``item_id``, or the graph's ``mode`` ("" for the graph as last arranged, "path" for the learning path of the
    selected item).

    The fields after ``mode`` keep how the view looked when it was left (search text, filter bar, the selected
    item), so that Back shows it again; they do not make it another place.
    """

    view: str
    entry: ItemFilter | None = None
    smart_list: int | None = None
    item_id: int | None = None
    mode: str = ""
    text: str = field(default="", compare=False)
    narrowed: ItemFilter | None = field(default=None, compare=False)
    selected: int | None = field(default=None, compare=False)


ALL = Place(LIST, ItemFilter())


def entry_place(entry: ItemFilter, smart_list: int | None = None) -> Place:
    """The list as a sidebar entry shows it: a smart list brings its search text and filters, any other entry
    shows all it holds."""
    if smart_list is None:
        return Place(LIST, entry)
    return Place(LIST, entry, smart_list, text=entry.text, narrowed=entry)


def place_key(place: Place) -> str:
    """``place`` as text that survives a restart."""
    key: dict[str, object] = {"view": place.view}
    if place.smart_list is not None:
        key["smart"] = place.smart_list
    elif place.entry is not None:
        key["filter"] = json.loads(place.entry.to_json())
    if place.item_id is not None:
        key["item"] = place.item_id
    if place.mode:
        key["mode"] = place.mode
    return json.dumps(key)


def key_place(text: str) -> Place | None:
    """The place a ``place_key`` names (None for text that names none). A list place's entry is checked
    against the sidebar before it is shown."""
    try:
        key = json.loads(text)
        view = key["view"]
        if view not in VIEWS:
            return None
        entry = ItemFilter.from_json(json.dumps(key["filter"])) if "filter" in key else None
        smart = key.get("smart")
        item = key.get("item")
        mode = key.get("mode", "")
    except (ValueError, TypeError, KeyError, AttributeError, EarmarkError):
        return None
    if not (isinstance(smart, int | None) and isinstance(item, int | None) and isinstance(mode, str)):
        return None
    if view == LIST and entry is None and smart is None:
        return None
    return Place(view, entry, smart, item, mode)
