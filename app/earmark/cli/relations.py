"""``earmark update-relations``: bring the topic graph's relations up to date, the way the window runs it (a
process of its own at low priority, reporting progress as JSON lines, stopping at once on SIGTERM)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from earmark.core.db.database import Database
from earmark.core.plurals import counted

PROGRESS_EVERY = 0.25  # seconds between progress lines
# Low, not the lowest: a pass starved of CPU while it holds the library's write lock for a block would keep the
# window's own writes (the playing position) waiting.
BACKGROUND_NICENESS = 10


class Stopped(BaseException):
    """SIGTERM or SIGINT arrived: the pass stops where it is (the block being written is rolled back)."""


def update_relations_command(update: argparse.ArgumentParser) -> None:
    """work out the related items of new and changed items (all of them with --full)"""
    update.add_argument("--full", action="store_true", help="work out every item again")
    update.add_argument("--jsonl", action="store_true",
                        help="print progress as JSON lines ({progress, what}), then {items, full, seconds, steps}")
    update.add_argument("--background", action="store_true",
                        help="run at a low CPU priority, in a process group of its own (as the window runs it)")
    update.set_defaults(run=_update_relations, before_open=_copy_wal_meanwhile)


def _stop(_signal: int, _frame: FrameType | None) -> None:
    raise Stopped


def _copy_wal_meanwhile(library: Path, args: argparse.Namespace) -> None:
    """Copy what the window and the last update left in the WAL into the library file while this update opens the
    library and reads and analyses its items: it waits for the copy before it writes, so its own pages then start
    the WAL afresh and its commit copies nothing (core/db/checkpoint.py)."""
    from earmark.core.db.checkpoint import checkpoint_meanwhile

    args.checkpoint = checkpoint_meanwhile(library)


def _update_relations(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.topics.build import update_relations

    checkpoint = args.checkpoint

    if args.background and hasattr(os, "setpgid"):
        os.nice(BACKGROUND_NICENESS)  # the worker processes of the pass inherit it
        os.setpgid(0, 0)  # a process group of its own, its workers included: the window can end them all at once
    last = 0.0

    def report(share: float, what: str) -> None:
        nonlocal last
        now = time.monotonic()
        if args.jsonl and now - last >= PROGRESS_EVERY:
            last = now
            print(json.dumps({"progress": round(share, 3), "what": what}), flush=True)

    previous = {number: signal.signal(number, _stop) for number in (signal.SIGTERM, signal.SIGINT)}
    started = time.perf_counter()
    try:
        result = update_relations(db, report, full=args.full, before_writing=checkpoint.join)
    except Stopped:
        if args.jsonl:
            print(json.dumps({"stopped": True}), flush=True)
        else:
            print("Stopped: what was worked out is kept; the rest is worked out next time.", file=sys.stderr)
        return 0
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    checkpoint.join()  # stopped, it is left to end with the process (SQLite's copy survives any interruption)
    seconds = round(time.perf_counter() - started, 2)
    if args.jsonl:
        print(json.dumps({"items": result.items, "full": result.full, "seconds": seconds,
                          "steps": {name: round(s, 2) for name, s in result.steps.items()}}), flush=True)
    elif result.items:
        which = "all" if result.full else "new or changed"
        print(f"Related items worked out for {counted(result.items, 'item')} ({which}) in {seconds} s.")
    else:
        print("Related items are up to date.")
    return 0
