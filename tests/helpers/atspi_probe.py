"""What a screen reader gets from Earmark, read through the accessibility bus (AT-SPI). Run with the system
Python that has Debian's python3-pyatspi (``/usr/bin/python3 atspi_probe.py COMMAND``) on the session bus of the
app (DBUS_SESSION_BUS_ADDRESS); prints JSON.

Commands: ``tree`` (every object of the app: role, name, description, states, child count, depth),
``focused`` (the object with the keyboard focus), ``listen SECONDS`` (the announcements and focus changes
the app sends during that time, printed as they come, one JSON object a line, after a line ``ready``)."""

from __future__ import annotations

import json
import sys
import time

import pyatspi  # type: ignore[import-not-found]
from gi.repository import GLib  # type: ignore[import-not-found]

APP = "earmark"
SKIPPED_ROLES = {"scroll bar"}  # not read out by themselves
HEARD = {"object:announcement", "object:state-changed:focused"}
MAX_CHILDREN = 60  # a long table's rows: the first ones say enough


def app() -> object:
    """The Earmark application on the bus (waits up to 30 s for it)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            child = desktop.getChildAtIndex(index)
            if child is not None and (child.name or "").lower().startswith(APP):
                return child
        time.sleep(0.3)
    raise SystemExit("Earmark is not on the accessibility bus")


def describe(node: object, depth: int) -> dict[str, object]:
    states = node.getState()  # type: ignore[attr-defined]
    return {"role": node.getRoleName(), "name": node.name or "", "description": node.description or "",  # type: ignore[attr-defined]
            "focused": states.contains(pyatspi.STATE_FOCUSED), "focusable": states.contains(pyatspi.STATE_FOCUSABLE),
            "showing": states.contains(pyatspi.STATE_SHOWING), "children": node.childCount, "depth": depth}  # type: ignore[attr-defined]


def walk(node: object, depth: int = 0) -> list[dict[str, object]]:
    """``node`` and what it holds. An object that goes away while it is read (a tooltip or a status message
    closing, a list row read again) is left out, as a screen reader leaves it: it is not there any more."""
    try:
        found = [describe(node, depth)]
        children = [node.getChildAtIndex(index)  # type: ignore[attr-defined]
                    for index in range(min(node.childCount, MAX_CHILDREN))]  # type: ignore[attr-defined]
    except GLib.GError:
        return []
    for child in children:
        try:
            role = child.getRoleName() if child is not None else None
        except GLib.GError:
            continue
        if role is not None and role not in SKIPPED_ROLES:
            found.extend(walk(child, depth + 1))
    return found


def focused(node: object, depth: int = 0) -> dict[str, object] | None:
    if node.getState().contains(pyatspi.STATE_FOCUSED):  # type: ignore[attr-defined]
        return describe(node, depth)
    for index in range(min(node.childCount, 500)):  # type: ignore[attr-defined]
        child = node.getChildAtIndex(index)  # type: ignore[attr-defined]
        if child is not None and child.getState().contains(pyatspi.STATE_SHOWING):
            hit = focused(child, depth + 1)
            if hit is not None:
                return hit
    return None


def listen(seconds: float) -> None:
    def heard(event: object) -> None:
        if event.type not in HEARD:  # type: ignore[attr-defined]
            return
        source = event.source  # type: ignore[attr-defined]
        said = {"type": event.type, "detail": event.detail1, "text": str(event.any_data or ""),  # type: ignore[attr-defined]
                "role": source.getRoleName() if source else "", "name": (source.name or "") if source else ""}
        print(json.dumps(said), flush=True)

    app()
    pyatspi.Registry.registerEventListener(heard, "object")  # libatspi 2.46 passes announcements only this way
    print("ready", flush=True)
    GLib.timeout_add(int(seconds * 1000), pyatspi.Registry.stop)
    pyatspi.Registry.start()


def main(argv: list[str]) -> None:
    command = argv[1] if len(argv) > 1 else "tree"
    if command == "tree":
        print(json.dumps(walk(app())))
    elif command == "focused":
        print(json.dumps(focused(app())))
    elif command == "listen":
        listen(float(argv[2]))
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv)
