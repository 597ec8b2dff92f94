"""The sidebar's counts and the list follow listening at once (issue 35 §1, issue 37 §7): an episode paused comes
into "Continue listening (1)", one that plays to its end or is marked played (Ctrl+M) leaves it, and the list of
Continue listening shows the same. The library watch reports only other processes' writes, so nothing but the
window's own recount can make these pass (before, a recount two seconds later through the watch hid a missing
one)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from earmark.playback.player import PlayerState
from helpers.gui import Launch
from helpers.journeys import (
    click_row,
    click_sidebar,
    count_of,
    item_list,
    listed_titles,
    press,
    sidebar_row,
    wait_entry_listed,
    wait_rows,
)

CTRL = Qt.KeyboardModifier.ControlModifier
RECOUNT_MS = 1500  # less than the library watch's poll (2 s): a recount through the watch comes too late


def continue_listening(window: object) -> int:
    return count_of(str(sidebar_row(window, "Continue listening").data()))  # type: ignore[arg-type]


def test_continue_listening_follows_pause_the_end_and_ctrl_m(qtbot: QtBot, launch: Launch, sample: None) -> None:
    window = launch().window
    click_sidebar(qtbot, window, "Podcasts")
    wait_entry_listed(qtbot, window)
    assert continue_listening(window) == 0
    first, second = listed_titles(window)[:2]

    click_row(qtbot, item_list(window), 0)
    press(qtbot, Qt.Key.Key_Return)
    player = window.session.player  # made once the window is whole
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING and player.position() > 1, timeout=10_000)
    press(qtbot, Qt.Key.Key_Space)  # pause: the place is kept, the episode is under way
    qtbot.waitUntil(lambda: continue_listening(window) == 1, timeout=RECOUNT_MS)

    press(qtbot, Qt.Key.Key_L, CTRL | Qt.KeyboardModifier.ShiftModifier)  # Go ▸ Continue Listening
    qtbot.waitUntil(lambda: listed_titles(window) == [first])
    press(qtbot, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING)
    for _ in range(4):  # skip forward 10 s at a time: the sample's clips are under 30 s
        press(qtbot, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: player.state != PlayerState.PLAYING, timeout=10_000)
    qtbot.waitUntil(lambda: continue_listening(window) == 0, timeout=RECOUNT_MS)
    wait_rows(qtbot, window, 0, timeout=RECOUNT_MS)

    click_sidebar(qtbot, window, "Podcasts")
    wait_entry_listed(qtbot, window)
    click_row(qtbot, item_list(window), listed_titles(window).index(second))
    press(qtbot, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: player.state == PlayerState.PLAYING and player.position() > 1, timeout=10_000)
    press(qtbot, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: continue_listening(window) == 1, timeout=RECOUNT_MS)
    click_sidebar(qtbot, window, "Continue listening")
    qtbot.waitUntil(lambda: listed_titles(window) == [second])
    click_row(qtbot, item_list(window), 0)
    press(qtbot, Qt.Key.Key_M, CTRL)  # Mark Played
    qtbot.waitUntil(lambda: continue_listening(window) == 0, timeout=RECOUNT_MS)
    wait_rows(qtbot, window, 0, timeout=RECOUNT_MS)
