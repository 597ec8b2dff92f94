"""``earmark transcribe``: transcripts made on this machine by the local speech-recognition engine, one episode
at a time; with ``--queue --jsonl --background`` it is the window's worker (a process of its own at the lowest
priority, reporting progress as JSON lines, stopping at once on SIGTERM and storing nothing half-done)."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

from earmark.cli.common import count, print_json, record_id
from earmark.core.db.database import Database
from earmark.core.errors import EarmarkError, TranscribeError
from earmark.core.plurals import counted
from earmark.core.settings import get_setting

if TYPE_CHECKING:
    from earmark.core.transcribe.engine import Engine

PROGRESS_EVERY = 0.5  # seconds between progress lines
BACKGROUND_NICENESS = 19  # the lowest priority: the window and the player always come first


class Stopped(BaseException):
    """SIGTERM or SIGINT arrived: the episode being transcribed is left in the queue, nothing of it stored."""


def transcribe_command(command: argparse.ArgumentParser) -> None:
    """transcribe a downloaded episode on this machine (every downloaded episode without a transcript with --all)"""
    command.add_argument("item_id", nargs="?", type=record_id, metavar="ITEM_ID", help="the episode")
    command.add_argument("--all", action="store_true", help="every downloaded episode without a transcript")
    command.add_argument("--limit", type=count, metavar="N", help="with --all: at most N episodes")
    command.add_argument("--model", metavar="NAME_OR_FOLDER",
                         help="a model size (tiny, base, small, their .en variants) or a model folder "
                              "(default: the transcribe.model setting)")
    command.add_argument("--replace", action="store_true", help="replace the transcript the feed gives")
    command.add_argument("--json", action="store_true", help="print the transcript as JSON")
    command.add_argument("--queue", action="store_true", help="transcribe the episodes queued in the window")
    command.add_argument("--jsonl", action="store_true", help="print progress as JSON lines (as the window reads)")
    command.add_argument("--background", action="store_true",
                         help="run at the lowest CPU priority, in a process group of its own (as the window runs it)")
    command.set_defaults(run=_transcribe)


def _transcribe(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.db import transcribe_queue as queue  # imported when transcribing, not at every command

    if args.background and hasattr(os, "setpgid"):
        os.nice(BACKGROUND_NICENESS)
        os.setpgid(0, 0)  # the window can end it with anything it started at once
    if args.item_id is not None and (args.all or args.queue):
        raise TranscribeError("Give an episode's id, or --all, or --queue: not both.")
    if args.item_id is not None:
        return _one(db, args)
    if args.all:
        queue.enqueue_downloaded(db)
    elif args.queue:
        queue.enqueue_new_episodes(db)
    else:
        raise TranscribeError("Name the episode to transcribe (earmark transcribe ITEM_ID), or use --all.")
    return _run_queue(db, args)


def _one(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.transcribe.episode import audio_file, check_feed_kept, transcribe_item

    audio_file(db, args.item_id)  # a sentence before the engine loads: not downloaded, the file gone
    if not args.replace:
        check_feed_kept(db, args.item_id)
    engine = _engine(db, args, _fetch_progress)
    started = time.perf_counter()
    with _stopping():
        result = transcribe_item(db, engine, args.item_id, replace=args.replace)
    taken = round(time.perf_counter() - started, 2)
    if args.json:
        print_json({"item_id": args.item_id, "model": result.model, "language": result.language,
                    "duration": result.duration, "seconds_taken": taken,
                    "segments": [{"start": s.start, "end": s.end, "text": s.text} for s in result.segments]})
    else:
        print(f"Transcribed {len(result.segments)} segments ({result.duration:.0f} s of audio) in {taken} s "
              f"with the {result.model} model.")
    return 0


def _run_queue(db: Database, args: argparse.Namespace) -> int:
    """Transcribe the queued episodes one at a time (at most --limit), until none is left or a stop."""
    from earmark.core.db import transcribe_queue as queue
    from earmark.core.transcribe.episode import transcribe_item

    say = _reporter(args.jsonl)
    done = failed = 0
    item_id = queue.next_waiting(db)
    if item_id is None:
        say({"transcribed": 0, "failed": 0}, "No downloaded episode is waiting to be transcribed.")
        return 0
    try:
        engine = _engine(db, args, (lambda share, what: say({"progress": share, "what": what}, None)) if args.jsonl
                         else _fetch_progress)
    except EarmarkError as exc:  # no model (offline, a folder gone): every queued episode fails with its sentence,
        for waiting in queue.waiting(db):  # kept until the person asks again, not tried again at every start
            if waiting.error is None:
                queue.finished(db, waiting.item_id, str(exc))
        raise
    try:
        with _stopping():
            while item_id is not None and (args.limit is None or done + failed < args.limit):
                title = db.execute("SELECT title FROM items WHERE id = ?", [item_id]).fetchone()[0]
                say({"item_id": item_id, "title": title, "progress": 0.0}, f"Transcribing “{title}”…")
                try:
                    transcribe_item(db, engine, item_id, replace=args.replace,
                                    progress=_throttled(_item_progress(say, item_id)))
                except EarmarkError as exc:
                    queue.finished(db, item_id, str(exc))
                    failed += 1
                    say({"failed": item_id, "error": str(exc)}, f"Not transcribed: {exc}")
                else:
                    queue.finished(db, item_id)
                    done += 1
                    say({"done": item_id}, None)
                item_id = queue.next_waiting(db)
    except Stopped:
        say({"stopped": True}, "Stopped: the episodes not transcribed stay queued.")
        return 0
    say({"transcribed": done, "failed": failed}, f"Transcribed {counted(done, 'episode')} ({failed} could not be).")
    return 0


def _engine(db: Database, args: argparse.Namespace,
            progress: Callable[[float, str], None] | None = None) -> Engine:
    """The engine with the chosen model (the engine is imported here, in this process only)."""
    from earmark.core.transcribe.models import model_folder, require_engine

    require_engine()
    name = args.model or str(get_setting(db, "transcribe.model"))
    folder = model_folder(name, progress)
    from earmark.core.transcribe.engine import Engine

    return Engine(folder, name)


def _fetch_progress(share: float, what: str) -> None:
    """A model being fetched, on standard error (standard output keeps the JSON)."""
    print(f"\r{what}… {share:.0%}", end="\n" if share >= 1 else "", file=sys.stderr, flush=True)


def _reporter(jsonl: bool) -> Callable[[dict[str, object], str | None], None]:
    def say(message: dict[str, object], sentence: str | None) -> None:
        if jsonl:
            print(json.dumps(message, ensure_ascii=False), flush=True)
        elif sentence:
            print(sentence, file=sys.stderr if "error" in message else sys.stdout, flush=True)

    return say


def _item_progress(say: Callable[[dict[str, object], str | None], None], item_id: int) -> Callable[[float], None]:
    return lambda share: say({"item_id": item_id, "progress": round(share, 3)}, None)


def _throttled(report: Callable[[float], None]) -> Callable[[float], None]:
    last = 0.0

    def throttled(share: float) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY or share >= 1.0:
            last = now
            report(share)

    return throttled


def _stop(_signal: int, _frame: FrameType | None) -> None:
    raise Stopped


@contextmanager
def _stopping() -> Iterator[None]:
    """SIGTERM and SIGINT stop the work at once (raising Stopped) while inside."""
    previous = {number: signal.signal(number, _stop) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
