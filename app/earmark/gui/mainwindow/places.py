"""Where the window's central area is: a view, and for the item list the sidebar entry it shows; written as text
to be shown again at the next start."""

from __future__ import annotations

import json
from dataclasses import field

from earmark.core.db.filters import ItemFilter
from earmark.core.errors import EarmarkError
from earmark.core.records import record

# The views of the central area, by name (a sidebar row that shows a view holds its name; see gui/models/sidebar.py).
LIST, SUBSCRIPTIONS, NOTES, GRAPH, READER = "list", "subscriptions", "notes", "graph", "reader"
STATISTICS, PODCASTS, ASK = "statistics", "podcasts", "ask"
VIEWS = (LIST, SUBSCRIPTIONS, NOTES, GRAPH, READER, STATISTICS, PODCASTS, ASK)
LEARNING_PATH = "path"  # the graph's mode that shows the learning path of the selected item


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


@record(frozen=True)
class GoTo:
    """A menu entry that shows a place, declared once beside what it shows: the name of its action (its key in
    the ``keyboard.shortcuts`` setting), its menu, text and default shortcuts. The window makes the action and
    wires it to the navigator; docs/keyboard.md lists it."""

    name: str
    menu: str
    text: str
    shortcuts: tuple[str, ...]
    place: Place


VIEWS_GO_TO = (
    GoTo("show_subscriptions", "Feeds", "S&ubscriptions", ("Ctrl+Shift+U",), Place(SUBSCRIPTIONS)),
    GoTo("show_notes", "Go", "All No&tes", ("Ctrl+Shift+B",), Place(NOTES)),
    GoTo("show_graph", "Go", "Topic &Graph", ("Ctrl+G",), Place(GRAPH)),
    GoTo("show_learning_path", "Go", "Learning Pat&h of the Selected Item", ("Ctrl+Shift+G",),
         Place(GRAPH, mode=LEARNING_PATH)),
    GoTo("show_statistics", "Go", "Stat&istics", ("Ctrl+Shift+I",), Place(STATISTICS)),
    GoTo("show_podcasts", "Go", "&My Podcasts", ("Ctrl+Shift+P",), Place(PODCASTS)),
    GoTo("show_ask", "Go", "Ask the Librar&y", ("Ctrl+Shift+A",), Place(ASK)),
)


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
