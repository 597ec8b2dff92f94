"""A private X server (Xvfb -displayfd, no window manager) for tests of real app processes, and answering the
app's questions there with xdotool's real key events."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


@contextmanager
def private_display(size: str = "1280x800") -> Iterator[str]:
    """A private X server on a free display number; skips the test without Xvfb and xdotool."""
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.skip("needs Xvfb and xdotool (packaging/install-system-deps)")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{size}x24", "-nolisten",
                               "tcp"], pass_fds=(write_end,), stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def answer(display: str, title: str, key: str = "Return", seconds: float = 30) -> None:
    """Wait for the window called ``title`` (a question the app asks), give it the keyboard and press ``key``
    (Return presses its default button)."""
    env = {**os.environ, "DISPLAY": display}

    def xdotool(*args: str) -> str:
        return subprocess.run(["xdotool", *args], capture_output=True, text=True, env=env, timeout=30).stdout.strip()

    deadline = time.monotonic() + seconds
    while not (found := xdotool("search", "--onlyvisible", "--name", f"^{title}$").split()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for the question {title!r}")
        time.sleep(0.2)
    xdotool("windowfocus", "--sync", found[-1])
    time.sleep(0.3)
    xdotool("key", "--clearmodifiers", key)
