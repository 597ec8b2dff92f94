"""The topic graph's toolbar as it shows in the 1280 × 800 window: every choice of its boxes is read whole (the
kind box showed "Episodes and ar"), and each box says to a screen reader what it chooses."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox
from pytestqt.qtbot import QtBot

from helpers.gui import Launch
from helpers.journeys import graph_shown


def text_room(box: QComboBox) -> int:
    """The width of the box's field where its choice is drawn."""
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                       QStyle.SubControl.SC_ComboBoxEditField, box)
    return field.width()


def test_the_graphs_boxes_show_their_choices_whole(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = graph_shown(qtbot, launch)
    panel = window.graph.panel
    assert window.width() == 1280
    boxes = [box for box in panel.findChildren(QComboBox) if box.isVisible()]
    assert {panel.kind, panel.colour, panel.tag, panel.source} <= set(boxes)
    for box in boxes:
        assert box.accessibleName(), box.objectName()
        # a tag's or a source's own name may be long; their first choice is the box's own word
        choices = [box.itemText(0)] if box in (panel.tag, panel.source) else [
            box.itemText(index) for index in range(box.count())]
        for text in choices:
            assert box.fontMetrics().horizontalAdvance(text) <= text_room(box), (box.objectName(), text)
