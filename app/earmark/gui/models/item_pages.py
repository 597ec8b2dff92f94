"""The item list's rows, read from the library in pages of ids and kept for a while; the pages beside one being
shown are read ahead in a worker, so that scrolling finds them read instead of waiting for SQL on the UI thread."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids
from earmark.core.models import Item
from earmark.gui.tasks import TaskRunner

PAGE_SIZE = 200
MAX_CACHED_PAGES = 40
Page = dict[int, Item]


def read_page(db: Database, ids: list[int]) -> Page:
    """The listed items of one page (without notes or article text), keyed by id."""
    return items_by_ids(db, ids, full=False)


class ItemPages:
    """Pages of ``PAGE_SIZE`` rows of the ids ``ids()`` returns: ``item(row)`` reads a missing page at once (a jump
    to a far row) and asks a worker for its neighbours. ``forget`` drops pages whose items changed; ``clear``
    drops all (the list changed): a page read ahead before either is not kept."""

    def __init__(self, runner: TaskRunner, db: Database, ids: Callable[[], list[int]]) -> None:
        self._runner = runner
        self._db = db
        self._ids = ids
        self._pages: OrderedDict[int, Page] = OrderedDict()
        self._asked: set[int] = set()  # pages asked of a worker, not yet arrived
        self._seen: set[int] = set()  # pages shown whose neighbours were asked for
        self._epoch = 0  # bumped whenever kept pages may be out of date
        self.ahead = True  # false while a start paints its first frame (the workers' CPU is the frame's)

    def item(self, row: int) -> Item | None:
        """The item in ``row`` (which the caller has checked is in the list)."""
        number = row // PAGE_SIZE
        page = self._pages.get(number)
        if page is None:
            page = self._keep(number, read_page(self._db, self._slice(number)))
        else:
            self._pages.move_to_end(number)
        if self.ahead and number not in self._seen:
            self._seen.add(number)
            self._read_ahead(number + 1)
            self._read_ahead(number - 1)
        return page.get(self._ids()[row])

    def forget(self, rows: list[int]) -> None:
        """The items in these rows changed: their pages are read again when next shown."""
        self._epoch += 1
        for row in rows:
            self._pages.pop(row // PAGE_SIZE, None)
            self._seen.discard(row // PAGE_SIZE)

    def clear(self) -> None:
        """The list changed: every page is read again."""
        self._epoch += 1
        self._pages.clear()
        self._seen.clear()

    def _slice(self, number: int) -> list[int]:
        return self._ids()[number * PAGE_SIZE:(number + 1) * PAGE_SIZE]

    def _keep(self, number: int, page: Page) -> Page:
        self._pages[number] = page
        while len(self._pages) > MAX_CACHED_PAGES:
            self._seen.discard(self._pages.popitem(last=False)[0])
        return page

    def _read_ahead(self, number: int) -> None:
        if number < 0 or number in self._pages or number in self._asked or number * PAGE_SIZE >= len(self._ids()):
            return
        ids, epoch = self._slice(number), self._epoch
        self._asked.add(number)

        def arrived(page: Page) -> None:
            self._asked.discard(number)
            if epoch == self._epoch and number not in self._pages and self._slice(number) == ids:
                self._keep(number, page)

        # A page that cannot be read is left to the read when it is shown, which says why.
        self._runner.read(read_page, ids, on_done=arrived, on_error=lambda _why: self._asked.discard(number))
