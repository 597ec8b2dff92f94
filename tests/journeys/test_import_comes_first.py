"""Importing a subscription list in the window: the import has the machine to itself, and related items are
worked out once it is over, for everything it brought.

A relation pass runs at a higher priority than the import's parsing. Started on the first feeds of an import (as
it was, a moment after the first ones arrived), it took the CPU the import needed: 300 feeds took 5 s in the window
instead of 2.6 s, and the pass worked out the first feeds' items, to start again for the rest. The processes the
window runs are read from /proc, as ``ps`` shows them to a person who wonders what the machine is doing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from pytestqt.qtbot import QtBot

import earmark.gui.mainwindow.library.feeds as feeds_controller
import earmark.gui.mainwindow.library.graph as graph_controller
from earmark.gui.relation_pass import PassSummary
from helpers.feed_server import FeedServer, rss
from helpers.gui import Launch
from helpers.journeys import answer, message_box

IMPORT_MS = 30_000
SLOW_FEED_SECONDS = 6.0  # the last feed answers this late: a pass that does not wait starts well before


@pytest.fixture
def server(tmp_path: Path) -> Iterator[FeedServer]:
    with FeedServer(tmp_path) as feed_server:
        yield feed_server


def commands_running() -> set[str]:
    """The earmark commands this process's children run (``import-opml``, ``update-relations``...)."""
    found: set[str] = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
            words = Path(entry.path, "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue  # ended meanwhile
        if int(stat[1]) == os.getpid() and b"earmark" in words:
            found.update(word.decode() for word in words if word in (b"import-opml", b"update-relations"))
    return found


def test_related_items_are_worked_out_after_the_import_for_all_it_brought(
        qtbot: QtBot, launch: Launch, server: FeedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The window's pauses shortened, so that a pass that does not wait for the import starts during it at once.
    monkeypatch.setattr(feeds_controller, "RELOAD_DELAY_MS", 100)
    monkeypatch.setattr(graph_controller, "UPDATE_DELAY_MS", 100)
    quick = server.serve_body("/quick.xml", rss("Quick Show", [
        {"title": f"Early {n}", "guid": f"early-{n}", "enclosure": f"https://example.com/early-{n}.mp3"}
        for n in range(3)]))
    slow = server.serve_slow("/slow.xml", SLOW_FEED_SECONDS, rss("Slow Show", [
        {"title": f"Late {n}", "guid": f"late-{n}", "enclosure": f"https://example.com/late-{n}.mp3"}
        for n in range(2)]))
    opml = tmp_path / "mine.opml"
    opml.write_text(f"""<?xml version="1.0"?><opml version="2.0"><head><title>Mine</title></head><body>
        <outline type="rss" text="Quick" xmlUrl="{quick}"/><outline type="rss" text="Slow" xmlUrl="{slow}"/>
        </body></opml>""", encoding="utf-8")
    window = launch().window
    passes: list[PassSummary] = []
    window.graph.relation_pass.finished.connect(passes.append)
    qtbot.waitUntil(lambda: bool(passes), timeout=IMPORT_MS)  # the start's pass, over the empty library, has ended
    qtbot.waitUntil(lambda: "update-relations" not in commands_running(), timeout=10_000)
    passes.clear()
    seen: list[set[str]] = []
    watch = QTimer(window)
    watch.timeout.connect(lambda: seen.append(commands_running()))
    watch.start(50)

    window.open_arguments([str(opml)])  # the file opened with Earmark: it asks first
    answer(qtbot, message_box(qtbot), "Subscribe")
    qtbot.waitUntil(lambda: any("import-opml" in running for running in seen), timeout=IMPORT_MS)
    qtbot.waitUntil(lambda: "Imported: 2 of 2 feeds checked" in window.statusBar().currentMessage(),
                    timeout=IMPORT_MS)
    qtbot.waitUntil(lambda: bool(passes), timeout=IMPORT_MS)  # the pass after the import
    watch.stop()

    during = [running for running in seen if "import-opml" in running]
    assert len(during) > SLOW_FEED_SECONDS * 4, len(during)  # watched all along (every 50 ms, or later under load)
    assert not [running for running in during if "update-relations" in running]
    assert any("update-relations" in running for running in seen)  # after it
    assert [(summary.items, summary.error) for summary in passes] == [(5, None)]
