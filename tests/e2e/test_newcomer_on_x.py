"""The newcomer's journey in the real app process on a real X server (Xvfb, no window manager), typed with
xdotool's real key events: the window has to take the keyboard focus itself, paint, and hand the focus to its
dialogs. What the person gets is checked as it comes: the places kept in the episodes played, the note, the
Markdown export."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.waiting import wait_for

pytestmark = [pytest.mark.vlc, pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                                                  reason="needs Xvfb and xdotool (packaging/install-system-deps)")]
EPISODE = "Compiler collectives"
NEXT_EPISODE = "TORCH_TRACE and tlparse"  # the row below it
NOTE = "Collectives let every rank agree"


@pytest.fixture
def display() -> Iterator[str]:
    """A private X server on a free display number (Xvfb -displayfd), 1280×800 like a small laptop."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten",
                               "tcp"], pass_fds=(write_end,), stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)



def test_the_newcomer_on_a_real_x_server(display: str, tmp_path: Path) -> None:
    library = tmp_path / "library.db"
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "HOME": str(tmp_path),
           "EARMARK_CONFIG": str(tmp_path / "earmark.conf"), "EARMARK_VLC_ARGS": "--aout=dummy"}

    def earmark_json(*args: str) -> list[dict[str, object]]:
        done = subprocess.run([sys.executable, "-m", "earmark", "--library", str(library), *args, "--json"],
                              capture_output=True, text=True, env={**env, "QT_QPA_PLATFORM": "offscreen"},
                              timeout=60, check=True)
        return json.loads(done.stdout)

    def xdotool(*args: str) -> str:
        return subprocess.run(["xdotool", *args], capture_output=True, text=True, env=env, timeout=30).stdout.strip()

    def keys(*names: str) -> None:
        for name in names:
            xdotool("key", "--clearmodifiers", name)
            time.sleep(0.3)

    def focused_window(title: str) -> str:
        """Wait until a window called ``title`` is shown and has the keyboard (X sends keys to it then)."""
        wait_for(lambda: xdotool("search", "--onlyvisible", "--name", title), 30, f"the window {title!r}")
        found = xdotool("search", "--onlyvisible", "--name", title).split()
        wait_for(lambda: xdotool("getwindowfocus") in found, 10, f"{title!r} to have the keyboard")
        return xdotool("getwindowfocus")

    log = tmp_path / "earmark.log"
    with log.open("w") as output:
        app = subprocess.Popen([sys.executable, "-m", "earmark", "--library", str(library)], env=env,
                               stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: xdotool("search", "--onlyvisible", "--name", "Earmark — library.db"), 30, "the window")
        window = xdotool("search", "--onlyvisible", "--name", "Earmark — library.db").split()[0]
        xdotool("windowfocus", "--sync", window)  # no window manager: the person clicks the window, say
        focused_window("Earmark — library.db")
        keys("Return")  # the welcome screen's first button: the sample library
        wait_for(lambda: len(earmark_json("list")) == 54, 60, "the sample library")
        time.sleep(1)
        keys("Down", "Return")  # the second row plays
        wait_for(lambda: any(i["title"] == EPISODE and i["position"] > 0 for i in earmark_json("list")), 30,
                 "the episode to play and its place to be kept")
        keys("b")
        xdotool("type", "--delay", "30", NOTE)
        keys("Return", "ctrl+g")
        time.sleep(1.5)
        keys("Escape", "ctrl+shift+b")
        time.sleep(1)
        keys("alt+Left", "ctrl+k")
        focused_window("Command Palette")
        xdotool("type", "--delay", "30", "export notes")
        keys("Return")
        focused_window("Export Notes")
        keys("Return")  # Markdown, into ~/Earmark notes
        exported = tmp_path / "Earmark notes"
        wait_for(lambda: list(exported.glob("*.md")), 20, "the Markdown export")
        focused_window("Earmark — library.db")  # the dialog gave the keyboard back to the window
        keys("Down", "Return")  # still in the list (Esc, then Back, left it there): the next episode plays
        wait_for(lambda: any(i["title"] == NEXT_EPISODE and i["position"] > 0 for i in earmark_json("list")), 30,
                 "the next episode to play from the list")
        keys("ctrl+q")
        assert app.wait(30) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
    said = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in said, said
    [markdown] = exported.glob("*.md")
    assert EPISODE in markdown.read_text(encoding="utf-8") and NOTE in markdown.read_text(encoding="utf-8")
    notes = earmark_json("notes")
    assert [note["text"] for note in notes] == [NOTE]
