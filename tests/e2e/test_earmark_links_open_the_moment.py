"""A timestamp in the exported notes opens Earmark at that moment, as a click in Obsidian or a browser does: its
earmark: link goes through xdg-open to the desktop entry packaging/install wrote (into a desktop of the test's
own), which runs earmark with the link; with no window running that launch opens the window there, with one
running it hands the link over the single-instance socket and the window plays from there; a link to an item
the library does not have is said in the window."""

from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import list_items
from earmark.core.db.notes import NoteFilter, add_note
from earmark.core.feeds.subscribe import subscribe
from earmark.core.notes.export import export_notes
from earmark.core.settings import set_setting
from helpers.desktop import desktop_env
from helpers.podcast import Episode, write_podcast
from helpers.waiting import wait_for
from helpers.x_server import answer, private_display

pytestmark = [pytest.mark.vlc, pytest.mark.skipif(not (shutil.which("xdg-open") and shutil.which("xdg-mime")),
                                                   reason="needs xdg-utils (packaging/install-system-deps)")]
INSTALL = Path(__file__).resolve().parents[2] / "packaging" / "install"
LINK = re.compile(r"\]\((earmark:item/[0-9a-f]{16}\?t=(\d+))\)")


def notes_with_links(library: Path, tmp_path: Path) -> dict[str, tuple[int, str, int]]:
    """Two episodes with a note each, exported as Markdown: by title, (item id, the note's link, its second)."""
    db = open_library(library)
    subscribe(db, str(write_podcast(tmp_path / "cast", [Episode("Long listen", 60.0), Episode("Other one", 60.0)])))
    set_setting(db, "feeds.refresh_on_start", False)
    ids = {item.title: item.id for item in list_items(db, ItemFilter())}
    add_note(db, ids["Long listen"], "The part worth hearing again.", at=20.0)
    add_note(db, ids["Other one"], "And this.", at=40.0)
    links = {}
    for path in export_notes(db, "markdown", NoteFilter(), tmp_path / "vault").paths:
        [(url, second)] = LINK.findall(path.read_text(encoding="utf-8"))
        links[path.stem] = (ids[path.stem], url, int(second))
    db.close()
    return links


def place(library: Path, item_id: int) -> tuple[float, str | None]:
    """The item's saved position and when it was last played, as the library has them."""
    conn = sqlite3.connect(library)
    try:
        position, last_played = conn.execute("SELECT position, last_played FROM items WHERE id = ?",
                                             [item_id]).fetchone()
    finally:
        conn.close()
    return float(position), last_played


def install_launcher(tmp_path: Path, env: dict[str, str], library: Path) -> Path:
    """packaging/install, for an earmark that opens the test's library and notes its process id."""
    launcher, pids = tmp_path / "bin" / "earmark", tmp_path / "pids"
    launcher.parent.mkdir()
    launcher.write_text(f'#!/bin/sh\necho $$ >> "{pids}"\nexec "{sys.executable}" -m earmark --library "{library}" '
                        '"$@"\n')
    launcher.chmod(0o755)
    done = subprocess.run([str(INSTALL), str(launcher)], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return pids


def test_a_timestamp_link_opens_earmark_there_with_and_without_a_window(tmp_path: Path,
                                                                      library_path: Path) -> None:
    links = notes_with_links(library_path, tmp_path)
    first_id, first_link, first_second = links["Long listen"]
    other_id, other_link, other_second = links["Other one"]
    env = desktop_env(tmp_path)
    pids = install_launcher(tmp_path, env, library_path)
    with private_display() as display:
        env = {**env, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "EARMARK_CONFIG": str(tmp_path / "earmark.conf")}
        assert subprocess.run(["xdg-mime", "query", "default", "x-scheme-handler/earmark"], capture_output=True,
                              text=True, env=env).stdout.strip() == "io.github.earmark.Earmark.desktop"

        # No window: the link's launch opens one, playing the episode from the note's second.
        opening = subprocess.Popen(["xdg-open", first_link], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=env)
        try:
            wait_for(lambda: opening.poll() is not None or place(library_path, first_id)[0] >= first_second, 60,
                     "the window to play from the link's second")
            assert opening.poll() is None, opening.communicate()
            [window_pid] = [int(line) for line in pids.read_text().split()]
            position, last_played = place(library_path, first_id)
            assert first_second <= position < first_second + 15 and last_played is not None

            # A window running: the next link goes to it over the socket, and its launch ends at once.
            handed = subprocess.run(["xdg-open", other_link], capture_output=True, text=True, env=env, timeout=60)
            assert handed.returncode == 0, handed.stderr
            assert "already has" in handed.stderr
            wait_for(lambda: place(library_path, other_id)[0] >= other_second, 30,
                     "the running window to play the other episode from its link's second")
            assert place(library_path, other_id)[0] < other_second + 15

            # A link to an item this library does not have is said in the window, in a sentence.
            gone = subprocess.run(["xdg-open", "earmark:item/0000000000000000?t=5"], capture_output=True, text=True,
                                  env=env, timeout=60)
            assert gone.returncode == 0, gone.stderr
            answer(display, "Link not opened")
        finally:
            for pid in [int(line) for line in pids.read_text().split()] if pids.exists() else []:
                try:
                    os.kill(pid, signal.SIGTERM)  # the window closes as Ctrl+Q does
                except ProcessLookupError:
                    pass  # the launch that handed its link over, ended
            out, err = opening.communicate(timeout=30)
    assert opening.returncode == 0, err
    assert "Traceback" not in err
    assert len(pids.read_text().split()) == 3 and window_pid  # one window; two launches handed their links over
