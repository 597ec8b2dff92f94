"""standard_tree: the same rows with other texts, icons or tooltips are changed in place, and only what differs is
set; other rows are told apart at every level."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QIcon, QPixmap, QStandardItemModel
from pytestqt.qtbot import QtBot

from earmark.gui.models.standard_tree import Row, rebuild, same_rows, update

KEY = Qt.ItemDataRole.UserRole + 1


def rows(count: int, *, warning: bool = False, tip: str = "") -> list[Row]:
    feed = Row(f"Feed ({count})", {KEY: ("feed", 1)})
    feed.tooltip = tip
    if warning:
        feed.with_icon("warning", lambda: QIcon(QPixmap(8, 8)))
    return [Row(f"All ({count + 2})", {KEY: "all"}), Row("Podcasts", {KEY: None}, selectable=False).add(feed)]


def test_changed_texts_icons_and_tooltips_are_set_in_place(qtbot: QtBot) -> None:
    model = QStandardItemModel()
    shown = rows(3)
    rebuild(model, shown)
    feed_item = model.item(1).child(0)
    changed: list[tuple[int, list[int]]] = []
    model.dataChanged.connect(lambda first, _last, roles: changed.append((first.row(), list(roles))))
    resets: list[str] = []
    model.modelAboutToBeReset.connect(lambda: resets.append("reset"))
    model.rowsAboutToBeRemoved.connect(lambda *_: resets.append("removed"))

    again = rows(4, warning=True, tip="The server answered 500.")
    assert same_rows(again, shown)
    update(model.invisibleRootItem(), again, shown)

    assert resets == []
    assert model.item(1).child(0) is feed_item
    assert [model.item(0).text(), feed_item.text()] == ["All (6)", "Feed (4)"]
    assert not feed_item.icon().isNull()
    assert feed_item.toolTip() == "The server answered 500."
    assert model.item(1).text() == "Podcasts"  # unchanged: not set again
    assert not model.item(1).isSelectable()
    assert len(changed) == 4  # All's text; the feed's text, icon and tooltip


def test_other_rows_at_any_level_are_not_the_same_rows(qtbot: QtBot) -> None:
    shown = rows(3)
    assert not same_rows(rows(3)[:1], shown)
    deeper = rows(3)
    deeper[1].add(Row("Another feed (1)", {KEY: ("feed", 2)}))
    assert not same_rows(deeper, shown)
    other = rows(3)
    other[1].children[0].data = {KEY: ("feed", 9)}
    assert not same_rows(other, shown)
    model = QStandardItemModel()
    rebuild(model, deeper)
    assert model.item(1).rowCount() == 2
    assert model.index(0, 0, model.index(1, 0)).data(KEY) == ("feed", 1)
    assert model.index(0, 0, QModelIndex()).data(KEY) == "all"
