"""A screen reader can use the window (issue 17): read through the accessibility bus (AT-SPI) of the real app
process, every control has a name and a description, tables and lists expose their rows, the keyboard focus is
where the keys put it, and playing, the speed, mute and the sleep timer are announced."""

from __future__ import annotations

from helpers.screen_reader import AccessibleApp
from helpers.waiting import wait_for

CONTROLS = {"push button", "toggle button", "check box", "radio button", "combo box", "spin button", "slider",
            "text", "password text", "table", "tree table", "tree", "list", "page tab", "popup menu"}
PARTS = {"combo box"}  # a combo box's own popup list is read with the combo box
EPISODE = "Compiler collectives"


def with_parents(tree: list[dict[str, object]]) -> list[tuple[dict[str, object], list[str]]]:
    """Each object with the roles of the objects it is inside."""
    chain: list[str] = []
    found = []
    for node in tree:
        depth = int(str(node["depth"]))
        del chain[depth:]
        found.append((node, list(chain)))
        chain.append(str(node["role"]))
    return found


def test_every_control_has_a_name_and_a_description(accessible_app: AccessibleApp) -> None:
    tree = accessible_app.tree()
    unnamed, undescribed = [], []
    for node, parents in with_parents(tree):
        if node["role"] not in CONTROLS or PARTS & set(parents) or node["role"] == "popup menu" and not parents:
            continue
        if not node["name"]:
            unnamed.append(f"{node['role']} in {' > '.join(parents[-3:])}")
        elif not node["description"] and node["role"] != "popup menu":
            undescribed.append(f"{node['role']} {node['name']!r}")
    assert unnamed == [], unnamed
    assert undescribed == [], "\n".join(undescribed)


def exposed(accessible_app: AccessibleApp) -> tuple[list[str], list[str]]:
    """The item list's cells and the sidebar's entries, as the bus shows them now."""
    nodes = with_parents(accessible_app.tree())
    cells = [str(node["name"]) for node, parents in nodes if node["role"] == "table cell" and "table" in parents]
    sidebar = [str(node["name"]) for node, parents in nodes if "tree" in parents and node["name"]]
    return cells, sidebar


def test_tables_and_lists_expose_their_rows(accessible_app: AccessibleApp) -> None:
    # Read again until both are there, as a screen reader reads on: the window fills the list and the sidebar after
    # its first frame, and a single read early on missed the sidebar's entries once in CI under load (they were
    # then made anew whenever a count changed; now only new rows make them anew: test_sidebar_counts.py).
    found: list[tuple[list[str], list[str]]] = []

    def both_shown() -> bool:
        found.append(exposed(accessible_app))
        cells, sidebar = found[-1]
        return EPISODE in cells and any(name.startswith("Podcasts (") for name in sidebar)

    try:
        wait_for(both_shown, 20, "the list's rows and the sidebar's entries on the accessibility bus", poll=0.5)
    finally:
        cells, sidebar = found[-1]
        assert EPISODE in cells  # the item list's rows
        assert any(name.startswith("Podcasts (") for name in sidebar), sidebar


def test_the_focus_is_where_the_keys_put_it(accessible_app: AccessibleApp) -> None:
    """As a screen reader follows the focus: by the focus changes the app reports on the bus."""
    reader = accessible_app
    listener = reader.listen()
    try:
        expected = {"ctrl+2": "Item details", "ctrl+3": "Related items", "ctrl+6": "Up next",
                    "ctrl+7": "Play or pause", "ctrl+8": "Library sections", "ctrl+f": "Search"}
        for key, name in expected.items():
            reader.keys(key)
            focused = listener.next_focus()
            assert focused["name"] == name, f"{key}: {focused}"
        reader.keys("Escape", "Tab")  # Esc goes to the list (nothing typed to clear), Tab on to the details
        assert listener.next_focus()["name"] == "Item details"
    finally:
        listener.stop()


def test_playing_speed_mute_and_the_sleep_timer_are_announced(accessible_app: AccessibleApp) -> None:
    reader = accessible_app
    listener = reader.listen()
    try:
        reader.keys("ctrl+1", "Home", "Down", "Return")  # the second row, an episode, plays
        reader.keys("bracketright", "m", "ctrl+k")
        reader.xdotool("type", "--delay", "40", "sleep in 15")
        reader.keys("Return", "space")
        said = listener.said(3)
    finally:
        listener.stop()
    for expected in ("Playing", "Speed 1.05×", "Muted", "Sleep in 15 min", "Paused"):
        assert expected in said, f"{expected!r} not announced: {said}"
