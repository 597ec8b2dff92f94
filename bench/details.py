"""Opening an item's details on the 100,000-episode library of bench/synthetic.py (issue 40): the item read with its
show notes (``get_item``, which since schema 19 gives the markup back from its pattern over the text), then the
show notes made safe (``sanitize``), then the real detail pane showing the item (``DetailPane.show_item``,
offscreen, laid out). Printed, never asserted: the median and p95 over random items, and the load average.

    .venv/bin/python bench/details.py                       # 2,000 items
    PYTHONPATH=/path/to/other/checkout/app .venv/bin/python bench/details.py   # the same, on other code
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from earmark.core.db.connection import open_library
from earmark.core.db.items import get_item
from earmark.core.html import sanitize
from synthetic import cached_library


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000, help="items opened")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}")
    info = cached_library(300, 100_000)
    db = open_library(info.path)
    ids = random.Random(40).sample(range(1, 100_001), args.items)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from earmark.gui.views.detail import DetailPane

    app = QApplication.instance() or QApplication([])
    pane = DetailPane()
    pane.resize(500, 700)
    pane.show()
    read, safe, shown = [], [], []
    for item_id in ids:
        started = time.perf_counter()
        item = get_item(db, item_id)
        read.append(time.perf_counter() - started)
        sanitize(item.content or item.description, item.url)
        safe.append(time.perf_counter() - started)
        started = time.perf_counter()
        item = get_item(db, item_id)
        pane.show_item(item)
        pane.document().size()  # laid out
        app.processEvents()
        shown.append(time.perf_counter() - started)
    db.close()
    for label, times in (("get_item", read), ("get_item + sanitize", safe), ("get_item + the pane shows it", shown)):
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"  {label}: median {1000 * statistics.median(times):.3f} ms, p95 {1000 * p95:.3f} ms "
              f"({len(times)} items)")
    print(f"load average {os.getloadavg()[0]:.2f}   [target: within 5 % of the code before]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
