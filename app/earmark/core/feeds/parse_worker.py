"""What each feed-parsing process runs first: a watch on the process that started it. Killed with SIGKILL, that
process cannot stop its parsing processes; they would wait for work forever (and keep the forkserver and the
resource tracker alive with them), so they end themselves once it is gone."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

CHECK_SECONDS = 0.5


def watch_parent(parent: int) -> None:
    """Start a daemon thread that ends this process when ``parent`` (a process id) is gone."""

    def watch() -> None:
        while alive(parent):
            time.sleep(CHECK_SECONDS)
        os._exit(0)  # nothing to clean up: a parsing process holds no files and no library connection

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, killed but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc (not Linux): the signal test above is all there is
    return state not in ("Z", "X")
