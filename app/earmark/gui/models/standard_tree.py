"""A QStandardItemModel tree brought up to date from a description of its rows: when the same rows come back with
other texts, icons or tooltips (a sidebar whose counts changed), they are changed in place, so that the view keeps
its current row, what the user collapsed, and a screen reader its place; only other rows rebuild the tree."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QIcon, QStandardItem, QStandardItemModel


class Row:
    """One row to show: its text, its data by role (what makes it the same row), an icon (made by ``icon`` when
    ``icon_key`` changes) and a tooltip, and the rows under it."""

    __slots__ = ("children", "data", "icon", "icon_key", "selectable", "text", "tooltip")

    def __init__(self, text: str, data: dict[int, object], *, selectable: bool = True) -> None:
        self.text = text
        self.data = data
        self.selectable = selectable
        self.icon: Callable[[], QIcon] | None = None
        self.icon_key: object = None
        self.tooltip = ""
        self.children: list[Row] = []

    def with_icon(self, key: object, icon: Callable[[], QIcon]) -> Row:
        """This row, shown with ``icon()``; ``key`` tells that icon from another one."""
        self.icon_key, self.icon = key, icon
        return self

    def whole_in_tooltip(self) -> Row:
        """This row, with its text as its tooltip too: a name of any length is cut short in a narrow view."""
        self.tooltip = self.text
        return self

    def add(self, *children: Row) -> Row:
        """This row, with ``children`` under it."""
        self.children.extend(children)
        return self


def same_rows(rows: Sequence[Row], shown: Sequence[Row]) -> bool:
    """Whether ``rows`` are the rows of ``shown`` (by their data, at every level), whatever their texts."""
    return len(rows) == len(shown) and all(
        row.data == old.data and same_rows(row.children, old.children) for row, old in zip(rows, shown, strict=True))


def rebuild(model: QStandardItemModel, rows: Sequence[Row]) -> None:
    """Replace every row of ``model`` with ``rows``."""
    model.clear()
    _append(model.invisibleRootItem(), rows)


def update(parent: QStandardItem, rows: Sequence[Row], shown: Sequence[Row]) -> None:
    """Change the items under ``parent``, made from ``shown``, to show ``rows`` (``same_rows`` must hold): only
    what differs is set, so that the view hears of nothing else."""
    for number, (row, old) in enumerate(zip(rows, shown, strict=True)):
        item = parent.child(number)
        if row.text != old.text:
            item.setText(row.text)
        if row.icon_key != old.icon_key:
            item.setIcon(row.icon() if row.icon is not None else QIcon())
        if row.tooltip != old.tooltip:
            item.setToolTip(row.tooltip)
        update(item, row.children, old.children)


def _append(parent: QStandardItem, rows: Sequence[Row]) -> None:
    for row in rows:
        item = QStandardItem(row.text)
        item.setEditable(False)
        item.setSelectable(row.selectable)
        for role, value in row.data.items():
            item.setData(value, role)
        if row.icon is not None:
            item.setIcon(row.icon())
        if row.tooltip:
            item.setToolTip(row.tooltip)
        parent.appendRow(item)
        _append(item, row.children)
