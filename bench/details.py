"""Opening an item's details on the 100,000-episode library of bench/synthetic.py (issue 40): what the window does
when a row is chosen, below its paint: the item read with its show notes (``get_item``, which since schema 19 gives
the markup back from its pattern over the text) and the show notes made safe to show (``sanitize``, as the detail
pane does). Printed, never asserted: the median and p95 over random items, and the load average.

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
    read, shown = [], []
    for item_id in ids:
        started = time.perf_counter()
        item = get_item(db, item_id)
        middle = time.perf_counter()
        sanitize(item.content or item.description, item.url)
        read.append(middle - started)
        shown.append(time.perf_counter() - started)
    db.close()
    for label, times in (("get_item", read), ("get_item + sanitize", shown)):
        p95 = statistics.quantiles(times, n=20)[-1]
        print(f"  {label}: median {1000 * statistics.median(times):.3f} ms, p95 {1000 * p95:.3f} ms "
              f"({len(times)} items)")
    print(f"load average {os.getloadavg()[0]:.2f}   [target: within 5 % of the code before]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
