"""Operations behind playback: what to play and how, the queue, played marks, podcast settings, chapters."""

from __future__ import annotations

from earmark.core.chapters import cached_chapters, store_chapters
from earmark.core.db.database import Database
from earmark.core.db.downloads import local_file
from earmark.core.db.items import last_episode_left, mark_played
from earmark.core.db.podcast_prefs import get_prefs, set_prefs
from earmark.core.db.queue import clear_queue as clear_all
from earmark.core.db.queue import dequeue, enqueue, move_in_queue, play_next, queue_ids, reorder_queue
from earmark.core.db.silences import get_silences
from earmark.core.models import Changes, Chapter, Item, ItemState, PodcastPrefs
from earmark.core.plurals import counted
from earmark.playback.progress import PlayContext


def read_play_context(db: Database, item: Item, default_rate: float) -> PlayContext:
    """How to play ``item``: its downloaded file if complete, its podcast's settings and speed, its cached
    podcast:chapters and its silences when analysed (a few indexed reads: done on the GUI thread, right when
    Enter is pressed)."""
    prefs = get_prefs(db, item.source_id)
    local = local_file(db, item.id)
    silences = get_silences(db, item.id)
    return PlayContext(
        local_uri=local.as_uri() if local else None,
        prefs=prefs,
        rate=prefs.speed if prefs.speed is not None else default_rate,
        chapters=cached_chapters(db, item.id) or [],
        silences=None if silences is None else silences.spans,
    )


def read_last_episode(db: Database, default_rate: float) -> tuple[Item, PlayContext] | None:
    """The episode left part-way when the window last closed, and how to play it."""
    item = last_episode_left(db)
    return None if item is None else (item, read_play_context(db, item, default_rate))


def store_fetched_chapters(db: Database, item_id: int, url: str, chapters: list[Chapter]) -> Changes:
    """Cache chapters fetched for an item."""
    store_chapters(db, item_id, url, chapters)
    return Changes(items={item_id})


def store_played(db: Database, item_ids: list[int], played: bool) -> Changes:
    """Mark items played or unplayed."""
    mark_played(db, item_ids, played)
    return Changes(items=set(item_ids), states={ItemState.PLAYED, ItemState.POSITION},
                   message=f"Marked {counted(len(item_ids), 'item')} {'played' if played else 'unplayed'}.")


def store_prefs(db: Database, source_id: int, prefs: PodcastPrefs) -> Changes:
    """Keep a podcast's playback settings."""
    set_prefs(db, source_id, prefs)
    return Changes()


def queue_add(db: Database, item_ids: list[int], after: int | None, next_up: bool) -> list[int]:
    """Queue episodes last, or (``next_up``) right after the one playing; returns the new queue."""
    if next_up:
        play_next(db, item_ids, after)
    else:
        enqueue(db, item_ids)
    return queue_ids(db)


def queue_remove(db: Database, item_ids: list[int]) -> list[int]:
    """Take episodes off the queue; returns the new queue."""
    dequeue(db, item_ids)
    return queue_ids(db)


def queue_move(db: Database, item_id: int, steps: int) -> list[int]:
    """Move a queued episode; returns the new queue."""
    move_in_queue(db, item_id, steps)
    return queue_ids(db)


def queue_reorder(db: Database, item_ids: list[int]) -> list[int]:
    """Store the order given by drag and drop; returns the new queue."""
    reorder_queue(db, item_ids)
    return queue_ids(db)


def queue_clear(db: Database) -> list[int]:
    """Empty the queue."""
    clear_all(db)
    return []


def read_queue(db: Database) -> list[int]:
    """The queue's item ids."""
    return queue_ids(db)
