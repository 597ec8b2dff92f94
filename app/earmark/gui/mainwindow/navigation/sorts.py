"""The order chosen for each view of the item list (by clicking a column header), kept in the library."""

from __future__ import annotations

from dataclasses import replace

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.errors import EarmarkError
from earmark.core.settings import get_setting
from earmark.gui.operations.records import store_setting
from earmark.gui.tasks import TaskRunner


def view_key(flt: ItemFilter, smart_list: int | None = None) -> str:
    """Which view a filter belongs to, for remembering its sort order."""
    if smart_list is not None:
        return f"smart:{smart_list}"
    lists = ("|continue" if flt.state == "in_progress" else "") + ("|archive" if flt.archived else "")
    return f"{flt.kind or ''}|{flt.source_id or ''}|{flt.tag or ''}{lists}"


class SortMemory:
    """The order last chosen for each view (setting ``list.sorts``)."""

    def __init__(self, runner: TaskRunner, db: Database) -> None:
        self._runner = runner
        self._sorts: dict[str, list[object]] = dict(get_setting(db, "list.sorts"))  # type: ignore[call-overload]

    def remember(self, base: ItemFilter, smart_list: int | None, flt: ItemFilter) -> None:
        """Keep the order of ``flt`` for the view of ``base``, in the library's settings."""
        self._sorts[view_key(base, smart_list)] = [flt.sort, flt.reverse]
        self._runner.write(store_setting, "list.sorts", dict(self._sorts))

    def applied(self, base: ItemFilter, smart_list: int | None) -> ItemFilter:
        """``base`` in the order last chosen for its view (its own order when none was)."""
        remembered = self._sorts.get(view_key(base, smart_list))
        if not remembered or len(remembered) != 2:
            return base
        sort, reverse = remembered
        try:
            return replace(base, sort=str(sort), reverse=bool(reverse))  # type: ignore[arg-type]
        except EarmarkError:  # written by a newer Earmark with an order this one does not know
            return base
