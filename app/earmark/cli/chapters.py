"""``earmark chapters``: an episode's chapters, its feed's (fetched once) or those Earmark made from its
transcript."""

from __future__ import annotations

import argparse

from earmark.cli.common import print_json, record_id
from earmark.core.db.database import Database
from earmark.core.models import Chapter
from earmark.core.timefmt import format_clock


def chapters_command(chapters: argparse.ArgumentParser) -> None:
    """an episode's chapters: its feed's, or those made from its transcript"""
    chapters.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    chapters.add_argument("--json", action="store_true",
                          help="print a JSON list of {start, end, title, source} (source: feed, file or made)")
    chapters.set_defaults(run=_chapters)


def episode_chapters(db: Database, item_id: int, read_only: bool) -> list[Chapter]:
    """The feed's chapters (fetched and kept the first time), else those made from the transcript."""
    from earmark.core.chaptering.made import item_chapters, make_chapters
    from earmark.core.chapters import cached_chapters, chapters_url, fetch_chapters, store_chapters
    from earmark.core.db.transcripts import stored_transcript

    url = chapters_url(db, item_id)
    found = cached_chapters(db, item_id)
    if found is not None:
        return found
    if url:
        fetched = fetch_chapters(url)
        if not read_only:
            store_chapters(db, item_id, url, fetched)
        return fetched
    if read_only:
        stored = stored_transcript(db, item_id)
        return make_chapters(stored.transcript) if stored and stored.transcript else []
    return item_chapters(db, item_id)


def _chapters(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.db.items import get_item

    item = get_item(db, args.item_id)  # an unknown item, or chapters that cannot be fetched: a sentence, exit 1
    chapters = episode_chapters(db, item.id, args.read_only)
    ends = [*(chapter.start for chapter in chapters[1:]), item.duration][:len(chapters)]
    if args.json:
        print_json([{"start": c.start, "end": end, "title": c.title, "source": c.source}
                    for c, end in zip(chapters, ends, strict=True)])
        return 0
    if not chapters:
        print(f"“{item.title}” has no chapters: its feed gives none, and it has no transcript long enough to make "
              f"them from (earmark transcribe {item.id}).")
    for chapter in chapters:
        made = "  (made by Earmark)" if chapter.source == "made" else ""
        print(f"{format_clock(chapter.start)}\t{chapter.title}{made}")
    return 0
