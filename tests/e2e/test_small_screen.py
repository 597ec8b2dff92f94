"""The first window on the screen it opens on, in the real app process on a real X server (Xvfb, no window
manager): on a 1366 × 768 laptop the whole window is on the screen, the player's controls and the status bar at
its foot included (they were 32 px below the screen's edge); on a big screen it opens at its usual 1280 × 800."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.waiting import wait_for
from helpers.x_server import private_display

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                                reason="needs Xvfb and xdotool (packaging/install-system-deps)")
TITLE = "Earmark — library.db"


def window_geometry(env: dict[str, str]) -> tuple[int, int, int, int]:
    """(x, y, width, height) of the shown Earmark window, as the X server has it."""

    def xdotool(*args: str) -> str:
        return subprocess.run(["xdotool", *args], capture_output=True, text=True, env=env, timeout=30).stdout.strip()

    wait_for(lambda: xdotool("search", "--onlyvisible", "--name", TITLE), 30, "the window")
    window = xdotool("search", "--onlyvisible", "--name", TITLE).split()[0]
    shell = xdotool("getwindowgeometry", "--shell", window)
    values = dict(re.findall(r"^(\w+)=(-?\d+)$", shell, re.MULTILINE))
    return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])


@pytest.mark.parametrize(("screen", "expected"), [((1366, 768), None), ((1920, 1080), (1280, 800))])
def test_the_first_window_fits_the_screen(tmp_path: Path, screen: tuple[int, int],
                                          expected: tuple[int, int] | None) -> None:
    width, height = screen
    with private_display(f"{width}x{height}") as display:
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "HOME": str(tmp_path),
               "XDG_CONFIG_HOME": str(tmp_path / "config"), "EARMARK_VLC_ARGS": "--aout=dummy"}
        app = subprocess.Popen([sys.executable, "-m", "earmark", "--library", str(tmp_path / "library.db")],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            x, y, shown_width, shown_height = window_geometry(env)
        finally:
            app.terminate()
            app.wait(30)
    assert 0 <= x and x + shown_width <= width, f"the window spans x {x}–{x + shown_width} of {width}"
    assert 0 <= y and y + shown_height <= height, f"the window spans y {y}–{y + shown_height} of {height}"
    if expected is None:  # smaller than usual, leaving room for a window manager's frame, but still roomy
        assert shown_height <= height - 48 and shown_height >= 600
    else:
        assert (shown_width, shown_height) == expected
