"""Without a loadable libVLC the app still starts; trying to play says what to install."""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = """
from PySide6.QtCore import QCoreApplication
app = QCoreApplication([])
from earmark.playback.vlc_player import VlcPlayer
player = VlcPlayer()
messages = []
player.failed.connect(messages.append)
player.load("file:///dev/null")
print(player.state, "|", messages[0] if messages else "")
"""


def test_playing_without_libvlc_fails_with_a_sentence() -> None:
    env = {**os.environ, "PYTHON_VLC_LIB_PATH": "/nonexistent/libvlc.so.5", "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    state, message = result.stdout.strip().splitlines()[-1].split(" | ")
    assert state == "error"
    assert message.startswith("Playback needs VLC") and "libvlc5" in message
