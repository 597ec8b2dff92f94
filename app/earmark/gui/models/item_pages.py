"""The item list's rows, read from the library in small pages of ids and kept for a while.

A page is read on the UI thread when it is first shown: 50 rows by id cost ~0.6 ms, so no frame of a scroll
carries more than that. Reading whole pages ahead in a worker made scrolling slower, not faster: the worker
needs the interpreter's lock for each row it builds, so its work came out of the very frames it was meant to
spare (a page's frame then waited for the lock; bench/README.md). What a worker does instead is *warm* the pages
ahead in the direction of travel: one SQL statement touches their rows, holding no lock while SQLite reads, so a
library on a cold disk is read from memory when the UI thread gets there."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids, warm_items
from earmark.core.models import Item
from earmark.gui.tasks import TaskRunner

PAGE_SIZE = 50
MAX_CACHED_PAGES = 160
WARM_AHEAD = 8  # pages a worker warms at a time, ahead of the one shown in the direction the list is scrolled
Page = dict[int, Item]


def read_page(db: Database, ids: list[int]) -> Page:
    """The listed items of one page (without notes or article text), keyed by id."""
    return items_by_ids(db, ids, full=False)


class ItemPages:
    """Pages of ``PAGE_SIZE`` rows of the ids ``ids()`` returns: ``item(row)`` reads a missing page at once and
    has a worker warm the next ones. ``forget`` drops pages whose items changed; ``clear`` drops all (the list
    changed)."""

    def __init__(self, runner: TaskRunner, db: Database, ids: Callable[[], list[int]]) -> None:
        self._runner = runner
        self._db = db
        self._ids = ids
        self._pages: OrderedDict[int, Page] = OrderedDict()
        self._warmed: set[int] = set()  # pages a worker was asked to warm since the list last changed
        self._last = 0  # the page last read: which way the list is being scrolled
        self.ahead = True  # false while a start paints its first frame (the workers' CPU is the frame's)

    def item(self, row: int) -> Item | None:
        """The item in ``row`` (which the caller has checked is in the list)."""
        number = row // PAGE_SIZE
        page = self._pages.get(number)
        if page is None:
            page = self._keep(number, read_page(self._db, self._slice(number)))
            self._warm_beyond(number)
        else:
            self._pages.move_to_end(number)
        return page.get(self._ids()[row])

    def forget(self, rows: list[int]) -> None:
        """The items in these rows changed: their pages are read again when next shown."""
        for row in rows:
            self._pages.pop(row // PAGE_SIZE, None)

    def clear(self) -> None:
        """The list changed: every page is read again."""
        self._pages.clear()
        self._warmed.clear()

    def _slice(self, number: int) -> list[int]:
        return self._ids()[number * PAGE_SIZE:(number + 1) * PAGE_SIZE]

    def _keep(self, number: int, page: Page) -> Page:
        self._pages[number] = page
        while len(self._pages) > MAX_CACHED_PAGES:
            self._pages.popitem(last=False)
        return page

    def _warm_beyond(self, number: int) -> None:
        """Have a worker warm the pages after ``number`` in the direction the list moved to reach it."""
        step = -1 if number < self._last else 1
        self._last = number
        near = number + step
        if not self.ahead or near in self._warmed or near in self._pages:
            return  # warmed with the pages before it: one worker's task for WARM_AHEAD pages
        wanted = [n for n in range(near, near + step * WARM_AHEAD, step)
                  if 0 <= n * PAGE_SIZE < len(self._ids()) and n not in self._pages and n not in self._warmed]
        if wanted:
            self._warmed.update(wanted)
            ids = [item_id for n in wanted for item_id in self._slice(n)]
            # Warming is only a head start: a page it could not touch is read when shown, which says why.
            self._runner.read(warm_items, ids, on_error=lambda _why: None)
