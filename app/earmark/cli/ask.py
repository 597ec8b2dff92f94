"""``earmark ask``: the passages of the library that answer a question, each with its moment; and
``earmark index-passages``, which brings the passage index up to date (the window runs it in a process of its
own as transcripts and items arrive)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from earmark.cli.common import count, print_json
from earmark.core.db.database import Database
from earmark.core.plurals import counted
from earmark.core.timefmt import format_clock

BACKGROUND_NICENESS = 10


def ask_command(ask: argparse.ArgumentParser) -> None:
    """find the passages (with their moment) that answer a question"""
    ask.add_argument("question", nargs="+", help="a question, or a half-remembered phrase")
    ask.add_argument("--limit", type=count, default=10, metavar="N", help="at most N answers (default 10)")
    ask.add_argument("--json", action="store_true",
                     help="print a JSON list of {item_id, title, kind, at, end, text, score, source}")
    ask.set_defaults(run=_ask)


def index_passages_command(index: argparse.ArgumentParser) -> None:
    """bring the passage index that Ask reads up to date with the library"""
    index.add_argument("--jsonl", action="store_true",
                       help="print progress as JSON lines ({progress, what}), then {items, dropped, passages, "
                            "seconds, model}")
    index.add_argument("--background", action="store_true", help="run at a low CPU priority (as the window runs it)")
    index.add_argument("--no-fetch", action="store_true",
                       help="never fetch the sentence model: without it here, index the words alone (as the window "
                            "does after a refresh; the vectors follow once the model is fetched)")
    index.set_defaults(run=_index)


def _ask(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.passages.session import asker, load_embedder, update_index

    embedder, why = load_embedder(db, fetch=True, progress=_fetch_progress)
    if why:
        print(f"earmark: {why}", file=sys.stderr)
    if not args.read_only:
        update_index(db, args.library, embedder)
    answers = asker(db, args.library, embedder).ask(" ".join(args.question), args.limit)
    if args.json:
        print_json([answer.as_json() for answer in answers])
        return 0
    if not answers:
        print("Nothing in the library answers that.")
    for answer in answers:
        where = f" at {format_clock(answer.at)}" if answer.at is not None else ""
        print(f"{answer.item_id}\t{answer.title}{where} ({answer.source.replace('_', ' ')})\n    {answer.text}")
    return 0


def _fetch_progress(share: float, what: str) -> None:
    print(f"{what}: {share:.0%}", file=sys.stderr)


def _index(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.passages.session import load_embedder, update_index

    if args.background and hasattr(os, "nice"):
        os.nice(BACKGROUND_NICENESS)

    def fetching(share: float, what: str) -> None:
        if args.jsonl:
            print(json.dumps({"progress": round(share, 3), "what": what}), flush=True)

    def indexing(done: int, total: int) -> None:
        if args.jsonl:
            print(json.dumps({"progress": round(done / total, 3), "what": "Indexing passages"}), flush=True)

    embedder, why = load_embedder(db, fetch=not args.no_fetch, progress=fetching)
    if why and not args.jsonl:
        print(f"earmark: {why}", file=sys.stderr)
    result = update_index(db, args.library, embedder, indexing)
    if args.jsonl:
        print(json.dumps({"items": result.items, "dropped": result.dropped, "passages": result.passages,
                          "seconds": result.seconds, "model": result.model, "words_alone": why}), flush=True)
    else:
        print(f"Passages indexed: {counted(result.passages, 'passage')} of {counted(result.items, 'item')} "
              f"in {result.seconds} s{' (words alone)' if not result.model else ''}.")
    return 0
