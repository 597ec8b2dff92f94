"""Drive the real app in its own process for the kill -9 test: open the window offscreen on a library, play
one item through VLC, and print the player's position every half second until killed.

Usage: python play_driver.py LIBRARY ITEM_ID
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QTimer

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from earmark.core.db.items import get_item  # noqa: E402 - after the platform is chosen
from earmark.gui.application import application, build  # noqa: E402


def main(library: Path, item_id: int) -> int:
    app = application()
    parts = build(library, vlc_args=("--aout=dummy",))
    parts.window.show()
    parts.window.playback.play(get_item(parts.window._db, item_id))
    player = parts.session.player

    def report() -> None:
        print(f"{player.state} {player.position():.3f}", flush=True)

    timer = QTimer()
    timer.timeout.connect(report)
    timer.start(500)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2])))
