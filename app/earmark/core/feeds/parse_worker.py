"""What the feed-parsing processes run: first ``start_parser`` (a lower priority, and a watch on the process that
started them: killed with SIGKILL, that process cannot stop its parsing processes; they would wait for work forever,
and keep the forkserver and the resource tracker alive with them, so they end themselves once it is gone), then the
parses, whose FeedData goes back as plain tuples (``packed``)."""

from __future__ import annotations

import gc
import os
import threading
import time
from dataclasses import fields
from operator import attrgetter
from pathlib import Path
from typing import Any

from earmark.core.models import EntryData, FeedData

CHECK_SECONDS = 0.5
# Parsing processes run this much nicer than the process that started them: as many as the cores, they took an
# equal share of the CPU from that process, whose writer (or GUI) then waited behind them; now it keeps its core while
# it works, and they take every core when it waits. Bench first import on 2 cores, 4 alternating rounds at load
# 3.3-3.6: median 3.54 s at niceness 10, 3.75 s at 5, 3.77 s at the same priority (and one parsing process instead of
# two, tried before: 3.57 s vs 3.77 s at load 2.7; faster parsing or storing would leave a core idle). The price: beside
# another program busy on a core, the parsers get less of the machine (3 rounds: 5.4, 9.6, 7.3 s; at the same
# priority 4.4, 8.5, 7.2 s).
NICENESS = 10
# FeedData travels as its fields' values, its entries as tuples in EntryData's field order: pickling a slotted
# dataclass calls its __getstate__/__setstate__ in Python, for 30,000 entries ~0.13 s to send and as much to
# receive (in the process that stores them), three times what the tuples cost (and a third fewer bytes).
_FEED_FIELDS = tuple(field.name for field in fields(FeedData) if field.name != "entries")
_feed_values = attrgetter(*_FEED_FIELDS)
_entry_values = attrgetter(*(field.name for field in fields(EntryData)))
Packed = tuple[tuple[Any, ...], list[tuple[Any, ...]]]


def start_parser(parent: int) -> None:
    """The parsing process's start: a lower priority (where the system has priorities), and ``watch_parent``."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)
    watch_parent(parent)


def watch_parent(parent: int) -> None:
    """Start a daemon thread that ends this process when ``parent`` (a process id) is gone."""

    def watch() -> None:
        while alive(parent):
            time.sleep(CHECK_SECONDS)
        os._exit(0)  # nothing to clean up: a parsing process holds no files and no library connection

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, killed but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc (not Linux): the signal test above is all there is
    return state not in ("Z", "X")


def parsed(with_text: bool, data: bytes, url: str, content_type: str | None) -> FeedData:
    """``parse_with_text`` (or ``parse_feed`` when not ``with_text``)."""
    from earmark.core.feeds.parse import parse_feed, parse_with_text  # deferred: an unchanged feed needs neither

    return (parse_with_text if with_text else parse_feed)(data, url, content_type)


def parse_packed(with_text: bool, data: bytes, url: str, content_type: str | None) -> Packed:
    """``parsed``, as ``packed`` gives it: what a parsing process sends back. The garbage collector waits meanwhile:
    a parse makes few cycles but many objects (a big feed's tree), which made it run hundreds of times per import
    for nothing (~5 % of the parsing)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return packed(parsed(with_text, data, url, content_type))
    finally:
        if collecting:
            gc.enable()


def packed(feed: FeedData) -> Packed:
    """``feed`` as tuples of its fields' values (its entries' in field order), for ``unpacked``."""
    return _feed_values(feed), list(map(_entry_values, feed.entries))


def unpacked(values: Packed) -> FeedData:
    """The FeedData that ``packed`` was given."""
    feed, entries = values
    return FeedData(**dict(zip(_FEED_FIELDS, feed, strict=True)), entries=[EntryData(*entry) for entry in entries])
