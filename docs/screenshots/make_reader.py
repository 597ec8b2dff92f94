"""Make docs/screenshots/reader.png: the reader on a sample article, with a highlight and its note.

Run under a display (xvfb-run -a -s "-screen 0 1500x900x24" python docs/screenshots/make_reader.py).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

from earmark.core.articles.highlights import highlight_text
from earmark.core.db.connection import open_library
from earmark.core.db.items import list_items
from earmark.core.db.queries import ItemFilter
from earmark.core.sample import load_sample
from earmark.core.settings import set_setting
from earmark.gui.application import application, build

OUT = Path(__file__).resolve().parent / "reader.png"
ARTICLE = "PyTorch Shanghai Meetup Notes"


def wait(condition: object, seconds: float = 10.0) -> None:
    """Run the event loop until ``condition()`` holds."""
    app = QApplication.instance()
    assert app is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        app.processEvents()
        time.sleep(0.02)
    raise TimeoutError("the window did not get there")


def main() -> int:
    library = Path(tempfile.mkdtemp()) / "library.db"
    db = open_library(library)
    load_sample(db)
    article = next(i for i in list_items(db, ItemFilter(kind="article")) if i.title == ARTICLE)
    highlight_text(db, article.id, "Senior PyTorch developers from Intel and Huawei spoke about their experience",
                   "Ask them about the XPU backend.")
    highlight_text(db, article.id, "how a new backend can be plugged into TorchInductor")
    set_setting(db, "feeds.refresh_on_start", False)  # the sample feed is a local file: nothing to check
    db.close()
    application()
    parts = build(library, vlc_args=("--aout=dummy",))
    window = parts.window
    window.resize(1480, 860)
    window.show()
    wait(lambda: window.items_model.rowCount() > 0 and window.sidebar_model.rowCount() > 0)
    window.sidebar.setCurrentIndex(window.sidebar_model.index_for(ItemFilter(kind="article")))
    wait(lambda: window.items_model.rowCount() == 3)
    window.select_item(article.id)
    wait(lambda: window.selected_item() is not None and window.selected_item().id == article.id)  # type: ignore[union-attr]
    window.play_selected()
    wait(lambda: window.reading.reading and window.reading.reader.document_shown is not None)
    wait(lambda: window.notes.pane.model.rowCount() > 0)
    wait(lambda: window.graph.related.model.rowCount() > 0, 30.0)  # the topic graph's related items
    window.reading.reader.scroll_to_share(0.0)
    end = time.monotonic() + 0.5
    while time.monotonic() < end:  # let it paint
        QApplication.processEvents()
        time.sleep(0.02)
    window.grab().save(str(OUT))
    print(f"wrote {OUT}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
