"""Search and list speed at 100,000 episodes and 10,000 articles (issue 6), the library's size (issue 20) and
search on technical vocabulary (issue 21).

Prints, on cached synthetic libraries (bench/synthetic.py):
- the size of the 100,000-episode library beside 350 MB, with what each table and index costs (dbstat);
- search latency over 50 varied queries (common and rare words, prefixes, phrases, odd input, with and without
  filters) on 100,000 episodes and 10,000 articles: the time to the ranked first screen (what the window shows
  first) and to every match, median and p95, as wall time and as this thread's CPU time (which other programs
  on a busy machine disturb far less);
- search on technical vocabulary: the recall cases on the sample library ("autograd" finds the AOTAutograd
  episode...), and, on a library of the sample's sentences recombined, what the vocabulary of compound names adds
  to the search index (beside 15 %) and the latency of technical queries;
- in the real main window (offscreen): the time to open the 100k view, to scroll to its end, to apply a filter,
  to sort by title, and to show the results of a search typed in the box;
- peak RSS of this process, and the load average before and after (figures from a busy machine are noisy).

Targets (2-core machine): library ≤ 350 MB, vocabulary ≤ 15 % of the index, search p95 ≤ 15 ms, open < 0.35 s,
sort/filter < 100 ms, RSS < 150 MB. A benchmark prints figures; it never fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from earmark.core.db.connection import open_library  # noqa: E402
from earmark.core.db.filters import ItemFilter  # noqa: E402
from earmark.core.db.items import item_ids  # noqa: E402
from earmark.core.db.search import ranked_head  # noqa: E402
from earmark.core.settings import set_setting  # noqa: E402
from library_size import MB, MIB, breakdown, print_breakdown, print_growth  # noqa: E402
from synthetic import cached_library  # noqa: E402 - after the path set-up above
from technical import TECHNICAL_QUERIES, build_technical, recall_cases  # noqa: E402

SIZE_TARGET_MB = 350

QUERIES = [
    "people", "time", "world", "the", "water", "music", "history", "science", "family", "government",
    "data", "machine", "learning", "computer", "network", "music festival", "space station", "climate change",
    "peace", "hospital", "pol", "mach", "sci", "wor", "te", "a", "gov*", "\"quoted phrase", "(unbalanced",
    "AND", "x OR", "-minus", "c++", "café", "tensor", "zebra", "quantum", "inductor graphs", "people time world",
    "report", "season finale", "interview", "weekly", "daily news", "market", "energy policy", "rock music",
    "forest fire", "ocean", "trial",
]
FILTERED = [ItemFilter(kind="episode"), ItemFilter(kind="article"), ItemFilter(state="unplayed"),
            ItemFilter(duration_min=1800.0), ItemFilter(published_from="2020-01-01")]


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def cpu_timed(fn: Callable[[], object]) -> float:
    started = time.thread_time()
    fn()
    return (time.thread_time() - started) * 1000


def load() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def rss(label: str) -> None:
    print(f"    [rss {label}: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB]")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def search_latency(path: Path, runs: int, queries: list[str] = QUERIES, label: str = "") -> None:
    db = open_library(path)
    head_times: list[float] = []
    head_cpu: list[float] = []
    full_times: list[float] = []
    for index, query in enumerate(queries):
        base = FILTERED[index % len(FILTERED)] if index % 2 else ItemFilter()
        flt = replace(base, text=query)
        ranked_head(db, flt)  # warm the page cache for this query once
        head_times.append(min(timed(partial(ranked_head, db, flt)) for _ in range(runs)))
        head_cpu.append(min(cpu_timed(partial(ranked_head, db, flt)) for _ in range(runs)))
        full_times.append(min(timed(partial(item_ids, db, flt)) for _ in range(runs)))
    db.close()
    print(f"search{label}, {len(queries)} queries (best of {runs} each; every other one with a filter):")
    print(f"  first screen (ranked head): median {statistics.median(head_times):6.1f} ms   "
          f"p95 {percentile(head_times, 0.95):6.1f} ms   max {max(head_times):6.1f} ms   [target p95 ≤ 15 ms]")
    print(f"    the same in CPU time:     median {statistics.median(head_cpu):6.1f} ms   "
          f"p95 {percentile(head_cpu, 0.95):6.1f} ms   max {max(head_cpu):6.1f} ms")
    print(f"  every match:                median {statistics.median(full_times):6.1f} ms   "
          f"p95 {percentile(full_times, 0.95):6.1f} ms   max {max(full_times):6.1f} ms")


def library_size(episodes: int) -> None:
    """The size of the cached library of ``episodes`` episodes (no articles), with its dbstat breakdown."""
    _build(episodes, 0)
    info = cached_library(300, episodes, 0)
    found = breakdown(Path(info.path))
    print(f"library of {episodes:,} episodes: {found.size / MB:.1f} MB ({found.size / MIB:.1f} MiB)   "
          f"[target ≤ {SIZE_TARGET_MB} MB]   pages of {found.page_size} bytes; by table and index:")
    print_breakdown(found)


def technical(runs: int, items: int) -> None:
    """Recall on the sample library, and the vocabulary and latency on the sample's sentences recombined."""
    with tempfile.TemporaryDirectory() as scratch:
        print("technical words, on the sample library (the PyTorch Developer Podcast):")
        for case, rank in recall_cases(Path(scratch)):
            verdict = "ok " if rank is not None and rank <= case.rank else "MISS"
            where = f"#{rank}" if rank else "not found"
            print(f"  {verdict} {case.query!r:31} finds {case.title!r} {where} (wanted in the first {case.rank}): "
                  f"{case.why}")
        path = Path(scratch) / "technical.db"
        seconds = build_technical(path, items)
        print(f"  a library of {items:,} items recombined from the sample's sentences (built in {seconds:.1f} s):")
        print_growth("recombined", breakdown(path))
        search_latency(path, runs, TECHNICAL_QUERIES, label=" on it")


def _build(episodes: int, articles: int) -> None:
    """Build (once, then cached) in a child process, so that the peak RSS below is the app's, not the builder's."""
    subprocess.run([sys.executable, str(Path(__file__).with_name("synthetic.py")), "--episodes", str(episodes),
                    "--articles", str(articles)], check=True, stdout=subprocess.DEVNULL)


def window_figures(path: Path) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    from earmark.gui.application import application, build

    app = application()
    parts = build(path, vlc_args=("--aout=dummy",))
    window, model = parts.window, parts.window.items_model

    def wait_loaded(action: Callable[[], None], timeout_ms: int = 60_000) -> float:
        loop = QEventLoop()
        model.loaded.connect(loop.quit)
        QTimer.singleShot(timeout_ms, loop.quit)
        started = time.perf_counter()
        action()
        loop.exec()
        model.loaded.disconnect(loop.quit)
        app.processEvents()
        return (time.perf_counter() - started) * 1000

    rss("window built")
    window.show()
    opened = wait_loaded(lambda: None) if model.rowCount() == 0 else 0.0
    rss("view open")
    rows = model.rowCount()
    started = time.perf_counter()
    window.item_list.scrollToBottom()
    app.processEvents()
    scrolled = (time.perf_counter() - started) * 1000
    rss("scrolled")
    filtered = wait_loaded(lambda: window.filter_bar.state.setCurrentIndex(1))
    unfiltered = wait_loaded(lambda: window.filter_bar.state.setCurrentIndex(0))
    header = window.item_list.horizontalHeader()
    sorted_ms = wait_loaded(lambda: header.setSortIndicator(0, header.sortIndicatorOrder().AscendingOrder))
    def search_people() -> None:
        window.search.setText("people")
        window.lists._search_timer.timeout.emit()  # no need to wait out the typing pause

    searched = wait_loaded(search_people)
    rss("searched")
    print(f"main window on {rows:,} items (offscreen):")
    print(f"  open the view (id list loaded and shown): {opened:7.1f} ms   [target < 350 ms]")
    print(f"  scroll to the end:                        {scrolled:7.1f} ms")
    print(f"  filter unplayed / back to all:            {filtered:7.1f} / {unfiltered:.1f} ms   [target < 100 ms]")
    print(f"  sort by title:                            {sorted_ms:7.1f} ms   [target < 100 ms]")
    print(f"  search 'people' (first screen):           {searched:7.1f} ms")
    window.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--articles", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3, help="timings per query (the best is kept)")
    parser.add_argument("--skip-gui", action="store_true")
    parser.add_argument("--technical-items", type=int, default=20_000,
                        help="items of the library recombined from the sample's sentences")
    args = parser.parse_args(argv)
    print(f"[{load()}]")
    library_size(args.episodes)
    _build(args.episodes, args.articles)
    info = cached_library(300, args.episodes, args.articles)
    found = breakdown(Path(info.path))
    print(f"library for the figures below: {args.episodes:,} episodes, {args.articles:,} articles, "
          f"{found.size / MB:.0f} MB (built in {info.build_seconds:.0f} s, cached in bench/.cache)")
    print_growth("synthetic (plain English)", found)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "library.db"
        shutil.copyfile(info.path, path)  # the window writes settings: keep the cached copy pristine
        db = open_library(path)
        set_setting(db, "feeds.refresh_on_start", False)
        db.close()
        search_latency(path, args.runs)
        if not args.skip_gui:
            window_figures(path)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MB   [target < 150 MB]")
    technical(args.runs, args.technical_items)  # after the peak RSS: it loads the sample library in this process
    print(f"[{load()}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
