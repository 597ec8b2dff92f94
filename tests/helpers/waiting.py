"""Waiting on something outside the test process (an app process, an X server) the way a person would."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], object], seconds: float, what: str, poll: float = 0.2) -> None:
    """Wait until ``condition()`` holds, at most ``seconds`` (then fail saying ``what`` did not come)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(poll)
