"""Topic graph benchmark (issue 21): the relation pass as the window runs it, at 10,000 and 100,000 items.

Each figure is printed beside its target, with the load average (2 cores shared with other work slow every figure):
1. The full pass: the real command `earmark update-relations --full` (a process of its own, with its worker
   processes) on a copy of each library: wall time, and the peak memory of the whole process tree (the resident
   set of the command and its workers summed, sampled every 20 ms). Targets: 10,000 items <= 5 s and <= 500 MB;
   100,000 items <= 60 s and <= 1 GB. On two kinds of library: synthetic (bench/synthetic.py: 100 feeds, show
   notes of random sentences over a small shared vocabulary) and realistic (bench/realistic.py: the sample
   library's texts recombined, a technical vocabulary).
2. A refresh adding 100 items: their relations worked out against the stored index (update_relations in this
   process, what `earmark update-relations` does after a refresh), and the real command. Target <= 0.5 s.
   Their terms go to a small index of fresh terms; the refresh that finds it past its limit moves it into the
   big term index after storing its items' relations: that refresh is printed too, both parts (the newest items'
   terms made fresh beforehand, untimed, as the items refreshed since the last full pass would be).
3. `earmark related ID` at 100,000 items: reading an item's related items with their reasons (in this process,
   over 200 items), and the real command (start-up included, 20 runs). Target p95 <= 50 ms.

A benchmark prints figures; it never fails. `--sizes 10000` for a quick run (about a minute). `--only refresh`
measures the refresh alone (after the full pass of the synthetic library it needs, printed as well).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from earmark.core.db.database import Database

sys.path.insert(0, str(Path(__file__).resolve().parent))

from earmark.core.db import relations as store  # noqa: E402
from earmark.core.db.connection import open_library, write_transaction  # noqa: E402
from earmark.core.db.merge import store_feed  # noqa: E402
from earmark.core.models import EntryData, FeedData  # noqa: E402
from earmark.core.topics import build  # noqa: E402
from earmark.core.topics.build import update_relations  # noqa: E402
from earmark.core.topics.reasons import related  # noqa: E402
from realistic import realistic_library  # noqa: E402
from synthetic import _sentence_pool, _text, cached_library  # noqa: E402 - after the path set-up above

TARGETS = {10_000: (5.0, 500), 100_000: (60.0, 1000)}  # seconds, MB


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def tree_rss(pid: int) -> int:
    """The resident memory (bytes) of a process and all its descendants."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/statm", encoding="ascii") as statm:
                total += int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            continue
        todo += _children(current)
    return total


def command(library: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "earmark", "--library", str(library), *args]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's install keeps its bytecode
    return env


def run_measured(argv: list[str]) -> tuple[float, float, str]:
    """Run a command; its wall time (s), the peak memory of its process tree (MB) and its last line of output."""
    peak = 0
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, env=environment(), text=True)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(process.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, _ = process.communicate()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if process.returncode:
        raise SystemExit(f"{' '.join(argv)} exited with {process.returncode}")
    return seconds, peak / 2**20, (output.strip().splitlines() or [""])[-1]


def full_pass(kind: str, source: Path, items: int, folder: Path) -> Path:
    library = folder / f"{kind}-{items}.db"
    shutil.copyfile(source, library)
    seconds, megabytes, last = run_measured(command(library, "update-relations", "--full", "--jsonl"))
    limit_s, limit_mb = TARGETS.get(items, (float("nan"), float("nan")))
    print(f"  {kind:<10} {items:>7,} items: {seconds:6.1f} s (target <= {limit_s:.0f} s)   peak {megabytes:5.0f} MB "
          f"(target <= {limit_mb:.0f} MB)   [{load()}]")
    steps = json.loads(last).get("steps", {})
    print(f"  {'':<10} {'':>7}        steps: " + ", ".join(f"{name} {s:.2f} s" for name, s in steps.items()))
    return library


def refresh(library: Path) -> None:
    db = open_library(library)
    rng = random.Random(3)
    sentences = _sentence_pool(random.Random(7))
    for run, timer in (("in this process", _in_process), ("the real command", _as_command),
                       ("merging fresh terms", _merging)):
        entries = [EntryData(identity=f"guid:{run}-{n}", kind="episode", title=f"New episode {run} {n}",
                             guid=f"{run}-{n}", enclosure_url=f"https://example.invalid/{run}/{n}.mp3",
                             description=f"<p>{_text(rng, sentences, 300, 1500)}</p>") for n in range(100)]
        store_feed(db, f"https://example.invalid/{run}.xml", FeedData(title="Refreshed", entries=entries))
        seconds = timer(db, library)
        print(f"  a refresh adding 100 items, {run:<16}: {seconds:5.2f} s (target <= 0.5 s)   [{load()}]")
    db.close()


def _merging(db: Database, library: Path) -> float:
    """The refresh that finds the small index of fresh terms past its limit once its items' relations are stored,
    and moves it into the big one (a transaction after theirs), in this process: the newest items' terms made
    fresh first (untimed), as the items refreshed since the last full pass would be. Prints both parts."""
    fresh = store.fresh_terms(db)
    ids = [row[0] for row in db.execute("SELECT DISTINCT item_id FROM item_terms WHERE fresh = 0 ORDER BY 1 DESC")]
    with write_transaction(db):
        for item in ids:
            if fresh >= build.FRESH_TERMS_LIMIT:  # the refresh's 100 items take it past the limit
                break
            fresh += db.execute("UPDATE item_terms SET fresh = 1 WHERE item_id = ?", [item]).rowcount
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    started = time.perf_counter()
    result = update_relations(db)
    seconds = time.perf_counter() - started
    merge = result.steps.get("merge", float("nan"))
    print(f"  ({fresh:,} fresh term rows before, limit {build.FRESH_TERMS_LIMIT:,}, {store.fresh_terms(db):,} after: "
          f"relations stored in {seconds - merge:.2f} s, then the merge {merge:.2f} s)")
    return seconds


def _in_process(db: Database, _library: Path) -> float:
    started = time.perf_counter()
    update_relations(db)
    return time.perf_counter() - started


def _as_command(_db: Database, library: Path) -> float:
    return run_measured(command(library, "update-relations"))[0]


def related_reads(library: Path) -> None:
    db = open_library(library)
    ids = [row[0] for row in db.execute("SELECT id FROM items ORDER BY random() LIMIT 200")]
    related(db, ids[0], 10)
    reads = [timed(lambda i=i: related(db, i, 10)) for i in ids]
    db.close()
    print(f"  earmark related ID, in this process (200 items): median {statistics.median(reads) * 1000:5.1f} ms   "
          f"p95 {percentile(reads, 0.95) * 1000:5.1f} ms (target <= 50 ms)")
    runs = [run_measured(command(library, "related", str(i)))[0] for i in ids[:20]]
    print(f"  earmark related ID, the real command (20 runs, start-up included): median "
          f"{statistics.median(runs) * 1000:5.0f} ms   p95 {percentile(runs, 0.95) * 1000:5.0f} ms   [{load()}]")


def timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000", help="library sizes (default 10000,100000)")
    parser.add_argument("--synthetic-only", action="store_true", help="leave out the realistic libraries")
    parser.add_argument("--only", choices=["refresh"], help="only the refresh (after the synthetic full pass it needs)")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"topic graph benchmark: {os.cpu_count()} CPUs, {load()}, python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory(prefix="earmark-graph-bench-") as name:
        folder = Path(name)
        print("1. full relation pass (earmark update-relations --full: wall time, peak memory of its process tree):")
        built: dict[int, Path] = {}
        for items in sizes:
            synthetic = Path(cached_library(podcasts=100, episodes=items, seed=1).path)
            built[items] = full_pass("synthetic", synthetic, items, folder)
            if not (args.synthetic_only or args.only):
                full_pass("realistic", realistic_library(items), items, folder)
        largest = built[max(sizes)]
        print(f"2. refresh, {max(sizes):,} items:")
        refresh(largest)
        if args.only:
            return 0
        print(f"3. related items of one item, {max(sizes):,} items:")
        related_reads(largest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
